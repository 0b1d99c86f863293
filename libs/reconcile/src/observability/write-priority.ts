import type { Clock, TimerHandle } from '../core/clock.ts';
import { systemClock } from '../core/clock.ts';

/** Options of a {@link WritePriority}. */
export interface WritePriorityOptions {
  /** How long after the last urgent write ended the apiserver counts as quiet (default 250 ms). */
  readonly quietMs?: number;
  /** The longest {@link WritePriority.quiet} waits, so a steady stream of urgent writes cannot starve the rest (default 30 s). */
  readonly maxWaitMs?: number;
}

/**
 * Orders this process's apiserver writes by urgency: urgent writes (status, which users and tools wait for) are
 * {@link WritePriority.track}ed, and writes that may trail (Events) wait for {@link WritePriority.quiet} before they
 * are sent. In a burst of creates every status write goes first and the Events follow once the burst is over.
 * One instance per process, shared by the status writers and the Event recorder. Runs timers on the injected clock
 * only while something waits.
 */
export class WritePriority {
  readonly #clock: Clock;
  readonly #quietMs: number;
  readonly #maxWaitMs: number;
  #inFlight = 0;
  #lastEndMs = Number.NEGATIVE_INFINITY;
  readonly #waiters: { readonly sinceMs: number; readonly resolve: () => void }[] = [];
  #timer: TimerHandle | undefined;

  constructor(deps: { readonly clock?: Clock } = {}, options: WritePriorityOptions = {}) {
    this.#clock = deps.clock ?? systemClock;
    this.#quietMs = options.quietMs ?? 250;
    this.#maxWaitMs = options.maxWaitMs ?? 30_000;
  }

  /** Marks `write` urgent while it runs; resolves or rejects as it does. */
  async track<T>(write: Promise<T>): Promise<T> {
    this.#inFlight++;
    try {
      return await write;
    } finally {
      this.#inFlight--;
      this.#lastEndMs = this.#clock.now();
      this.#check();
    }
  }

  /**
   * Resolves when no urgent write is in flight and none ended within `quietMs`, or after `maxWaitMs` at the latest.
   * Never rejects.
   */
  quiet(): Promise<void> {
    if (this.#isQuiet(this.#clock.now())) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push({ sinceMs: this.#clock.now(), resolve });
      this.#check();
    });
  }

  #isQuiet(nowMs: number): boolean {
    return this.#inFlight === 0 && nowMs - this.#lastEndMs >= this.#quietMs;
  }

  #check(): void {
    if (this.#waiters.length === 0) return;
    const nowMs = this.#clock.now();
    const quiet = this.#isQuiet(nowMs);
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i];
      if (waiter === undefined || !(quiet || nowMs - waiter.sinceMs >= this.#maxWaitMs)) continue;
      this.#waiters.splice(i, 1);
      waiter.resolve();
    }
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#waiters.length === 0) return;
    const oldest = Math.min(...this.#waiters.map((w) => w.sinceMs));
    const untilQuiet = this.#inFlight === 0 ? this.#lastEndMs + this.#quietMs - nowMs : Number.POSITIVE_INFINITY;
    const wait = Math.max(1, Math.min(untilQuiet, oldest + this.#maxWaitMs - nowMs));
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#check();
    }, wait);
  }
}
