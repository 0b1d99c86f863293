import { systemClock } from '../core/clock.ts';
import type { Clock, TimerHandle } from '../core/clock.ts';
import { DelayHeap } from './delay-heap.ts';
import { Fifo } from './fifo.ts';
import { noopWorkQueueMetricsProvider } from '../observability/queue-metrics.ts';
import type { UnfinishedWork, WorkQueueMetrics, WorkQueueMetricsProvider } from '../observability/queue-metrics.ts';
import { defaultControllerRateLimiter } from './rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';

/** Options for {@link WorkQueue}. */
export interface WorkQueueOptions<K> {
  /** Time source for delays and metrics; default {@link systemClock}. */
  readonly clock?: Clock;
  /** Used by `addRateLimited`, `forget` and `numRequeues`; default {@link defaultControllerRateLimiter} on `clock`. */
  readonly rateLimiter?: RateLimiter<K>;
  /** Names the queue in metrics (typically the controller's name); default `''`. */
  readonly name?: string;
  /** Where metrics go; default {@link noopWorkQueueMetricsProvider}. */
  readonly metrics?: WorkQueueMetricsProvider;
  /**
   * The starvation bound of `'low'` keys, in milliseconds of `clock` (default 1000): a low key that has waited longer
   * than this is served before every high key that became waiting after its wait passed the bound, as if it had been
   * added this much later as high. `Infinity` turns the protection off (high keys always first); 0 serves both
   * priorities in the order they became waiting.
   */
  readonly lowPriorityMaxWaitMs?: number;
}

/**
 * How urgent an add is. `'high'` (the default of every add) is user-triggered work: watch events, requeues, retries.
 * `'low'` is bulk work such as the items of an informer's initial list or relist, served after waiting high keys
 * within the starvation bound {@link WorkQueueOptions.lowPriorityMaxWaitMs}.
 */
export type WorkQueuePriority = 'high' | 'low';

/**
 * What a {@link WorkQueue} key may be: anything but `null` and `undefined` (`get` uses `undefined` for "shut
 * down"). Keys are compared with `===`, so composite keys should be strings such as `namespace/name`.
 */
export type WorkQueueKey = string | number | bigint | boolean | symbol | object;

// Node fires a timer set for longer than this after 1 ms; the queue re-arms instead (see #onTimer).
const MAX_TIMER_MS = 2 ** 31 - 1;

// The flags of a key's Entry.
const DIRTY = 1;
const PROCESSING = 2;
// With DIRTY: the key was added only as 'low' since it last became dirty. Cleared by a 'high' add and by hand-out.
const LOW = 4;

/** A key the queue tracks (dirty, processing or both), with its flags; the FIFOs hold these, not bare keys. */
interface Entry<K> {
  readonly key: K;
  flags: number;
  // Clock time at which the entry last joined a FIFO; -Infinity for a high entry that joined while the low FIFO was
  // empty (it precedes every low key then waiting, so the clock was not read). Only the heads' values are compared.
  since: number;
  // How many times the entry sits in the low FIFO: a promotion to high leaves its copy there (lazy removal), skipped
  // when it reaches the head. The live copy, if any, is always the last pushed, so a head is live only when this is 1.
  lowRefs: number;
}

/**
 * A keyed work queue with the semantics of client-go's rate-limiting workqueue:
 *
 * - A key is held at most once while it waits, however often it is added (the dirty set).
 * - A key handed out by {@link get} is processing until {@link done}; it is never handed to a second getter
 *   meanwhile. Adding it while it is processing queues it once, after `done`.
 * - Waiting keys come out first in, first out within their priority ({@link WorkQueuePriority}): `'high'` keys before
 *   `'low'` ones, except that a low key past its starvation bound ({@link WorkQueueOptions.lowPriorityMaxWaitMs})
 *   goes before high keys that arrived after the bound ran out. Concurrent getters are served in the order they
 *   called `get`.
 * - Delayed adds ({@link addAfter}, {@link addRateLimited}) wait in one min-heap by due time behind a single timer;
 *   a key delayed twice keeps its earliest due time. A delayed key still fires when it was also added directly.
 * - After {@link shutDown} adds are ignored, delayed keys are dropped, and keys still waiting are handed out until
 *   none are left; then `get` resolves `undefined`.
 *
 * Keys are compared with `===` (they are `Set`/`Map` keys), so a composite key must be a string such as
 * `namespace/name`: two equal-looking objects are two different keys. Every method is synchronous except `get`
 * and `shutDownWithDrain`; `add`, `get` and `done` are O(1) amortised. No work starts in the constructor.
 */
