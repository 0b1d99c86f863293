import { flushMicrotasks, VirtualClock } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { CreatedTopic, NewTopic, ObservedConfigEntry, ObservedTopic, Outcome, TopicBulkAdmin } from './admin.ts';
import { KafkaAdminError } from './errors.ts';
import { TopicBatcher } from './topic-batcher.ts';

/** A fake of the bulk interface: records each request, answers from a set of existing topics. */
class FakeBulkAdmin implements TopicBulkAdmin {
  readonly requests: { readonly kind: string; readonly names: readonly string[] }[] = [];
  readonly existing = new Set<string>();
  failNext: Error | undefined;

  describeTopics(names: readonly string[]): Promise<ReadonlyMap<string, Outcome<ObservedTopic | undefined>>> {
    return this.#answer('describeTopics', names, (name) =>
      this.existing.has(name) ? { name, topicId: `id-${name}`, partitions: [{ partition: 0, replicas: [1], leader: 1 }] } : undefined,
    );
  }

  describeTopicConfigs(names: readonly string[]): Promise<ReadonlyMap<string, Outcome<readonly ObservedConfigEntry[] | undefined>>> {
    return this.#answer('describeTopicConfigs', names, (name) => (this.existing.has(name) ? [] : undefined));
  }

  createTopics(topics: readonly NewTopic[]): Promise<ReadonlyMap<string, Outcome<CreatedTopic>>> {
    const names = topics.map((t) => t.name);
    if (new Set(names).size !== names.length) throw new Error('a request named a topic twice');
    return this.#answerOutcomes('createTopics', names, (name) => {
      if (this.existing.has(name)) return { ok: false, error: new KafkaAdminError('AlreadyExists', `${name} exists`) };
      this.existing.add(name);
      return { ok: true, value: { topicId: `id-${name}` } };
    });
  }

  #answer<T>(kind: string, names: readonly string[], value: (name: string) => T): Promise<ReadonlyMap<string, Outcome<T>>> {
    return this.#answerOutcomes(kind, names, (name) => ({ ok: true, value: value(name) }));
  }

  async #answerOutcomes<T>(kind: string, names: readonly string[], outcome: (name: string) => Outcome<T>): Promise<ReadonlyMap<string, Outcome<T>>> {
    this.requests.push({ kind, names: [...names] });
    await Promise.resolve();
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure !== undefined) throw failure;
    return new Map(names.map((name) => [name, outcome(name)]));
  }
}

function setup(options: { maxBatchSize?: number; lingerMs?: number } = {}): { clock: VirtualClock; admin: FakeBulkAdmin; batcher: TopicBatcher } {
  const clock = new VirtualClock();
  const admin = new FakeBulkAdmin();
  return { clock, admin, batcher: new TopicBatcher({ admin, clock }, options) };
}

function newTopic(name: string): NewTopic {
  return { name, partitions: 1, replicationFactor: 1, config: {} };
}

/** Settles a promise's outcome without letting an expected rejection go unhandled. */
function settle<T>(promise: Promise<T>): Promise<Outcome<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error: error as Error }),
  );
}

