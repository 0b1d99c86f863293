import { randomBytes } from 'node:crypto';
import { systemClock } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformaticKafkaAdmin, type RequestCounter } from './platformatic-admin.ts';
import { TopicBatcher } from './topic-batcher.ts';

/** Counts requests by API name. */
class CountingRequests implements RequestCounter {
  readonly byApi = new Map<string, number>();
  count(api: string): void {
    this.byApi.set(api, (this.byApi.get(api) ?? 0) + 1);
  }
  total(): number {
    return [...this.byApi.values()].reduce((a, b) => a + b, 0);
  }
  reset(): void {
    this.byApi.clear();
  }
}

const TOPICS = 100;
const suffix = randomBytes(4).toString('hex');
const names = Array.from({ length: TOPICS }, (_, i) => `kop-int-batch-${suffix}-${i}`);
const counter = new CountingRequests();
let admin: PlatformaticKafkaAdmin;

beforeAll(async () => {
  const { kafka } = await ensureTestEnv(['kafka']);
  admin = new PlatformaticKafkaAdmin({ requestCounter: counter }, { bootstrapServers: kafka.bootstrapServers, sasl: kafka.superUser, clientId: 'kafka-operator-int' });
});

afterAll(async () => {
  await Promise.all(names.map((name) => admin.deleteTopic(name)));
  await admin.close();
});

describe('TopicBatcher against the real broker', () => {
  it(`creates and describes ${TOPICS} concurrent topics in far fewer than ${TOPICS} requests each`, async () => {
    const batcher = new TopicBatcher({ admin, clock: systemClock }, { maxBatchSize: 100, lingerMs: 50 });

    counter.reset();
    const created = await Promise.all(names.map((name) => batcher.createTopic({ name, partitions: 1, replicationFactor: 1, config: { 'retention.ms': '3600000' } })));
    expect(created.every((t) => t.topicId.length > 0)).toBe(true);
    expect(counter.byApi.get('CreateTopics')).toBe(1);

    counter.reset();
    const [described, configs] = await Promise.all([
      Promise.all(names.map((name) => batcher.describeTopic(name))),
      Promise.all(names.map((name) => batcher.describeTopicConfigs(name))),
    ]);
    expect(described.every((t) => t?.partitions.length === 1)).toBe(true);
    expect(configs.every((c) => c?.some((e) => e.name === 'retention.ms' && e.value === '3600000' && e.source === 'DYNAMIC_TOPIC_CONFIG'))).toBe(true);
    expect(Object.fromEntries(counter.byApi)).toEqual({ Metadata: 1, DescribeConfigs: 1 });

    // The same reads one topic at a time, for comparison: one request per topic and call.
    counter.reset();
    for (const name of names) await admin.describeTopics([name]);
    expect(counter.total()).toBe(TOPICS);
  });

  it('gives each caller its own answer in a mixed batch (an existing, a missing and a refused topic)', async () => {
    const batcher = new TopicBatcher({ admin, clock: systemClock });
    const missing = `kop-int-batch-${suffix}-missing`;
    const [first, absent] = await Promise.all([batcher.describeTopic(names[0] ?? ''), batcher.describeTopic(missing)]);
    expect(first?.name).toBe(names[0]);
    expect(absent).toBeUndefined();
    const results = await Promise.allSettled([
      batcher.createTopic({ name: names[1] ?? '', partitions: 1, replicationFactor: 1, config: {} }),
      batcher.createTopic({ name: `${missing}-bad`, partitions: 1, replicationFactor: 1, config: { 'cleanup.policy': 'sometimes' } }),
    ]);
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as { reason?: string }).reason : 'ok'))).toEqual(['AlreadyExists', 'InvalidConfig']);
  });
});
