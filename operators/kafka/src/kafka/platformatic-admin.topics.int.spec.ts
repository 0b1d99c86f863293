import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { isTerminalError } from '@domain-operators/reconcile';
import { ensureTestEnv, type KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObservedTopic } from './admin.ts';
import { isKafkaAdminError } from './errors.ts';
import { PlatformaticKafkaAdmin } from './platformatic-admin.ts';
import { planTopic, type DesiredTopic, type TopicChangePlan } from './topic-plan.ts';

const suffix = randomBytes(4).toString('hex');
let kafka: KafkaInfo;
let admin: PlatformaticKafkaAdmin;
const created: string[] = [];

beforeAll(async () => {
  kafka = (await ensureTestEnv(['kafka'])).kafka;
  admin = new PlatformaticKafkaAdmin({}, { bootstrapServers: kafka.bootstrapServers, sasl: kafka.superUser, clientId: 'kafka-operator-int' });
});

afterAll(async () => {
  for (const name of created) await admin.deleteTopic(name);
  await admin.close();
});

function topicName(label: string): string {
  const name = `kop-int-${label}-${suffix}`;
  created.push(name);
  return name;
}

async function describe1(name: string): Promise<ObservedTopic | undefined> {
  const outcome = (await admin.describeTopics([name])).get(name);
  if (outcome === undefined) throw new Error(`no answer for ${name}`);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

async function configsOf(name: string): Promise<ReadonlyMap<string, { value: string | null; source: string }>> {
  const outcome = (await admin.describeTopicConfigs([name])).get(name);
  if (outcome === undefined || !outcome.ok || outcome.value === undefined) throw new Error(`no configs for ${name}`);
  return new Map(outcome.value.map((e) => [e.name, { value: e.value, source: e.source }]));
}

/** Polls `check` every 100 ms until it is true: the broker's metadata trails the controller's answer. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Observes the topic as a reconciler would and plans towards `desired`. */
async function plan(name: string, desired: DesiredTopic): Promise<ReturnType<typeof planTopic>> {
  const [topic, info, reassignments] = await Promise.all([describe1(name), admin.clusterInfo(), admin.listReassignments([name])]);
  if (topic === undefined) throw new Error(`${name} is missing`);
  const configs = (await admin.describeTopicConfigs([name])).get(name);
  if (configs === undefined || !configs.ok || configs.value === undefined) throw new Error(`no configs for ${name}`);
  return planTopic(desired, { topic, configs: configs.value, brokers: info.brokers.map((b) => b.id), reassignmentInProgress: reassignments.length > 0 });
}

async function apply(name: string, p: TopicChangePlan): Promise<void> {
  if (p.partitionCount !== undefined) await admin.createPartitions(name, p.partitionCount);
  await admin.alterTopicConfigs(name, p.configOps);
  await admin.reassignPartitions(name, p.reassignment);
}

function changes(p: ReturnType<typeof planTopic>): TopicChangePlan {
  if (p.kind !== 'changes') throw new Error(`refused: ${p.reason}: ${p.message}`);
  return p;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('PlatformaticKafkaAdmin against the real broker: cluster and topics', () => {
  it('reports the cluster', async () => {
    const info = await admin.clusterInfo();
    expect(info.clusterId).toMatch(/\S+/);
    expect(info.brokers.length).toBeGreaterThanOrEqual(1);
    expect(info.brokers.map((b) => b.id)).toContain(info.controllerId);
  });

  it('creates a topic with configs, grows it, sets and removes a config key (back to the broker default)', async () => {
    const name = topicName('lifecycle');
    const createdTopics = await admin.createTopics([{ name, partitions: 1, replicationFactor: 1, config: { 'retention.ms': '3600000' } }]);
    const outcome = createdTopics.get(name);
    expect(outcome?.ok).toBe(true);
    const topic = await describe1(name);
    expect(topic?.partitions).toHaveLength(1);
    expect(outcome?.ok === true && outcome.value.topicId).toBe(topic?.topicId);
    expect((await configsOf(name)).get('retention.ms')).toEqual({ value: '3600000', source: 'DYNAMIC_TOPIC_CONFIG' });

    let desired: DesiredTopic = { partitions: 3, replicationFactor: 1, config: { 'retention.ms': '3600000', 'cleanup.policy': 'compact' } };
    const grow = changes(await plan(name, desired));
    expect(grow.partitionCount).toBe(3);
    expect(grow.configOps).toEqual([{ op: 'set', name: 'cleanup.policy', value: 'compact' }]);
    await apply(name, grow);
    // The broker's metadata applies the controller's records after the admin call returns: read until it has them.
    await eventually(async () => (await describe1(name))?.partitions.length === 3 && (await configsOf(name)).get('cleanup.policy')?.value === 'compact', 15_000, `${name} grown and compacted`);
    expect((await describe1(name))?.partitions).toHaveLength(3);
    expect((await configsOf(name)).get('cleanup.policy')).toEqual({ value: 'compact', source: 'DYNAMIC_TOPIC_CONFIG' });
    expect(changes(await plan(name, desired)).upToDate).toBe(true);

    desired = { ...desired, config: { 'cleanup.policy': 'compact' } };
    const remove = changes(await plan(name, desired));
    expect(remove.configOps).toEqual([{ op: 'delete', name: 'retention.ms' }]);
    await apply(name, remove);
    await eventually(async () => (await configsOf(name)).get('retention.ms')?.source !== 'DYNAMIC_TOPIC_CONFIG', 15_000, `retention.ms of ${name} removed`);
    const after = (await configsOf(name)).get('retention.ms');
    expect(after?.source).not.toBe('DYNAMIC_TOPIC_CONFIG');
    expect(after?.value).not.toBe('3600000');
    expect((await configsOf(name)).get('cleanup.policy')?.value).toBe('compact');
    expect(changes(await plan(name, desired)).upToDate).toBe(true);
  });

  it('refuses a partition decrease in the plan, and Kafka refuses it too', async () => {
    const name = topicName('shrink');
    await admin.createTopics([{ name, partitions: 2, replicationFactor: 1, config: {} }]);
    expect(await plan(name, { partitions: 1, replicationFactor: 1, config: {} })).toMatchObject({ kind: 'refused', reason: 'PartitionDecreaseNotSupported' });
    const err: unknown = await admin.createPartitions(name, 1).catch((e: unknown) => e);
    expect(isTerminalError(err) && err.reason).toBe('InvalidPartitions');
  });

  it('keeps RF 1 on a single broker: RF 2 is refused with a clear reason, reassigning to the same broker is a no-op', async () => {
    const name = topicName('rf');
    await admin.createTopics([{ name, partitions: 1, replicationFactor: 1, config: {} }]);
    const info = await admin.clusterInfo();
    if (info.brokers.length === 1) {
      const refused = await plan(name, { partitions: 1, replicationFactor: 2, config: {} });
      expect(refused).toMatchObject({ kind: 'refused', reason: 'InvalidReplicationFactor' });
      expect(refused.kind === 'refused' && refused.message).toContain('the cluster has 1');
    }
    const same = (await describe1(name))?.partitions[0]?.replicas ?? [];
    await admin.reassignPartitions(name, [{ partition: 0, replicas: same }]);
    expect(await admin.listReassignments([name])).toEqual([]);
    expect((await describe1(name))?.partitions[0]?.replicas).toEqual(same);
    const missingBroker = Math.max(...info.brokers.map((b) => b.id)) + 100;
    const err: unknown = await admin.reassignPartitions(name, [{ partition: 0, replicas: [missingBroker] }]).catch((e: unknown) => e);
    expect(isTerminalError(err) && err.reason).toBe('InvalidReplicaAssignment');
  });

  it("refuses an invalid config with Kafka's own message, as a TerminalError", async () => {
    const name = topicName('badconfig');
    const outcome = (await admin.createTopics([{ name, partitions: 1, replicationFactor: 1, config: { 'retention.ms': 'soon' } }])).get(name);
    expect(outcome?.ok).toBe(false);
    const createErr = outcome?.ok === false ? outcome.error : undefined;
    expect(isTerminalError(createErr) && createErr.reason).toBe('InvalidConfig');
    expect(createErr?.message).toContain('Invalid value soon for configuration retention.ms');

    await admin.createTopics([{ name, partitions: 1, replicationFactor: 1, config: {} }]);
    const alterErr: unknown = await admin.alterTopicConfigs(name, [{ op: 'set', name: 'no.such.key', value: '1' }]).catch((e: unknown) => e);
    expect(isTerminalError(alterErr) && alterErr.reason).toBe('InvalidConfig');
    expect((alterErr as Error).message).toContain('Unknown topic config name: no.such.key');
  });

  it('answers per topic in one request: existing, missing, and AlreadyExists', async () => {
    const name = topicName('exists');
    const missing = `kop-int-missing-${suffix}`;
    await admin.createTopics([{ name, partitions: 1, replicationFactor: 1, config: {} }]);
    const described = await admin.describeTopics([name, missing]);
    expect(described.get(name)?.ok).toBe(true);
    expect(described.get(missing)).toEqual({ ok: true, value: undefined });
    expect((await admin.describeTopicConfigs([missing])).get(missing)).toEqual({ ok: true, value: undefined });
    const again = (await admin.createTopics([{ name, partitions: 1, replicationFactor: 1, config: {} }])).get(name);
    expect(again?.ok === false && isKafkaAdminError(again.error, 'AlreadyExists')).toBe(true);
  });

  it('deletes a topic idempotently', async () => {
    const name = topicName('delete');
    await admin.createTopics([{ name, partitions: 1, replicationFactor: 1, config: {} }]);
    await admin.deleteTopic(name);
    await admin.deleteTopic(name);
    await expect.poll(() => describe1(name), { timeout: 10_000 }).toBeUndefined();
  });
});

describe('PlatformaticKafkaAdmin against the real broker: failures', () => {
  it('maps a wrong admin password to AuthenticationFailed, without the password in the message', async () => {
    const password = `wrong-${randomBytes(8).toString('hex')}`;
    const wrong = new PlatformaticKafkaAdmin({}, { bootstrapServers: kafka.bootstrapServers, sasl: { ...kafka.superUser, password } });
    try {
      const err: unknown = await wrong.clusterInfo().catch((e: unknown) => e);
      expect(isKafkaAdminError(err, 'AuthenticationFailed')).toBe(true);
      expect((err as Error).message).toContain('authentication to Kafka failed');
      expect((err as Error).message).not.toContain(password);
    } finally {
      await wrong.close();
    }
  });

  it('maps a broker address with nothing listening to KafkaUnavailable', async () => {
    const port = await freePort();
    const down = new PlatformaticKafkaAdmin({}, { bootstrapServers: [`127.0.0.1:${port}`], sasl: kafka.superUser, connectTimeoutMs: 2_000 });
    try {
      const err: unknown = await down.describeTopics(['x']).catch((e: unknown) => e);
      expect(isKafkaAdminError(err, 'KafkaUnavailable')).toBe(true);
      expect((err as Error).message).toContain(`127.0.0.1:${port}`);
    } finally {
      await down.close();
    }
  });

  it('falls through to the next bootstrap server when the first is down', async () => {
    const port = await freePort();
    const second = new PlatformaticKafkaAdmin({}, { bootstrapServers: [`127.0.0.1:${port}`, ...kafka.bootstrapServers], sasl: kafka.superUser });
    try {
      expect((await second.clusterInfo()).brokers.length).toBeGreaterThanOrEqual(1);
    } finally {
      await second.close();
    }
  });
});
