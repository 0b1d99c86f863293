// KafkaTopic end to end: the operator runs as a process authenticated as its chart's ServiceAccount; the scenarios
// are driven only through the Kubernetes API and checked in Kafka with an independent admin client.
import { adminClient, eventually, freshNamespace, kstatus, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { kafkaConnections, kafkaTopics } from './api.ts';
import type { KafkaTopic } from './api.ts';
import type { Client } from '@domain-operators/reconcile';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, createConnection, kafkaUnderTest, topicResource, waitForReason } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';

let client: Client;
let kafka: KafkaInfo;
let checker: KafkaChecker;
let operator: OperatorProcess | undefined;
let opsNamespace: string;
let teamNamespace: string;
const id = randomSuffix();
const connection = `e2e-topics-${id}`;
const tenantConnection = `e2e-tenant-${id}`;
const createdTopics: string[] = [];

beforeAll(async () => {
  client = await adminClient();
  kafka = await kafkaUnderTest();
  checker = new KafkaChecker(kafka);
  opsNamespace = await freshNamespace({}, 'e2e-kafka-ops');
  teamNamespace = await freshNamespace({ kafka: 'yes' }, 'e2e-team');
  await createConnection(client, kafka, { name: connection, secretNamespace: opsNamespace });
  await createConnection(client, kafka, {
    name: tenantConnection,
    secretNamespace: opsNamespace,
    tenancy: { namePrefix: '{namespace}.', namespaceSelector: { matchLabels: { kafka: 'yes' } } },
  });
  operator = await startOperator({ system: 'kafka' });
});

afterAll(async () => {
  await operator?.stop();
  await checker.deleteTopics(createdTopics);
  await checker.close();
  await cleanUp(client, [teamNamespace, opsNamespace], [connection, tenantConnection]);
});

function running(): OperatorProcess {
  if (operator === undefined) throw new Error('the operator did not start');
  return operator;
}

/** Ready at the current generation, with the topic facts (written in the same status patch as the conditions). */
async function ready(name: string, namespace = teamNamespace): Promise<KafkaTopic> {
  await waitForCondition(client, kafkaTopics.type, { namespace, name }, 'Ready', 'True', 60_000);
  return eventually(
    async () => {
      const topic = await client.get(kafkaTopics.type, { namespace, name });
      return topic.status?.topicName !== undefined && topic.status.partitions === topic.spec.partitions ? topic : undefined;
    },
    { timeoutMs: 30_000, what: `status facts of KafkaTopic ${name}` },
  );
}

/** JSON of a flat value with its keys sorted, so that key order does not matter. Pure. */
function canonical(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value, Object.keys(value).sort()) : JSON.stringify(value);
}

/**
 * Waits until Kafka shows `expected` for `read` (a broker's Metadata and DescribeConfigs answers trail its controller
 * for a moment after a change) and fails with what it showed last.
 */
async function kafkaShows(read: () => Promise<unknown>, expected: unknown, what: string): Promise<void> {
  let last: unknown;
  await eventually(
    async () => {
      last = await read();
      return canonical(last) === canonical(expected) ? true : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 250, what: `${what}: expected ${JSON.stringify(expected)}` },
  ).catch((err: unknown) => {
    throw new Error(`${err instanceof Error ? err.message : String(err)}; Kafka showed ${JSON.stringify(last)}`);
  });
}

async function refused(name: string, reason: string, namespace = teamNamespace): Promise<string> {
  return waitForReason(client, kafkaTopics.type, { namespace, name }, { type: 'Synced', status: 'False', reason });
}