export class WorkQueue<K extends WorkQueueKey = string> {
  readonly #clock: Clock;
  readonly #rateLimiter: RateLimiter<K>;
  readonly #metrics: WorkQueueMetrics;
  // Without metrics nothing reads the timestamps below, so the clock is not read on the hot path (those reads
  // cost a large share of add + get + done time).
  readonly #timed: boolean;
  readonly #lowMaxWaitMs: number;
  // Entries waiting as high, in order; each is DIRTY, not LOW and not PROCESSING.
  readonly #high = new Fifo<Entry<K>>();
  // Entries waiting as low, in order, plus stale copies of promoted or handed-out ones (see Entry.lowRefs).
  readonly #low = new Fifo<Entry<K>>();
  // Live entries in #high and #low: the keys waiting to be handed out.
  #waiting = 0;
  // Every key that is dirty (waiting to be handed out, including re-adds of processing keys), processing (handed
  // out, not yet done) or both, to its entry. The FIFO holds the same entries, so handing a key out changes its
  // flags without a map write: four map operations per key from add to done instead of five (the map operations
  // were 85 % of the queue's time in a CPU profile of the benchmark, at 1, 4 and 16 workers alike).
  readonly #states = new Map<K, Entry<K>>();
  #dirtyCount = 0;
  #processingCount = 0;
  // With metrics only: when each dirty key was added and each processing key handed out.
  readonly #addedAt = new Map<K, number>();
  readonly #startedAt = new Map<K, number>();
  // Pending `get` calls; non-empty only while no key is waiting.
  readonly #getters = new Fifo<(key: K | undefined) => void>();
  readonly #delayed = new DelayHeap<K>();
  // The delayed keys every delay of which was asked as 'low'.
  readonly #delayedLow = new Set<K>();
  #timer: TimerHandle | undefined;
  #timerDue = Number.NaN;
  #shuttingDown = false;
  #drainWaiters: (() => void)[] = [];

