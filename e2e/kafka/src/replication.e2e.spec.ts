// A replication-factor change end to end, on testenv's second Kafka cluster of two brokers (`upKafkaPair`; the main
// one has a single broker, where a change can only be refused): the operator reassigns the partitions, the status
// shows the change while it runs, Kafka ends with the new replica sets all in sync, and every record written before
// the change is still there; a topic refused for want of brokers follows by itself when broker 2 comes back. It starts
// and stops testenv processes, so it skips itself on an existing cluster
// (`$E2E_KUBECONFIG`, kind in hosted CI), whose Kafka it does not control.
import { adminConnection, eventually, freshNamespace, randomSuffix, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { getCondition, SharedInformers } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { downKafkaPair, stopKafkaPairBroker, upKafkaPair } from '@domain-operators/testenv';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaTopics } from './api.ts';
import type { KafkaTopic } from './api.ts';
import { cleanUp, createConnection, topicResource, waitForReason } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';

const skip = targetsExistingCluster();
const id = randomSuffix();
const connection = `e2e-rf-${id}`;
const RECORDS = 300;

let client: Client;
let pair: KafkaInfo;
let checker: KafkaChecker | undefined;
let operator: OperatorProcess | undefined;
let namespace: string;
const informersStop = new AbortController();
let informersDone: Promise<void> = Promise.resolve();
/** Every status the watch delivered, in order, with the generation it was written for. */
const history: { readonly name: string; readonly generation: number; readonly status: KafkaTopic['status'] }[] = [];

beforeAll(async () => {
  if (skip) return;
  const { client: admin, kubeConfig } = await adminConnection();
  client = admin;
  pair = await upKafkaPair();
  checker = new KafkaChecker(pair);
  namespace = await freshNamespace({}, 'e2e-kafka-rf');
  await createConnection(client, pair, { name: connection, secretNamespace: namespace });
  operator = await startOperator({ system: 'kafka', values: { watchNamespaces: [namespace] } });
  // A reassignment of a small topic ends within milliseconds; a watch sees every status the operator wrote meanwhile.
  const informers = new SharedInformers({ kubeConfig }, { namespace });
  informers.informerFor(kafkaTopics.type).onChange((change) => {
    if (change.type === 'Deleted') return;
    history.push({ name: change.object.metadata.name ?? '', generation: change.object.status?.observedGeneration ?? 0, status: change.object.status });
  });
  informersDone = informers.run(informersStop.signal).catch(() => undefined);
  await informers.waitForSync();
}, 240_000);

afterAll(async () => {
  if (skip) return;
  informersStop.abort();
  await informersDone;
  await operator?.stop();
  await checker?.close();
  await cleanUp(client, [namespace], [connection]);
  await downKafkaPair();
}, 120_000);

/** Waits until `name` is Ready at its current generation with `replicationFactor` in status and no change under way. */
async function settledAt(name: string, replicationFactor: number): Promise<KafkaTopic> {
  return eventually(
    async () => {
      const topic = await client.get(kafkaTopics.type, { namespace, name });
      const ready = getCondition(topic.status?.conditions, 'Ready');
      const settled =
        ready?.status === 'True' &&
        topic.status?.observedGeneration === topic.metadata.generation &&
        topic.status?.replicationFactor === replicationFactor &&
        topic.status.replicasChange === undefined;
      return settled ? topic : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 250, what: `KafkaTopic ${name} Ready with replicationFactor ${replicationFactor} and no change under way` },
  );
}

/** Sets `spec.replicationFactor` and returns the new generation. */
async function changeReplicationFactor(name: string, replicationFactor: number): Promise<number> {
  const patched = await client.patch(kafkaTopics.type, { namespace, name }, { type: 'merge', body: { spec: { replicationFactor } } });
  return patched.metadata.generation ?? 0;
}

