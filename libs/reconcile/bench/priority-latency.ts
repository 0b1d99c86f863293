import { systemClock } from '../src/core/clock.ts';
import { WorkQueue } from '../src/queue/queue.ts';
import type { WorkQueuePriority } from '../src/queue/queue.ts';

/** The workload of {@link runPriorityBenchmark}. */
export interface PriorityBenchmarkOptions {
  /** `'priority'` adds the initial list as `'low'`; `'fifo'` adds everything as `'high'`, the queue without priorities. */
  readonly mode: 'priority' | 'fifo';
  /** Keys of the initial list, added at once at the start. */
  readonly items: number;
  /** Workers looping on get, reconcile, done. */
  readonly workers: number;
  /** Simulated cost of one reconcile, in ms. */
  readonly costMs: number;
  /** `'timer'`: the reconcile awaits a `setTimeout` (I/O-bound work, workers overlap); `'busy'`: it spins the CPU. */
  readonly cost: 'timer' | 'busy';
  /** When the user changes are added, in ms after the list. */
  readonly userAtMs: number;
}

/** What {@link runPriorityBenchmark} measured; times in ms of `performance.now()`. */
export interface PriorityBenchmarkResult extends PriorityBenchmarkOptions {
  /** A user's change to an object the list did not have (a new key): its add to its reconcile's start. */
  readonly newKeyLatencyMs: number;
  /** A user's change to the list's last object, still waiting from the list: its add to its reconcile's start. */
  readonly listedKeyLatencyMs: number;
  /** The list's add to the end of the last reconcile. */
  readonly drainMs: number;
  /** Reconciles run: items + 1 (the new key; the listed key's change is deduplicated into its waiting add). */
  readonly processed: number;
}

const NEW_KEY = 'default/user-change';

/**
 * One run: `items` keys (`default/object-<i>`) are added as the initial list, `workers` workers reconcile them at
 * `costMs` each, and `userAtMs` in two user changes are added as `'high'`: a new key and the list's last key. Then the
 * queue is shut down with drain, so the run ends when everything added was reconciled. Uses the system clock, so the
 * queue's default starvation bound (1000 ms) applies.
 */
export async function runPriorityBenchmark(options: PriorityBenchmarkOptions): Promise<PriorityBenchmarkResult> {
  const queue = new WorkQueue<string>({ clock: systemClock });
  const listPriority: WorkQueuePriority = options.mode === 'priority' ? 'low' : 'high';
  const listedKey = `default/object-${options.items - 1}`;
  const addedAt = new Map<string, number>();
  const startedAt = new Map<string, number>();
  let processed = 0;

  const reconcile = (): Promise<void> => {
    if (options.cost === 'timer') return new Promise((resolve) => setTimeout(resolve, options.costMs));
    const end = performance.now() + options.costMs;
    while (performance.now() < end) {
      // spin: CPU-bound reconcile
    }
    return Promise.resolve();
  };
  const worker = async (): Promise<void> => {
    for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
      if (addedAt.has(key) && !startedAt.has(key)) startedAt.set(key, performance.now());
      processed++;
      await reconcile();
      queue.done(key);
    }
  };

  const start = performance.now();
  for (let i = 0; i < options.items; i++) queue.add(`default/object-${i}`, listPriority);
  const workers = Array.from({ length: options.workers }, () => worker());
  await new Promise<void>((resolve) => setTimeout(resolve, options.userAtMs));
  for (const key of [NEW_KEY, listedKey]) {
    addedAt.set(key, performance.now());
    queue.add(key, 'high');
  }
  await queue.shutDownWithDrain();
  await Promise.all(workers);
  const drainMs = performance.now() - start;
  const latency = (key: string): number => (startedAt.get(key) ?? Number.NaN) - (addedAt.get(key) ?? Number.NaN);
  return { ...options, newKeyLatencyMs: latency(NEW_KEY), listedKeyLatencyMs: latency(listedKey), drainMs, processed };
}
