/** Settings of {@link WatchBackoff}; every field is optional and defaults to client-go's reflector values. */
export interface WatchBackoffOptions {
  /** First delay in milliseconds (default 800). */
  readonly initialMs?: number;
  /** Largest delay before jitter (default 30 000). */
  readonly maxMs?: number;
  /** Growth per consecutive failure (default 2). */
  readonly factor?: number;
  /**
   * Relative jitter (default 0.2): the delay is drawn uniformly from `[d·(1−jitter), d·(1+jitter))`, so watchers
   * that failed together do not retry together.
   */
  readonly jitter?: number;
  /** A failure this long (or longer) after the previous one starts a new streak at `initialMs` (default 120 000). */
  readonly resetAfterMs?: number;
}

/**
 * Exponential backoff with jitter for a watcher's list and watch calls: 800 ms, 1.6 s, 3.2 s … capped at 30 s,
 * starting over after 2 minutes without a failure. Holds only the current failure streak; time comes in as
 * arguments, so it is a plain value with no timers.
 */
export class WatchBackoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #factor: number;
  readonly #jitter: number;
  readonly #resetAfterMs: number;
  readonly #random: () => number;
  #failures = 0;
  #lastFailureAt: number | undefined;

  /** `random` returns numbers in [0, 1) (e.g. `Math.random`). */
  constructor(random: () => number, options: WatchBackoffOptions = {}) {
    this.#random = random;
    this.#initialMs = options.initialMs ?? 800;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#factor = options.factor ?? 2;
    this.#jitter = options.jitter ?? 0.2;
    this.#resetAfterMs = options.resetAfterMs ?? 120_000;
  }

  /** Records a failure at `now` and returns how long to wait before the next attempt, in milliseconds. */
  fail(now: number): number {
    if (this.#lastFailureAt !== undefined && now - this.#lastFailureAt >= this.#resetAfterMs) this.#failures = 0;
    this.#failures++;
    this.#lastFailureAt = now;
    const base = Math.min(this.#maxMs, this.#initialMs * this.#factor ** (this.#failures - 1));
    return base * (1 + this.#jitter * (2 * this.#random() - 1));
  }

  /** Failures in the current streak as of `now`: 0 once `resetAfterMs` has passed since the last one. */
  failures(now: number): number {
    if (this.#lastFailureAt === undefined || now - this.#lastFailureAt >= this.#resetAfterMs) return 0;
    return this.#failures;
  }
}