/** Every replica set of `name` in Kafka equals `replicas`, all in sync (a follower joins the ISR a moment later). */
async function kafkaHolds(name: string, partitions: number, replicas: readonly number[][]): Promise<void> {
  const expected = JSON.stringify(Array.from({ length: partitions }, (_, i) => ({ replicas: replicas[i % replicas.length], isr: replicas[i % replicas.length] })));
  let last = '';
  await eventually(
    async () => {
      last = JSON.stringify(await checker?.replicaSets(name));
      return last === expected ? true : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 250, what: `replica sets of ${name}` },
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}; Kafka showed ${last}, expected ${expected}`);
  });
}

function records(name: string): string[] {
  return Array.from({ length: RECORDS }, (_, i) => `${name}-${String(i)}`);
}

async function expectAllRecords(name: string): Promise<void> {
  const read = await checker?.readRecords(name, RECORDS);
  expect(new Set(read)).toEqual(new Set(records(name)));
}

describe.skipIf(skip)('KafkaTopic replication factor on two brokers, end to end', () => {
  it('raises the factor from 1 to 2 by reassignment, shows it in status while it runs, and keeps every record', async () => {
    const name = `rf-up-${id}`;
    await client.create(kafkaTopics.type, topicResource(namespace, name, connection, { partitions: 3, deletionPolicy: 'Delete' }));
    await settledAt(name, 1);
    await checker?.produceRecords(name, records(name));

    const generation = await changeReplicationFactor(name, 2);
    const settled = await settledAt(name, 2);
    expect(settled.status?.observedGeneration).toBe(generation);
    await kafkaHolds(name, 3, [[1, 2]]);
    // The watch saw the change under way, at the new generation, before the final status.
    const during = history.filter((entry) => entry.name === name && entry.generation === generation && entry.status?.replicasChange !== undefined);
    expect(during.length).toBeGreaterThan(0);
    expect(during[0]?.status?.replicasChange).toMatchObject({ targetReplicas: 2, state: 'Ongoing', message: expect.stringContaining('to 2 replicas') as unknown });
    expect(during[0]?.status?.replicationFactor).toBe(1);
    await expectAllRecords(name);
  });

  it('lowers the factor from 2 to 1, leaving one replica per partition and every record', async () => {
    const name = `rf-down-${id}`;
    await client.create(kafkaTopics.type, topicResource(namespace, name, connection, { partitions: 2, replicationFactor: 2, deletionPolicy: 'Delete' }));
    await settledAt(name, 2);
    await kafkaHolds(name, 2, [[1, 2]]);
    await checker?.produceRecords(name, records(name));

    const generation = await changeReplicationFactor(name, 1);
    expect((await settledAt(name, 1)).status?.observedGeneration).toBe(generation);
    const sets = await eventually(
      async () => {
        const now = await checker?.replicaSets(name);
        return now?.every((set) => set.replicas.length === 1 && set.isr.length === 1) === true ? now : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, what: `one replica per partition of ${name}` },
    );
    expect(sets).toHaveLength(2);
    await expectAllRecords(name);
  });

  it('refuses a factor above the number of brokers, changing nothing in Kafka', async () => {
    const name = `rf-refused-${id}`;
    await client.create(kafkaTopics.type, topicResource(namespace, name, connection, { partitions: 2 }));
    await settledAt(name, 1);
    await changeReplicationFactor(name, 3);
    const message = await waitForReason(client, kafkaTopics.type, { namespace, name }, { type: 'Synced', status: 'False', reason: 'InvalidReplicationFactor' });
    expect(message).toContain('needs at least 3 brokers; the cluster has 2');
    expect(await checker?.topic(name)).toEqual({ partitions: 2, replicationFactor: 1 });
    expect((await client.get(kafkaTopics.type, { namespace, name })).status?.replicationFactor).toBe(1);
  });

  it('carries out a change refused for want of brokers by itself once the second broker is back, without a touch', async () => {
    const name = `rf-waits-${id}`;
    const topic = topicResource(namespace, name, connection, { partitions: 2, deletionPolicy: 'Delete' });
    // Rechecked at the drift-check interval; the annotation brings it down to 10 s for the test.
    topic.metadata.annotations = { 'kafka.domain-operators.io/drift-check-interval': '10s' };
    await client.create(kafkaTopics.type, topic);
    await settledAt(name, 1);
    await stopKafkaPairBroker();
    let generation: number;
    try {
      // Kafka itself would place a replica on the stopped (fenced, still registered) broker; the operator counts
      // only the brokers that serve.
      generation = await eventually(
        async () => {
          const cluster = await checker?.admin.metadata({ topics: [], forceUpdate: true });
          return cluster?.brokers.size === 1 ? true : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 250, what: 'Kafka listing one broker' },
      ).then(() => changeReplicationFactor(name, 2));
      const message = await waitForReason(client, kafkaTopics.type, { namespace, name }, { type: 'Synced', status: 'False', reason: 'InvalidReplicationFactor' });
      expect(message).toContain('needs at least 2 brokers; the cluster has 1');
      // (Kafka is not asked here: the partition led by the stopped broker has no leader, and Metadata fails on it.)
    } finally {
      await upKafkaPair();
    }
    const settled = await settledAt(name, 2);
    expect(settled.metadata.generation).toBe(generation);
    await kafkaHolds(name, 2, [[1, 2]]);
  });
});
