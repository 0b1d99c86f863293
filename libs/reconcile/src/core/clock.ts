/** An opaque handle for a timer set through a {@link Clock}. */
export interface TimerHandle {
  readonly __timer: true;
}

/**
 * Time as the runtime sees it. Everything that waits or measures takes a Clock, so unit tests run on
 * {@link VirtualClock} and never sleep. Implementations must call a timer's callback at most once and
 * never synchronously from `setTimeout`.
 */
export interface Clock {
  /** Milliseconds since an arbitrary epoch; never decreases. */
  now(): number;
  /** Calls `callback` once after at least `ms` milliseconds. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  /** Cancels a timer; a no-op for one that already fired or was cleared. */
  clearTimeout(handle: TimerHandle): void;
}

// Node fires a timer set for longer than this after 1 ms (with a TimeoutOverflowWarning), so longer waits are chained.
const MAX_NODE_TIMER_MS = 2 ** 31 - 1;

interface SystemTimer {
  current: NodeJS.Timeout | undefined;
}

/**
 * The real clock: `performance.now()` and Node timers (unref'd, so they never keep a process alive alone). Waits
 * longer than Node's 2^31-1 ms limit are split into several timers behind one handle.
 */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => {
    const timer: SystemTimer = { current: undefined };
    const arm = (wait: number): void => {
      const chunk = Math.min(MAX_NODE_TIMER_MS, Math.max(0, wait));
      timer.current = setTimeout(
        chunk < wait
          ? () => {
              arm(wait - chunk);
            }
          : callback,
        chunk,
      );
      timer.current.unref();
    };
    arm(ms);
    return timer as unknown as TimerHandle;
  },
  clearTimeout: (handle) => {
    clearTimeout((handle as unknown as SystemTimer).current);
  },
};

/**
 * Resolves after `ms` on `clock`, or rejects with the signal's reason as soon as `signal` aborts.
 * The timer is cleared on abort, so nothing leaks.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason as Error);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface VirtualTimer {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/**
 * A clock that moves only when told to, for unit tests. `advance(ms)` fires every timer that falls due, in due
 * order (ties in creation order), letting promise callbacks settle between timers so async code reacts as it
 * would in real time.
 */
export class VirtualClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers = new Map<number, VirtualTimer>();

  /** Starts at `start` milliseconds (default 0). */
  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.#nextId++;
    this.#timers.set(id, { id, due: this.#now + Math.max(0, ms), callback });
    return { id } as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete((handle as unknown as { id: number }).id);
  }

  /** Number of timers not yet fired or cleared. */
  pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order and flushing promise jobs after each. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await flushMicrotasks();
    for (;;) {
      const next = this.#earliest();
      if (next === undefined || next.due > target) break;
      this.#timers.delete(next.id);
      this.#now = Math.max(this.#now, next.due);
      next.callback();
      await flushMicrotasks();
    }
    this.#now = target;
    await flushMicrotasks();
  }

  /** Fires every pending timer (including ones set while firing), up to `limit` timers, flushing between them. */
  async runAll(limit = 10_000): Promise<void> {
    for (let i = 0; i < limit; i++) {
      await flushMicrotasks();
      const next = this.#earliest();
      if (next === undefined) return;
      await this.advance(next.due - this.#now);
    }
    throw new Error(`VirtualClock.runAll: more than ${limit} timers; is something rescheduling itself forever?`);
  }

  #earliest(): VirtualTimer | undefined {
    let best: VirtualTimer | undefined;
    for (const timer of this.#timers.values()) {
      if (best === undefined || timer.due < best.due || (timer.due === best.due && timer.id < best.id)) best = timer;
    }
    return best;
  }
}

/** Lets every queued promise job run (several macrotask turns, enough for chained awaits). */
export async function flushMicrotasks(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
