/**
 * What one work queue reports, named after controller-runtime's `workqueue_*` metrics. The queue calls these
 * synchronously on its hot path: implementations must be cheap and must not throw.
 */
export interface WorkQueueMetrics {
  /** A key became waiting (not a duplicate add): `workqueue_adds_total`. */
  incAdds(): void;
  /** Keys waiting, counting re-adds of keys being processed: `workqueue_depth`. */
  setDepth(depth: number): void;
  /** Seconds a key waited between its add and its get: `workqueue_queue_duration_seconds`. */
  observeQueueDuration(seconds: number): void;
  /** Seconds between a get and its done: `workqueue_work_duration_seconds`. */
  observeWorkDuration(seconds: number): void;
  /** `addAfter` or `addRateLimited` was called before shutdown: `workqueue_retries_total`. */
  incRetries(): void;
}

/** Work in flight at one instant, as read through {@link WorkQueueMetricsProvider.newQueueMetrics}'s callback. */
export interface UnfinishedWork {
  /** Sum over keys being processed of the seconds since each was handed out: `workqueue_unfinished_work_seconds`. */
  readonly unfinishedWorkSeconds: number;
  /** Seconds the longest-running key has been processed, 0 if none: `workqueue_longest_running_processor_seconds`. */
  readonly longestRunningProcessorSeconds: number;
}

/**
 * Creates the metrics of each queue. Called once per queue when it is constructed. Unfinished-work gauges are pull
 * based: `unfinishedWork` computes them on demand (O(keys being processed)), so a provider calls it when scraped
 * rather than the queue polling on a timer.
 */
export interface WorkQueueMetricsProvider {
  /** Returns the metrics for the queue called `name` (the `name` label). */
  newQueueMetrics(name: string, unfinishedWork: () => UnfinishedWork): WorkQueueMetrics;
}

const noopMetrics: WorkQueueMetrics = {
  incAdds: () => undefined,
  setDepth: () => undefined,
  observeQueueDuration: () => undefined,
  observeWorkDuration: () => undefined,
  incRetries: () => undefined,
};

/** A provider that records nothing; the queue's default. Stateless and shareable. */
export const noopWorkQueueMetricsProvider: WorkQueueMetricsProvider = {
  newQueueMetrics: () => noopMetrics,
};
