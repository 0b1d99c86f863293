/**
 * Why a reconcile ran, as kube-rs's `ReconcileReason`: the object itself changed, an object it owns changed, another
 * watched object mapped to it changed, it asked to be requeued, its drift check came due, or it failed and is
 * retried. `Unknown` only when a key was queued by other means (a test adding to the queue directly).
 */
export type ReconcileTrigger = 'ObjectChanged' | 'OwnedObjectChanged' | 'RelatedObjectChanged' | 'Requeue' | 'DriftCheck' | 'RetryAfterError' | 'Unknown';

/** Every {@link ReconcileTrigger}, for metrics that pre-create their series. */
export const RECONCILE_TRIGGERS: readonly ReconcileTrigger[] = ['ObjectChanged', 'OwnedObjectChanged', 'RelatedObjectChanged', 'Requeue', 'DriftCheck', 'RetryAfterError', 'Unknown'];