describe('KafkaTopic, end to end', () => {
  it('creates a topic, grows its partitions, changes a config value and removes a config key', async () => {
    const name = `orders-${id}`;
    createdTopics.push(name);
    await client.create(kafkaTopics.type, topicResource(teamNamespace, name, connection, { partitions: 2, config: { 'retention.ms': '3600000', 'cleanup.policy': 'delete' } }));
    const created = await ready(name);
    expect(created.status).toMatchObject({ topicName: name, partitions: 2, replicationFactor: 1, ownership: 'Created' });
    expect(created.status?.topicId).toMatch(/.+/);
    await kafkaShows(() => checker.topic(name), { partitions: 2, replicationFactor: 1 }, `topic ${name}`);
    await kafkaShows(() => checker.overridesOf(name), { 'retention.ms': '3600000', 'cleanup.policy': 'delete' }, `overrides of ${name}`);

    await client.patch(kafkaTopics.type, { namespace: teamNamespace, name }, { type: 'merge', body: { spec: { partitions: 4 } } });
    expect((await ready(name)).status?.partitions).toBe(4);
    await kafkaShows(() => checker.topic(name), { partitions: 4, replicationFactor: 1 }, `topic ${name}`);

    await client.patch(kafkaTopics.type, { namespace: teamNamespace, name }, { type: 'merge', body: { spec: { config: { 'retention.ms': '7200000' } } } });
    await ready(name);
    await kafkaShows(() => checker.overridesOf(name), { 'retention.ms': '7200000', 'cleanup.policy': 'delete' }, `overrides of ${name}`);

    // A key removed from the spec returns to the broker default: no override left in Kafka.
    await client.patch(kafkaTopics.type, { namespace: teamNamespace, name }, { type: 'merge', body: { spec: { config: { 'cleanup.policy': null } } } });
    await ready(name);
    await kafkaShows(() => checker.overridesOf(name), { 'retention.ms': '7200000' }, `overrides of ${name}`);
  });

  it('refuses a replication factor the single broker cannot hold, changing nothing', async () => {
    const name = `rf-${id}`;
    createdTopics.push(name);
    await client.create(kafkaTopics.type, topicResource(teamNamespace, name, connection, { partitions: 3 }));
    await ready(name);
    await client.patch(kafkaTopics.type, { namespace: teamNamespace, name }, { type: 'merge', body: { spec: { replicationFactor: 2 } } });
    expect(await refused(name, 'InvalidReplicationFactor')).toContain('needs at least 2 brokers');
    await kafkaShows(() => checker.topic(name), { partitions: 3, replicationFactor: 1 }, `topic ${name}`);
    const topic = await client.get(kafkaTopics.type, { namespace: teamNamespace, name });
    expect(topic.status?.replicationFactor).toBe(1);
    expect(topic.status?.replicasChange).toBeUndefined();
  });

  it('reports an invalid config value with Kafka\u2019s own message and creates nothing', async () => {
    const name = `badconfig-${id}`;
    createdTopics.push(name);
    await client.create(kafkaTopics.type, topicResource(teamNamespace, name, connection, { config: { 'cleanup.policy': 'sometimes' } }));
    expect(await refused(name, 'InvalidConfig')).toMatch(/cleanup\.policy/);
    expect(await checker.topic(name)).toBeUndefined();
  });

  it('keeps the topic on delete with Retain and removes it with Delete', async () => {
    const kept = `kept-${id}`;
    const gone = `gone-${id}`;
    createdTopics.push(kept, gone);
    await client.create(kafkaTopics.type, topicResource(teamNamespace, kept, connection));
    await client.create(kafkaTopics.type, topicResource(teamNamespace, gone, connection, { deletionPolicy: 'Delete' }));
    await ready(kept);
    await ready(gone);
    await client.delete(kafkaTopics.type, { namespace: teamNamespace, name: kept });
    await client.delete(kafkaTopics.type, { namespace: teamNamespace, name: gone });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const left = (await client.listAll(kafkaTopics.type, { namespace: teamNamespace })).map((t) => t.metadata.name);
      if (!left.includes(kept) && !left.includes(gone)) break;
      if (Date.now() > deadline) throw new Error(`KafkaTopics not deleted within 60 s: ${left.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await checker.topic(gone)).toBeUndefined();
    await kafkaShows(() => checker.topic(kept), { partitions: 1, replicationFactor: 1 }, `topic ${kept}`);
  });

  it('imports a topic another tool made, observe-only: its facts in status, nothing written to Kafka, nothing deleted with it; then adopted', async () => {
    const theirs = `theirs-${id}`;
    createdTopics.push(theirs);
    await checker.createTopics([theirs], 3, { 'retention.ms': '3600000' });
    const observeOnly = { 'kafka.domain-operators.io/observe-only': 'true' };
    const resource = topicResource(teamNamespace, theirs, connection, { partitions: 6, deletionPolicy: 'Delete' });
    await client.create(kafkaTopics.type, { ...resource, metadata: { namespace: teamNamespace, name: theirs, annotations: observeOnly } });
    const imported = await waitForCondition(client, kafkaTopics.type, { namespace: teamNamespace, name: theirs }, 'Ready', 'True', 60_000);
    expect(imported.status).toMatchObject({ externalName: `${connection}/${theirs}`, topicName: theirs, partitions: 3 });
    expect(imported.status?.ownership).toBeUndefined();
    const synced = imported.status?.conditions?.find((c) => c.type === 'Synced');
    expect(synced).toMatchObject({ status: 'True', reason: 'Observed' });
    expect(synced?.message).toContain('partitions');
    expect(imported.metadata.finalizers ?? []).toEqual([]);
    await kafkaShows(() => checker.topic(theirs), { partitions: 3, replicationFactor: 1 }, `topic ${theirs} untouched`);

    // Observe-only, then adopted: the annotation swapped for adopt, the spec is applied (partitions 3 → 6).
    await client.patch(kafkaTopics.type, { namespace: teamNamespace, name: theirs }, { type: 'merge', body: { metadata: { annotations: { 'kafka.domain-operators.io/observe-only': null, 'kafka.domain-operators.io/adopt': 'true' } } } });
    await kafkaShows(() => checker.topic(theirs), { partitions: 6, replicationFactor: 1 }, `topic ${theirs} adopted and grown`);
    await eventually(
      async () => ((await client.get(kafkaTopics.type, { namespace: teamNamespace, name: theirs })).status?.ownership === 'Adopted' ? true : undefined),
      { timeoutMs: 30_000, what: `KafkaTopic ${theirs} adopted` },
    );
  });

  it('leaves names the connection ignores (spec.ignoredNames) to the other tool: IgnoredName, Failed for kstatus, nothing created', async () => {
    const legacy = `legacy-${id}-orders`;
    await client.patch(kafkaConnections.type, { namespace: undefined, name: connection }, { type: 'merge', body: { spec: { ignoredNames: [`legacy-${id}-*`] } } });
    try {
      await client.create(kafkaTopics.type, topicResource(teamNamespace, legacy, connection));
      const message = await waitForReason(client, kafkaTopics.type, { namespace: teamNamespace, name: legacy }, { type: 'Ready', status: 'False', reason: 'IgnoredName' });
      expect(message).toContain(`matches the ignored name "legacy-${id}-*" of KafkaConnection "${connection}"`);
      expect(await checker.topic(legacy)).toBeUndefined();
      const live = await client.get(kafkaTopics.type, { namespace: teamNamespace, name: legacy });
      expect((await kstatus([live]))[0]?.status).toBe('Failed');
      await client.delete(kafkaTopics.type, { namespace: teamNamespace, name: legacy });
    } finally {
      await client.patch(kafkaConnections.type, { namespace: undefined, name: connection }, { type: 'merge', body: { spec: { ignoredNames: null } } });
    }
  });

  it('observe-only: a topic that does not exist is Ready=False/ExternalNotFound and is never created', async () => {
    const absent = `absent-${id}`;
    const resource = topicResource(teamNamespace, absent, connection);
    await client.create(kafkaTopics.type, { ...resource, metadata: { namespace: teamNamespace, name: absent, annotations: { 'kafka.domain-operators.io/observe-only': 'true' } } });
    await waitForReason(client, kafkaTopics.type, { namespace: teamNamespace, name: absent }, { type: 'Ready', status: 'False', reason: 'ExternalNotFound' });
    expect(await checker.topic(absent)).toBeUndefined();
    await client.delete(kafkaTopics.type, { namespace: teamNamespace, name: absent });
  });

  it('applies the tenancy prefix and refuses a name outside it and a namespace the connection does not select, creating nothing', async () => {
    const prefixed = `${teamNamespace}.payments`;
    const stolen = `other.stolen-${id}`;
    createdTopics.push(prefixed, stolen, `${opsNamespace}.payments-${id}`);
    await client.create(kafkaTopics.type, topicResource(teamNamespace, 'payments', tenantConnection));
    expect((await ready('payments')).status?.topicName).toBe(prefixed);
    await kafkaShows(() => checker.topic(prefixed), { partitions: 1, replicationFactor: 1 }, `topic ${prefixed}`);

    await client.create(kafkaTopics.type, topicResource(teamNamespace, 'stolen', tenantConnection, { topicName: stolen }));
    expect(await refused('stolen', 'TenancyViolation')).toContain(`must start with "${teamNamespace}."`);
    await client.create(kafkaTopics.type, topicResource(opsNamespace, `payments-${id}`, tenantConnection));
    expect(await refused(`payments-${id}`, 'TenancyViolation', opsNamespace)).toContain('is not selected');
    expect(await checker.topic(stolen)).toBeUndefined();
    expect(await checker.topic(`${opsNamespace}.payments-${id}`)).toBeUndefined();
  });

  it('did all this as its ServiceAccount without a single authorization failure, and logged no secret', async () => {
    const log = await running().logTail(5_000);
    expect(log).not.toMatch(/forbidden/i);
    expect(log).not.toContain(kafka.superUser.password);
  });
});
