// KafkaTopic scenarios against the real apiserver and the real broker: the controllers run in-process; Kafka is
// checked with @platformatic/kafka's own Admin client.
import type { Client } from '@domain-operators/reconcile';
import { coreTypes } from '@domain-operators/reconcile';
import { kstatus } from '@domain-operators/testenv';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaConnections, kafkaTopics } from '../api/v1alpha1/index.ts';
import type { KafkaTopic } from '../api/v1alpha1/index.ts';
import type { RunningOperator } from '../test-support.int.ts';
import { adminCluster, conditionOf, createConnection, deleteIfExists, eventually, freshNamespace, installCrds, KafkaChecker, runOperator, suffix } from '../test-support.int.ts';

let client: Client;
let kafka: KafkaInfo;
let operator: RunningOperator;
let checker: KafkaChecker;
let opsNamespace: string;
let teamNamespace: string;
const id = suffix();
const connection = `int-topics-${id}`;
const tenantConnection = `int-tenant-${id}`;
const topicNames: string[] = [];

beforeAll(async () => {
  const cluster = await adminCluster();
  client = cluster.client;
  kafka = cluster.kafka;
  await installCrds(client);
  opsNamespace = await freshNamespace(client, 'kafka-ops');
  teamNamespace = await freshNamespace(client, 'team', { kafka: 'yes' });
  await createConnection(client, kafka, opsNamespace, connection);
  await createConnection(client, kafka, opsNamespace, tenantConnection, { namePrefix: '{namespace}.', namespaceSelector: { matchLabels: { kafka: 'yes' } } });
  checker = new KafkaChecker(kafka);
  operator = runOperator(cluster.kubeConfig, client, { topic: { driftCheckIntervalMs: 3_000 } });
}, 600_000);

