// KafkaConnection against the real broker: Ready with the cluster's identity, AuthenticationFailed for a wrong
// password, and KafkaUnavailable while the broker is frozen (SIGSTOP), back to Ready after SIGCONT, with the topics
// of the connection following it. The broker is always resumed, whatever happens.
import type { Client } from '@domain-operators/reconcile';
import { coreTypes } from '@domain-operators/reconcile';
import { kafkaBrokerPid } from '@domain-operators/testenv';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaConnections, kafkaTopics } from '../api/v1alpha1/index.ts';
import type { RunningOperator } from '../test-support.int.ts';
import { adminCluster, conditionOf, createConnection, deleteIfExists, eventually, freshNamespace, installCrds, KafkaChecker, runOperator, suffix } from '../test-support.int.ts';

let client: Client;
let kafka: KafkaInfo;
let operator: RunningOperator;
let namespace: string;
const id = suffix();
const good = `int-conn-${id}`;
const wrong = `int-wrong-${id}`;

beforeAll(async () => {
  const cluster = await adminCluster();
  client = cluster.client;
  kafka = cluster.kafka;
  await installCrds(client);
  namespace = await freshNamespace(client, 'conn');
  await createConnection(client, kafka, namespace, good);
  await createConnection(client, { ...kafka, superUser: { ...kafka.superUser, password: 'not-the-password' } }, namespace, wrong);
  operator = runOperator(cluster.kubeConfig, client, { connection: { healthyIntervalMs: 2_000, failingIntervalMs: 2_000 } });
}, 600_000);

afterAll(async () => {
  await operator.stop();
  await new KafkaChecker(kafka).deleteTopics([`frozen-${id}`]);
  for (const name of [good, wrong]) await deleteIfExists(client, kafkaConnections.type, undefined, name);
  for (const t of await client.listAll(kafkaTopics.type, { namespace })) {
    await client.patch(kafkaTopics.type, { namespace, name: t.metadata.name ?? '' }, { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
  }
  await deleteIfExists(client, coreTypes.namespace, undefined, namespace);
});

async function readyReason(name: string, status: string, reason: string, timeoutMs = 60_000): Promise<void> {
  await eventually(async () => {
    const c = await conditionOf(client, kafkaConnections.type, undefined, name, 'Ready');
    return c?.status === status && c.reason === reason;
  }, timeoutMs, `${name} Ready=${status}/${reason}`);
}

describe('KafkaConnection against the real broker', () => {
  it('is Ready with the cluster id and brokers, and AuthenticationFailed with a wrong password', async () => {
    await readyReason(good, 'True', 'Connected');
    const conn = await client.get(kafkaConnections.type, { namespace: undefined, name: good });
    expect(conn.status?.clusterId).toMatch(/.+/);
    expect(conn.status?.brokers).toHaveLength(1);
    await readyReason(wrong, 'False', 'AuthenticationFailed');
    expect(JSON.stringify((await client.get(kafkaConnections.type, { namespace: undefined, name: wrong })).status)).not.toContain('not-the-password');
  });

  it('goes to KafkaUnavailable while the broker is frozen, and back to Ready with its topics afterwards', async () => {
    const pid = (await kafkaBrokerPid()) ?? 0;
    expect(pid).toBeGreaterThan(1);
    await readyReason(good, 'True', 'Connected');
    const started = Date.now();
    process.kill(pid, 'SIGSTOP');
    try {
      await readyReason(good, 'False', 'KafkaUnavailable', 90_000);
      const detectedMs = Date.now() - started;
      await client.create(kafkaTopics.type, {
        apiVersion: kafkaTopics.apiVersion,
        kind: 'KafkaTopic',
        metadata: { name: `frozen-${id}`, namespace },
        spec: { connectionRef: { name: good }, partitions: 1, replicationFactor: 1, deletionPolicy: 'Delete' },
      });
      await eventually(async () => (await conditionOf(client, kafkaTopics.type, namespace, `frozen-${id}`, 'Synced'))?.reason === 'KafkaUnavailable', 30_000, 'topic waits');
      console.log(`KafkaUnavailable detected after ${detectedMs} ms`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const resumed = Date.now();
    await readyReason(good, 'True', 'Connected', 90_000);
    await eventually(async () => (await conditionOf(client, kafkaTopics.type, namespace, `frozen-${id}`, 'Ready'))?.status === 'True', 60_000, 'topic Ready after the broker is back');
    console.log(`Ready again ${Date.now() - resumed} ms after SIGCONT`);
  });
});