  /** Creates an empty, running queue; asks `options.metrics` for this queue's metrics and starts no timer. */
  constructor(options: WorkQueueOptions<K> = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<K>(this.#clock);
    const provider = options.metrics ?? noopWorkQueueMetricsProvider;
    this.#timed = provider !== noopWorkQueueMetricsProvider;
    this.#lowMaxWaitMs = options.lowPriorityMaxWaitMs ?? 1000;
    this.#metrics = provider.newQueueMetrics(options.name ?? '', () => this.#unfinishedWork());
  }

  /**
   * Marks `key` as needing work at `priority` (default `'high'`). Idempotent while the key waits, except that a
   * `'high'` add of a key waiting as `'low'` moves it to the back of the high keys (it is still handed out once); a
   * `'low'` add never lowers a key. If the key is processing it is queued once, after its `done`, at the highest
   * priority it was added with meanwhile. Ignored after shutdown. Never blocks.
   */
  add(key: K, priority: WorkQueuePriority = 'high'): void {
    if (this.#shuttingDown) return;
    const dirty = priority === 'low' ? DIRTY | LOW : DIRTY;
    let entry = this.#states.get(key);
    if (entry === undefined) {
      entry = { key, flags: dirty, since: 0, lowRefs: 0 };
      this.#states.set(key, entry);
    } else if ((entry.flags & DIRTY) !== 0) {
      if (dirty === DIRTY && (entry.flags & LOW) !== 0) this.#promote(entry);
      return;
    } else {
      entry.flags |= dirty;
    }
    this.#dirtyCount++;
    if (this.#timed) this.#addedAt.set(key, this.#clock.now());
    this.#metrics.incAdds();
    this.#metrics.setDepth(this.#dirtyCount);
    if ((entry.flags & PROCESSING) !== 0) return;
    this.#enqueue(entry);
    this.#dispatch();
  }

  /**
   * Adds `key` at `priority` (default `'high'`) after `ms` milliseconds; `ms <= 0` (or NaN) adds it now. If the key is
   * already delayed, the earlier due time wins, and it is added as `'high'` unless every delay was asked as `'low'`.
   * Counts a retry in metrics. Ignored after shutdown, and delayed keys are dropped by shutdown.
   */
  addAfter(key: K, ms: number, priority: WorkQueuePriority = 'high'): void {
    if (this.#shuttingDown) return;
    this.#metrics.incRetries();
    if (!(ms > 0)) {
      this.add(key, priority);
      return;
    }
    if (priority === 'low') {
      if (!this.#delayed.has(key)) this.#delayedLow.add(key);
    } else if (this.#delayedLow.size > 0) {
      this.#delayedLow.delete(key);
    }
    this.#delayed.schedule(key, this.#clock.now() + ms);
    this.#armTimer();
  }

  /**
   * Adds `key` at `priority` (default `'high'`) after the delay the rate limiter gives it (recording one more
   * failure), as {@link addAfter} does. Ignored after shutdown.
   */
  addRateLimited(key: K, priority: WorkQueuePriority = 'high'): void {
    if (this.#shuttingDown) return;
    this.addAfter(key, this.#rateLimiter.when(key), priority);
  }

  /**
   * Tells the rate limiter that `key` succeeded, resetting its backoff. Does not remove the key from the queue.
   * Idempotent; works after shutdown.
   */
  forget(key: K): void {
    this.#rateLimiter.forget(key);
  }

  /** How many times `key` was rate-limited since it was last forgotten. */
  numRequeues(key: K): number {
    return this.#rateLimiter.numRequeues(key);
  }

  /**
   * Resolves with the next waiting key, which is then processing until `done(key)`; waits while none is waiting.
   * The next key is the oldest high one, unless the oldest low one has waited past the starvation bound
   * ({@link WorkQueueOptions.lowPriorityMaxWaitMs}) before that high one became waiting, or no high key waits.
   * Concurrent callers are served in call order. After shutdown it still hands out keys left waiting, and resolves
   * `undefined` once there are none (also for callers already waiting at shutdown). Never rejects.
   */
  get(): Promise<K | undefined> {
    const entry = this.#next();
    if (entry !== undefined) return Promise.resolve(this.#handOut(entry));
    if (this.#shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#getters.push(resolve);
    });
  }

  /**
   * Ends processing of `key`. If it was added meanwhile it becomes waiting again. A no-op for a key that is not
   * processing (unlike client-go, which would queue a duplicate). Works after shutdown, and lets a drain finish.
   */
  done(key: K): void {
    const entry = this.#states.get(key);
    if (entry === undefined || (entry.flags & PROCESSING) === 0) return;
    this.#processingCount--;
    if (this.#timed) this.#timeDone(key);
    if ((entry.flags & DIRTY) !== 0) {
      entry.flags &= DIRTY | LOW;
      this.#enqueue(entry);
      this.#dispatch();
    } else {
      this.#states.delete(key);
      if (this.#processingCount === 0) this.#releaseDrainWaiters();
    }
  }

  /** Number of keys waiting to be handed out, of both priorities: not those processing, not those delayed. */
  len(): number {
    return this.#waiting;
  }

  /**
   * Stops accepting adds, drops delayed keys, and resolves waiting getters with `undefined`. Keys already waiting
   * can still be got. Releases any pending {@link shutDownWithDrain} without waiting for it. Idempotent.
   */
  shutDown(): void {
    this.#stop();
    this.#releaseDrainWaiters();
  }

  /**
   * Like {@link shutDown}, then resolves once no key is processing: workers should keep calling `get` (which hands
   * out the keys left waiting) and `done` until `get` resolves `undefined`. Never rejects; may wait forever if a
   * processing key is never done, unless `shutDown` is called.
   */
  shutDownWithDrain(): Promise<void> {
    this.#stop();
    if (this.#processingCount === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#drainWaiters.push(resolve);
    });
  }

  /** Whether `shutDown` or `shutDownWithDrain` has been called. */
  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  // Puts a DIRTY, not PROCESSING entry at the back of the FIFO of its priority. The clock is read only for a low
  // entry, or a high one while the low FIFO is not empty: a queue used only at 'high' never reads it here.
  #enqueue(entry: Entry<K>): void {
    this.#waiting++;
    if ((entry.flags & LOW) === 0) {
      this.#pushHigh(entry);
      return;
    }
    entry.since = this.#clock.now();
    entry.lowRefs++;
    this.#low.push(entry);
  }

  #pushHigh(entry: Entry<K>): void {
    entry.since = this.#low.size > 0 ? this.#clock.now() : Number.NEGATIVE_INFINITY;
    this.#high.push(entry);
  }

  // A 'high' add of a DIRTY | LOW entry. Waiting, it joins the high FIFO and its low copy goes stale; processing, it
  // joins the high FIFO at done. Either way no getter waits (a key is waiting, or none became waiting).
  #promote(entry: Entry<K>): void {
    entry.flags &= ~LOW;
    if ((entry.flags & PROCESSING) === 0) this.#pushHigh(entry);
  }

  // Takes the entry to hand out next, or undefined when none waits; never reads the clock. A low head is served
  // before the high head only when its bound ran out before the high head joined (see lowPriorityMaxWaitMs).
  #next(): Entry<K> | undefined {
    if (this.#low.size === 0) {
      // The only path of a queue used at 'high' alone.
      const entry = this.#high.shift();
      if (entry !== undefined) this.#waiting--;
      return entry;
    }
    const low = this.#lowHead();
    const high = this.#high.peek();
    if (high !== undefined && (low === undefined || !(low.since + this.#lowMaxWaitMs < high.since))) {
      this.#waiting--;
      return this.#high.shift();
    }
    if (low === undefined) return undefined;
    this.#low.shift();
    low.lowRefs--;
    this.#waiting--;
    return low;
  }

  // The live head of the low FIFO, dropping the stale copies in front of it (each dropped once: O(1) amortised).
  #lowHead(): Entry<K> | undefined {
    for (let head = this.#low.peek(); head !== undefined; head = this.#low.peek()) {
      if (head.lowRefs === 1 && head.flags === (DIRTY | LOW)) return head;
      this.#low.shift();
      head.lowRefs--;
    }
    return undefined;
  }

  // An entry from #next is DIRTY and not PROCESSING; handing it out makes it PROCESSING only.
  #handOut(entry: Entry<K>): K {
    const key = entry.key;
    entry.flags = PROCESSING;
    this.#dirtyCount--;
    this.#processingCount++;
    this.#metrics.setDepth(this.#dirtyCount);
    if (this.#timed) this.#timeHandOut(key);
    return key;
  }

  // Without metrics (the no-op provider) nothing reads these durations, so the clock is not read at all.
  #timeHandOut(key: K): void {
    const now = this.#clock.now();
    this.#metrics.observeQueueDuration((now - (this.#addedAt.get(key) ?? now)) / 1000);
    this.#addedAt.delete(key);
    this.#startedAt.set(key, now);
  }

  #timeDone(key: K): void {
    const now = this.#clock.now();
    this.#metrics.observeWorkDuration((now - (this.#startedAt.get(key) ?? now)) / 1000);
    this.#startedAt.delete(key);
  }

  // Restores the invariant that getters wait only while no key does.
  #dispatch(): void {
    while (this.#getters.size > 0 && this.#waiting > 0) {
      const resolve = this.#getters.shift();
      const entry = this.#next();
      if (resolve === undefined || entry === undefined) return;
      resolve(this.#handOut(entry));
    }
  }

  #stop(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.#delayed.clear();
    this.#delayedLow.clear();
    this.#disarmTimer();
    // Getters wait only while no key waits, so every one of them gets "shut down".
    for (let resolve = this.#getters.shift(); resolve !== undefined; resolve = this.#getters.shift()) resolve(undefined);
  }

  #releaseDrainWaiters(): void {
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  // Keeps exactly one timer, due when the earliest delayed key is.
  #armTimer(): void {
    const next = this.#delayed.peek();
    if (next === undefined) {
      this.#disarmTimer();
      return;
    }
    if (this.#timer !== undefined && this.#timerDue === next.due) return;
    this.#disarmTimer();
    this.#timerDue = next.due;
    const wait = Math.min(MAX_TIMER_MS, Math.max(0, next.due - this.#clock.now()));
    this.#timer = this.#clock.setTimeout(() => {
      this.#onTimer();
    }, wait);
  }

  #disarmTimer(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDue = Number.NaN;
  }

  #onTimer(): void {
    this.#timer = undefined;
    this.#timerDue = Number.NaN;
    // A timer may fire early (clamped long delays, coarse timer clocks): only keys actually due are added.
    const now = this.#clock.now();
    for (let next = this.#delayed.peek(); next !== undefined && next.due <= now; next = this.#delayed.peek()) {
      this.#delayed.pop();
      this.add(next.key, this.#delayedLow.delete(next.key) ? 'low' : 'high');
    }
    this.#armTimer();
  }

  #unfinishedWork(): UnfinishedWork {
    const now = this.#clock.now();
    let total = 0;
    let longest = 0;
    for (const startedAt of this.#startedAt.values()) {
      const seconds = (now - startedAt) / 1000;
      total += seconds;
      longest = Math.max(longest, seconds);
    }
    return { unfinishedWorkSeconds: total, longestRunningProcessorSeconds: longest };
  }
}