afterAll(async () => {
  await operator.stop();
  await checker.deleteTopics(topicNames);
  await checker.close();
  await deleteIfExists(client, kafkaConnections.type, undefined, connection);
  await deleteIfExists(client, kafkaConnections.type, undefined, tenantConnection);
  // Topics still in the namespaces keep a finalizer without a running operator: force them out first.
  for (const ns of [teamNamespace, opsNamespace]) {
    for (const t of await client.listAll(kafkaTopics.type, { namespace: ns })) {
      await client.patch(kafkaTopics.type, { namespace: ns, name: t.metadata.name ?? '' }, { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
    }
    await deleteIfExists(client, coreTypes.namespace, undefined, ns);
  }
});

function topic(name: string, spec: Partial<KafkaTopic['spec']> = {}, namespace = teamNamespace, connectionName = connection): KafkaTopic {
  return {
    apiVersion: kafkaTopics.apiVersion,
    kind: 'KafkaTopic',
    metadata: { name, namespace },
    spec: { connectionRef: { name: connectionName }, partitions: 1, replicationFactor: 1, deletionPolicy: 'Retain', ...spec },
  };
}

async function ready(name: string, namespace = teamNamespace): Promise<KafkaTopic> {
  return eventually(
    async () => {
      const t = await client.get(kafkaTopics.type, { namespace, name });
      const c = t.status?.conditions?.find((x) => x.type === 'Synced');
      return c?.status === 'True' && c.observedGeneration === t.metadata.generation && t.status?.topicName !== undefined ? t : undefined;
    },
    60_000,
    `KafkaTopic ${name} synced`,
  );
}

async function syncedReason(name: string, reason: string, namespace = teamNamespace): Promise<string> {
  return eventually(
    async () => {
      const c = await conditionOf(client, kafkaTopics.type, namespace, name, 'Synced');
      return c?.status === 'False' && c.reason === reason ? c.message : undefined;
    },
    60_000,
    `KafkaTopic ${name} Synced=False/${reason}`,
  );
}

/** What the real kstatus (Flux's and kpt's reading) says of each KafkaTopic now, as `name: verdict`. */
async function kstatusOf(...names: readonly (readonly [namespace: string, name: string])[]): Promise<string[]> {
  const live = await Promise.all(names.map(([namespace, name]) => client.get(kafkaTopics.type, { namespace, name })));
  return (await kstatus(live)).map((verdict) => `${verdict.name}: ${verdict.status}`);
}

describe('KafkaTopic against the real broker', () => {
  it('creates a topic, grows it, changes and removes config, and refuses an RF the cluster cannot hold', async () => {
    const name = `orders-${id}`;
    topicNames.push(name);
    await client.create(kafkaTopics.type, topic(name, { partitions: 2, config: { 'retention.ms': '3600000', 'cleanup.policy': 'delete' } }));
    const created = await ready(name);
    expect(created.status).toMatchObject({ topicName: name, partitions: 2, replicationFactor: 1, ownership: 'Created' });
    expect(created.status?.topicId).toMatch(/.+/);
    expect(await checker.topic(name)).toEqual({ partitions: 2, replicationFactor: 1 });
    expect(await checker.topicOverrides(name)).toEqual({ 'retention.ms': '3600000', 'cleanup.policy': 'delete' });

    await client.patch(kafkaTopics.type, { namespace: teamNamespace, name }, { type: 'merge', body: { spec: { partitions: 4, config: { 'retention.ms': '7200000', 'cleanup.policy': null } } } });
    await ready(name);
    expect(await checker.topic(name)).toEqual({ partitions: 4, replicationFactor: 1 });
    expect(await checker.topicOverrides(name)).toEqual({ 'retention.ms': '7200000' });

    await client.patch(kafkaTopics.type, { namespace: teamNamespace, name }, { type: 'merge', body: { spec: { replicationFactor: 2 } } });
    const message = await syncedReason(name, 'InvalidReplicationFactor');
    expect(message).toContain('needs at least 2 brokers');
    expect(await checker.topic(name)).toEqual({ partitions: 4, replicationFactor: 1 });
  });

  it('reports an invalid config value with Kafka\u2019s own message and creates nothing', async () => {
    const name = `badconfig-${id}`;
    topicNames.push(name);
    await client.create(kafkaTopics.type, topic(name, { config: { 'cleanup.policy': 'sometimes' } }));
    const message = await syncedReason(name, 'InvalidConfig');
    expect(message).toMatch(/cleanup.policy/);
    expect(await checker.topic(name)).toBeUndefined();
  });

  it('reverts partitions grown by hand with PartitionDecreaseNotSupported, and config changed by hand with an Event', async () => {
    const name = `drift-${id}`;
    topicNames.push(name);
    await client.create(kafkaTopics.type, topic(name, { config: { 'retention.ms': '3600000' } }));
    await ready(name);
    await checker.admin.incrementalAlterConfigs({ resources: [{ resourceType: 2, resourceName: name, configs: [{ name: 'retention.ms', configOperation: 0, value: '1000' }] }] });
    await eventually(async () => (await checker.topicOverrides(name))['retention.ms'] === '3600000', 30_000, 'config drift reverted');
    await checker.admin.createPartitions({ topics: [{ name, count: 3 }] });
    const message = await syncedReason(name, 'PartitionDecreaseNotSupported');
    expect(message).toContain('has 3 partitions, the spec asks for 1');
  });

  it('deletes with Retain (topic stays) and with Delete (topic gone)', async () => {
    const kept = `kept-${id}`;
    const gone = `gone-${id}`;
    topicNames.push(kept, gone);
    await client.create(kafkaTopics.type, topic(kept));
    await client.create(kafkaTopics.type, topic(gone, { deletionPolicy: 'Delete' }));
    await ready(kept);
    await ready(gone);
    await client.delete(kafkaTopics.type, { namespace: teamNamespace, name: kept });
    await client.delete(kafkaTopics.type, { namespace: teamNamespace, name: gone });
    await eventually(async () => (await checker.topic(gone)) === undefined, 30_000, 'topic deleted in Kafka');
    await eventually(async () => (await client.listAll(kafkaTopics.type, { namespace: teamNamespace })).every((t) => t.metadata.name !== kept && t.metadata.name !== gone), 30_000, 'resources gone');
    expect(await checker.topic(kept)).toEqual({ partitions: 1, replicationFactor: 1 });
  });

  it('adopts an existing topic matching the spec, refuses one that differs with AlreadyExists, and the older KafkaTopic wins a conflict', async () => {
    const same = `adopt-${id}`;
    const differs = `exists-${id}`;
    topicNames.push(same, differs);
    await checker.createTopic(same, 1);
    await checker.createTopic(differs, 2);
    await client.create(kafkaTopics.type, topic(same));
    await client.create(kafkaTopics.type, topic(differs, { partitions: 3 }));
    expect((await ready(same)).status?.ownership).toBe('Adopted');
    expect(await syncedReason(differs, 'AlreadyExists')).toContain('partitions: 2 → 3');
    expect(await checker.topic(differs)).toEqual({ partitions: 2, replicationFactor: 1 });

    await client.create(kafkaTopics.type, topic(`second-${id}`, { topicName: same }));
    expect(await syncedReason(`second-${id}`, 'ResourceConflict')).toContain('already claimed');
    // Adoption refused and a conflict wait for a person: Flux and kpt read them as Failed at once, never as in progress.
    expect(await kstatusOf([teamNamespace, differs], [teamNamespace, `second-${id}`])).toEqual([`${differs}: Failed`, `second-${id}: Failed`]);
  });

  it('applies the tenancy prefix, refuses names outside it and namespaces the connection does not select, creating nothing', async () => {
    await client.create(kafkaTopics.type, topic('payments', {}, teamNamespace, tenantConnection));
    const prefixed = `${teamNamespace}.payments`;
    topicNames.push(prefixed, `other.stolen-${id}`, `payments-${id}`);
    expect((await ready('payments')).status?.topicName).toBe(prefixed);
    expect(await checker.topic(prefixed)).toBeDefined();

    await client.create(kafkaTopics.type, topic('stolen', { topicName: `other.stolen-${id}` }, teamNamespace, tenantConnection));
    expect(await syncedReason('stolen', 'TenancyViolation')).toContain(`must start with "${teamNamespace}."`);
    await client.create(kafkaTopics.type, topic(`payments-${id}`, {}, opsNamespace, tenantConnection));
    expect(await syncedReason(`payments-${id}`, 'TenancyViolation', opsNamespace)).toContain('is not selected');
    expect(await kstatusOf([teamNamespace, 'stolen'], [opsNamespace, `payments-${id}`])).toEqual(['stolen: Failed', `payments-${id}: Failed`]);
    expect(await checker.topic(`other.stolen-${id}`)).toBeUndefined();
    expect(await checker.topic(`${opsNamespace}.payments-${id}`)).toBeUndefined();
  });
});
