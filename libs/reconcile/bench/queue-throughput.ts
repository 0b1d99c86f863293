import { systemClock } from '../src/core/clock.ts';
import { WorkQueue } from '../src/queue/queue.ts';

/** The workload of {@link runQueueBenchmark}; `libs/testenv/go/cmd/workqueue-bench` runs the same one on client-go. */
export interface QueueBenchmarkOptions {
  /**
   * The keys the producer adds, in order ({@link benchmarkKeys}). Built once per process by the caller and reused by
   * every round, as the Go program does: building a million strings inside a round left their garbage collection
   * (V8 moves young objects) to the timed loop, which cost that round 40–60 % of its throughput.
   */
  readonly keys: readonly string[];
  /** How many workers loop on `get` + `done`. */
  readonly workers: number;
  /** Adds between yields of the producer to the event loop; default 1000. */
  readonly producerBatch?: number;
}

/** What {@link runQueueBenchmark} measured. */
export interface QueueBenchmarkResult {
  /** `items` adds, each carried through get and done (or deduplicated), per second of wall time. */
  readonly opsPerSecond: number;
  readonly items: number;
  /** Keys handed out by `get` (≤ items, because waiting duplicates collapse). */
  readonly processed: number;
  readonly workers: number;
  readonly elapsedMs: number;
}

/**
 * The keys the producer adds, in order: `default/object-<i>`, except that add `i` repeats the key of add
 * `i - 1 - (i % 8)` whenever `floor((i + 1) · ratio) > floor(i · ratio)`, which spreads the duplicates evenly.
 * Deterministic, so the Go program can build the identical sequence.
 */
export function benchmarkKeys(items: number, duplicateRatio: number): string[] {
  const keys: string[] = [];
  for (let i = 0; i < items; i++) {
    const duplicate = i > 0 && Math.floor((i + 1) * duplicateRatio) > Math.floor(i * duplicateRatio);
    keys.push(duplicate ? (keys[Math.max(0, i - 1 - (i % 8))] ?? '') : `default/object-${i}`);
  }
  return keys;
}

/**
 * Measures {@link WorkQueue} throughput on the system clock: one producer adds `keys` (yielding to the event loop
 * every `producerBatch` adds), `workers` workers get and immediately mark each key done, and the clock stops when
 * the queue has been drained with `shutDownWithDrain` and every worker has seen `get` resolve `undefined`.
 */
export async function runQueueBenchmark(options: QueueBenchmarkOptions): Promise<QueueBenchmarkResult> {
  const { keys } = options;
  const batch = options.producerBatch ?? 1000;
  const queue = new WorkQueue<string>({ clock: systemClock });
  let processed = 0;

  const worker = async (): Promise<void> => {
    for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
      processed++;
      queue.done(key);
    }
  };

  const start = performance.now();
  const workers = Array.from({ length: options.workers }, () => worker());
  for (let i = 0; i < keys.length; i++) {
    queue.add(keys[i] ?? '');
    if ((i + 1) % batch === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await queue.shutDownWithDrain();
  await Promise.all(workers);
  const elapsedMs = performance.now() - start;

  return { opsPerSecond: keys.length / (elapsedMs / 1000), items: keys.length, processed, workers: options.workers, elapsedMs };
}
