import type { Clock, TimerHandle } from '@domain-operators/reconcile';
import type { CreatedTopic, NewTopic, ObservedConfigEntry, ObservedTopic, Outcome, TopicBulkAdmin } from './admin.ts';

/** Dependencies of a {@link TopicBatcher}. */
export interface TopicBatcherDeps {
  /** Where batches go; usually the `PlatformaticKafkaAdmin`. */
  readonly admin: TopicBulkAdmin;
  readonly clock: Clock;
}

/** Options of a {@link TopicBatcher}. */
export interface TopicBatcherOptions {
  /** Most topics per request (default 100). A full batch is sent at once. */
  readonly maxBatchSize?: number;
  /** How long the first call of a batch waits for company (default 50 ms). */
  readonly lingerMs?: number;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

interface Pending<In, Out> {
  readonly key: string;
  readonly input: In;
  readonly waiters: Waiter<Out>[];
}

type Send<In, Out> = (inputs: readonly In[]) => Promise<ReadonlyMap<string, Outcome<Out>>>;

/**
 * One kind of call, batched: calls queue up; the first starts a linger timer; the batch is sent when the timer
 * fires or `max` distinct keys are queued, whichever comes first. With `coalesce`, calls for a key already queued
 * share its result (reads); without, a second call for a queued key waits for the next batch (creations, which a
 * request must not name twice).
 */
class Lane<In, Out> {
  readonly #clock: Clock;
  readonly #max: number;
  readonly #lingerMs: number;
  readonly #coalesce: boolean;
  readonly #send: Send<In, Out>;
  #queue: Pending<In, Out>[] = [];
  #timer: TimerHandle | undefined;

  constructor(clock: Clock, max: number, lingerMs: number, coalesce: boolean, send: Send<In, Out>) {
    this.#clock = clock;
    this.#max = max;
    this.#lingerMs = lingerMs;
    this.#coalesce = coalesce;
    this.#send = send;
  }

  call(key: string, input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      const waiter: Waiter<Out> = { resolve, reject };
      const queued = this.#coalesce ? this.#queue.find((p) => p.key === key) : undefined;
      if (queued !== undefined) queued.waiters.push(waiter);
      else this.#queue.push({ key, input, waiters: [waiter] });
      if (this.#distinctKeys(this.#max) >= this.#max) this.#flush();
      else this.#timer ??= this.#clock.setTimeout(() => {
        this.#timer = undefined;
        this.#flush();
      }, this.#lingerMs);
    });
  }

  /** Sends every full batch queued now; the rest (under `max`) goes too, since its timer fired or a batch filled. */
  #flush(): void {
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#queue.length > 0) {
      const batch: Pending<In, Out>[] = [];
      const keys = new Set<string>();
      const rest: Pending<In, Out>[] = [];
      for (const item of this.#queue) {
        if (batch.length < this.#max && !keys.has(item.key)) {
          batch.push(item);
          keys.add(item.key);
        } else rest.push(item);
      }
      this.#queue = rest;
      void this.#dispatch(batch);
      // Items held back only for a duplicate key go in the next batch, after this one has been sent.
      if (rest.length > 0 && rest.length < this.#max) {
        this.#timer = this.#clock.setTimeout(() => {
          this.#timer = undefined;
          this.#flush();
        }, this.#lingerMs);
        return;
      }
    }
  }

  async #dispatch(batch: readonly Pending<In, Out>[]): Promise<void> {
    let results: ReadonlyMap<string, Outcome<Out>>;
    try {
      results = await this.#send(batch.map((p) => p.input));
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      for (const p of batch) for (const w of p.waiters) w.reject(error);
      return;
    }
    for (const p of batch) {
      const outcome = results.get(p.key) ?? { ok: false, error: new Error(`Kafka's answer did not mention ${p.key}`) };
      for (const w of p.waiters) {
        if (outcome.ok) w.resolve(outcome.value);
        else w.reject(outcome.error);
      }
    }
  }

  #distinctKeys(limit: number): number {
    const keys = new Set<string>();
    for (const p of this.#queue) {
      keys.add(p.key);
      if (keys.size >= limit) break;
    }
    return keys.size;
  }
}

/**
 * Groups the topic calls of many concurrent reconciles into few requests: `describeTopic`, `describeTopicConfigs`
 * and `createTopic` each queue for up to `lingerMs` and go out up to `maxBatchSize` topics per request. Each caller
 * gets its own result or error: a per-topic error from Kafka rejects only that caller; a failed request rejects
 * every caller in it. Concurrent reads of one topic share one slot. Timers run on the injected clock; nothing starts
 * until the first call.
 */
export class TopicBatcher {
  readonly #describe: Lane<string, ObservedTopic | undefined>;
  readonly #configs: Lane<string, readonly ObservedConfigEntry[] | undefined>;
  readonly #create: Lane<NewTopic, CreatedTopic>;

  constructor(deps: TopicBatcherDeps, options: TopicBatcherOptions = {}) {
    const max = options.maxBatchSize ?? 100;
    const linger = options.lingerMs ?? 50;
    const { admin, clock } = deps;
    this.#describe = new Lane(clock, max, linger, true, (names) => admin.describeTopics(names));
    this.#configs = new Lane(clock, max, linger, true, (names) => admin.describeTopicConfigs(names));
    this.#create = new Lane(clock, max, linger, false, (topics) => admin.createTopics(topics));
  }

  /** The topic's metadata, `undefined` when it does not exist. */
  describeTopic(name: string): Promise<ObservedTopic | undefined> {
    return this.#describe.call(name, name);
  }

  /** The topic's config entries with their sources, `undefined` when it does not exist. */
  describeTopicConfigs(name: string): Promise<readonly ObservedConfigEntry[] | undefined> {
    return this.#configs.call(name, name);
  }

  /** Creates the topic; rejects with reason `AlreadyExists` when it exists. */
  createTopic(topic: NewTopic): Promise<CreatedTopic> {
    return this.#create.call(topic.name, topic);
  }
}
