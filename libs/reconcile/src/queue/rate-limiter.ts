import type { Clock } from '../core/clock.ts';

/**
 * Decides how long a key waits before it is retried. Implementations keep per-key state until {@link forget};
 * none of the methods block, and all are synchronous. Keys are compared with `===`, like the queue's.
 */
export interface RateLimiter<K> {
  /** Records one more failure of `key` and returns how long (ms, ≥ 0) to wait before retrying it. Not idempotent. */
  when(key: K): number;
  /** Clears `key`'s history, so its next failure starts from the shortest delay. Idempotent. */
  forget(key: K): void;
  /** How many times `key` has failed since it was last forgotten. Pure. */
  numRequeues(key: K): number;
}

/** Options for {@link ItemExponentialRateLimiter}. */
export interface ItemExponentialRateLimiterOptions {
  /** Delay after the first failure (ms); default 5. */
  readonly baseDelayMs?: number;
  /** Largest delay (ms); default 1,000,000 (1000 s). */
  readonly maxDelayMs?: number;
}

/**
 * Per-key exponential backoff, client-go's `ItemExponentialFailureRateLimiter`: the n-th failure of a key since it
 * was last forgotten waits `baseDelayMs · 2^(n-1)`, capped at `maxDelayMs` (5, 10, 20, 40 ms … 1000 s by default).
 * Keeps one counter per failing key until {@link forget}, so callers must forget keys that succeed.
 */
export class ItemExponentialRateLimiter<K> implements RateLimiter<K> {
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #failures = new Map<K, number>();

  /** Throws `RangeError` unless 0 ≤ baseDelayMs ≤ maxDelayMs. */
  constructor(options: ItemExponentialRateLimiterOptions = {}) {
    this.#baseDelayMs = options.baseDelayMs ?? 5;
    this.#maxDelayMs = options.maxDelayMs ?? 1_000_000;
    if (!(this.#baseDelayMs >= 0 && this.#maxDelayMs >= this.#baseDelayMs)) {
      throw new RangeError(`need 0 <= baseDelayMs <= maxDelayMs, got ${this.#baseDelayMs} and ${this.#maxDelayMs}`);
    }
  }

  when(key: K): number {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    // 2 ** failures overflows to Infinity long before the counter does, and Infinity > max caps it.
    return Math.min(this.#baseDelayMs * 2 ** failures, this.#maxDelayMs);
  }

  forget(key: K): void {
    this.#failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.#failures.get(key) ?? 0;
  }
}

/** Options for {@link ItemFastSlowRateLimiter}. */
export interface ItemFastSlowRateLimiterOptions {
  /** Delay for the first `maxFastAttempts` failures of a key (ms). */
  readonly fastDelayMs: number;
  /** Delay for every later failure (ms). */
  readonly slowDelayMs: number;
  /** How many failures get the fast delay. */
  readonly maxFastAttempts: number;
}

/**
 * client-go's `ItemFastSlowRateLimiter`: a key's first `maxFastAttempts` failures wait `fastDelayMs`, later ones
 * `slowDelayMs`. Keeps one counter per failing key until {@link forget}.
 */
export class ItemFastSlowRateLimiter<K> implements RateLimiter<K> {
  readonly #options: ItemFastSlowRateLimiterOptions;
  readonly #failures = new Map<K, number>();

  constructor(options: ItemFastSlowRateLimiterOptions) {
    this.#options = { ...options };
  }

  when(key: K): number {
    const failures = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, failures);
    return failures <= this.#options.maxFastAttempts ? this.#options.fastDelayMs : this.#options.slowDelayMs;
  }

  forget(key: K): void {
    this.#failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.#failures.get(key) ?? 0;
  }
}

/** Options for {@link BucketRateLimiter}. */
export interface BucketRateLimiterOptions {
  /** Time source; tokens refill as it advances. */
  readonly clock: Clock;
  /** Tokens added per second; default 10. */
  readonly qps?: number;
  /** Bucket size, the most keys let through at once; default 100. The bucket starts full. */
  readonly burst?: number;
}

/**
 * An overall (not per-key) token bucket, client-go's `BucketRateLimiter` over golang.org/x/time/rate: each `when`
 * reserves one token and returns how long until that token exists, so `burst` calls in a row get 0 and later ones
 * are spaced `1000 / qps` ms apart. A reservation is never returned, even if the caller drops the key. Keeps no
 * per-key state: `forget` does nothing and `numRequeues` is always 0.
 */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  readonly #clock: Clock;
  readonly #qps: number;
  readonly #burst: number;
  #tokens: number;
  #last: number | undefined;

  /** Throws `RangeError` unless qps > 0 and burst ≥ 1. Reads no time until the first `when`. */
  constructor(options: BucketRateLimiterOptions) {
    const qps = options.qps ?? 10;
    const burst = options.burst ?? 100;
    if (!(qps > 0 && burst >= 1)) throw new RangeError(`need qps > 0 and burst >= 1, got ${qps} and ${burst}`);
    this.#clock = options.clock;
    this.#qps = qps;
    this.#burst = burst;
    this.#tokens = burst;
  }

  when(_key: K): number {
    const now = this.#clock.now();
    const elapsed = this.#last === undefined ? 0 : Math.max(0, now - this.#last);
    this.#last = now;
    // The balance may go negative: that is the debt later callers wait out, as in rate.Limiter.Reserve.
    this.#tokens = Math.min(this.#burst, this.#tokens + (elapsed * this.#qps) / 1000) - 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens * 1000) / this.#qps;
  }

  forget(_key: K): void {
    // No per-key state.
  }

  numRequeues(_key: K): number {
    return 0;
  }
}

/**
 * Combines limiters, client-go's `MaxOfRateLimiter`: `when` asks every limiter (so each records the failure) and
 * returns the longest delay; `forget` forgets in all; `numRequeues` is the largest count among them.
 */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  readonly #limiters: readonly RateLimiter<K>[];

  /** Throws `RangeError` when given no limiter. */
  constructor(...limiters: RateLimiter<K>[]) {
    if (limiters.length === 0) throw new RangeError('MaxOfRateLimiter needs at least one limiter');
    this.#limiters = limiters;
  }

  when(key: K): number {
    let delay = 0;
    for (const limiter of this.#limiters) delay = Math.max(delay, limiter.when(key));
    return delay;
  }

  forget(key: K): void {
    for (const limiter of this.#limiters) limiter.forget(key);
  }

  numRequeues(key: K): number {
    let requeues = 0;
    for (const limiter of this.#limiters) requeues = Math.max(requeues, limiter.numRequeues(key));
    return requeues;
  }
}

/**
 * The controller-runtime default: the larger of per-key exponential backoff (5 ms doubling to 1000 s) and an
 * overall token bucket (10 qps, burst 100) on `clock`. Each call returns a new limiter with its own state.
 */
export function defaultControllerRateLimiter<K>(clock: Clock): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(
    new ItemExponentialRateLimiter<K>({ baseDelayMs: 5, maxDelayMs: 1_000_000 }),
    new BucketRateLimiter<K>({ clock, qps: 10, burst: 100 }),
  );
}
