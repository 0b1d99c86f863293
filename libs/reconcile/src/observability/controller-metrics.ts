import type { ReconcileTrigger } from '../core/reconcile-trigger.ts';
/** How a reconcile ended, as the `result` label of `controller_runtime_reconcile_total`. */
export type ReconcileOutcome = 'success' | 'requeue_after' | 'error' | 'terminal_error' | 'panic' | 'timeout';

/**
 * Hooks a controller calls for the metrics controller-runtime exports (`controller_runtime_reconcile_total`,
 * `…_errors_total`, `…_terminal_reconcile_errors_total`, `…_panics_total`, `…_time_seconds`,
 * `…_active_workers`, `…_max_concurrent_reconciles`). Implementations must be cheap and must not throw.
 */
export interface ControllerMetrics {
  setMaxConcurrentReconciles(controller: string, workers: number): void;
  addActiveWorkers(controller: string, delta: number): void;
  observeReconcile(controller: string, outcome: ReconcileOutcome, seconds: number): void;
  /** Counts one reconcile by why it ran (a debug aid, as kube-rs's reconcile reason; no per-object labels). */
  countTrigger(controller: string, trigger: ReconcileTrigger): void;
}

/** Drops every measurement (the default). */
export const noopControllerMetrics: ControllerMetrics = {
  setMaxConcurrentReconciles: () => undefined,
  addActiveWorkers: () => undefined,
  observeReconcile: () => undefined,
  countTrigger: () => undefined,
};