describe('TopicBatcher', () => {
  it('sends nothing before the linger time, then one request for all callers', async () => {
    const { clock, admin, batcher } = setup();
    admin.existing.add('a');
    const calls = [batcher.describeTopic('a'), batcher.describeTopic('b'), batcher.describeTopic('c')];
    await clock.advance(49);
    expect(admin.requests).toEqual([]);
    await clock.advance(1);
    expect(admin.requests).toEqual([{ kind: 'describeTopics', names: ['a', 'b', 'c'] }]);
    const [a, b, c] = await Promise.all(calls);
    expect(a?.topicId).toBe('id-a');
    expect(b).toBeUndefined();
    expect(c).toBeUndefined();
  });

  it('sends a full batch at once, without waiting', async () => {
    const { clock, admin, batcher } = setup({ maxBatchSize: 100 });
    const calls = Array.from({ length: 250 }, (_, i) => batcher.describeTopicConfigs(`t${i}`));
    await flushMicrotasks();
    expect(admin.requests.map((r) => r.names.length)).toEqual([100, 100]);
    await clock.advance(50);
    expect(admin.requests.map((r) => r.names.length)).toEqual([100, 100, 50]);
    expect(await Promise.all(calls)).toHaveLength(250);
  });

  it('coalesces concurrent reads of one topic into one slot', async () => {
    const { clock, admin, batcher } = setup();
    admin.existing.add('a');
    const calls = [batcher.describeTopic('a'), batcher.describeTopic('a'), batcher.describeTopic('b')];
    await clock.advance(50);
    expect(admin.requests).toEqual([{ kind: 'describeTopics', names: ['a', 'b'] }]);
    const [first, second] = await Promise.all(calls);
    expect(first).toBe(second);
  });

  it('gives each creator its own outcome', async () => {
    const { clock, admin, batcher } = setup();
    admin.existing.add('taken');
    const ok = settle(batcher.createTopic(newTopic('fresh')));
    const taken = settle(batcher.createTopic(newTopic('taken')));
    await clock.advance(50);
    expect(await ok).toEqual({ ok: true, value: { topicId: 'id-fresh' } });
    const refused = await taken;
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatchObject({ reason: 'AlreadyExists' });
    expect(admin.requests).toHaveLength(1);
  });

  it('never names a topic twice in one creation request: the second goes in the next batch', async () => {
    const { clock, admin, batcher } = setup();
    const first = settle(batcher.createTopic(newTopic('x')));
    const second = settle(batcher.createTopic(newTopic('x')));
    await clock.advance(50);
    expect(admin.requests).toEqual([{ kind: 'createTopics', names: ['x'] }]);
    await clock.advance(50);
    expect(admin.requests).toEqual([
      { kind: 'createTopics', names: ['x'] },
      { kind: 'createTopics', names: ['x'] },
    ]);
    expect((await first).ok).toBe(true);
    expect(await second).toMatchObject({ ok: false });
  });

  it('rejects every caller of a failed request with its error, and the next batch works again', async () => {
    const { clock, admin, batcher } = setup();
    admin.failNext = new KafkaAdminError('KafkaUnavailable', 'down');
    const calls = [settle(batcher.describeTopic('a')), settle(batcher.describeTopic('b'))];
    await clock.advance(50);
    for (const outcome of await Promise.all(calls)) expect(!outcome.ok && outcome.error).toMatchObject({ reason: 'KafkaUnavailable' });
    const again = batcher.describeTopic('a');
    await clock.advance(50);
    expect(await again).toBeUndefined();
    expect(admin.requests).toHaveLength(2);
  });

  it('keeps the three kinds of call in separate requests', async () => {
    const { clock, admin, batcher } = setup();
    const calls = [settle(batcher.describeTopic('a')), settle(batcher.describeTopicConfigs('a')), settle(batcher.createTopic(newTopic('a')))];
    await clock.advance(50);
    await Promise.all(calls);
    expect(admin.requests.map((r) => r.kind).sort()).toEqual(['createTopics', 'describeTopicConfigs', 'describeTopics']);
  });

  it('leaves no timer behind once idle', async () => {
    const { clock, batcher } = setup();
    const call = batcher.describeTopic('a');
    await clock.advance(50);
    await call;
    expect(clock.pendingTimers()).toBe(0);
  });

  it('uses 1 request per 100 topics for 1,000 concurrent describes', async () => {
    const { clock, admin, batcher } = setup();
    const calls = Array.from({ length: 1000 }, (_, i) => batcher.describeTopic(`t${i}`));
    await clock.advance(50);
    await Promise.all(calls);
    expect(admin.requests).toHaveLength(10);
  });
});
