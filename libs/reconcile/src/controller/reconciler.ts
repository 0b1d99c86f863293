import type { KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from '../core/logger.ts';
import type { Request } from '../core/request.ts';
import type { ReconcileTrigger } from '../core/reconcile-trigger.ts';
import type { Result } from '../core/result.ts';

/** What a reconcile gets besides the object. */
export interface ReconcileContext {
  readonly request: Request;
  /** A fresh UUID per reconcile, on every log line of it. */
  readonly reconcileId: string;
  /** Already bound to the controller, the object's key and the reconcile ID. */
  readonly log: Logger;
  /** Aborted when the reconcile times out or the controller stops; pass it to every call that can wait. */
  readonly signal: AbortSignal;
  /**
   * Why this reconcile runs (also on every log line of it). For logs and debugging only: a reconciler must not
   * branch on it (level-triggered: it converges the object whatever woke it). Absent outside a controller.
   */
  readonly trigger?: ReconcileTrigger;
}

/**
 * Brings one object's world to its desired state. Level-triggered: it gets the current cached object (which
 * may be stale), never the event that woke it. Must be idempotent. Return `Result.done()` or
 * `Result.requeueAfter(ms)`; throw to retry with backoff; throw `TerminalError` to stop retrying until the
 * object changes. The loop never runs two reconciles of one key at the same time.
 */
export interface Reconciler<T extends KubernetesObject> {
  reconcile(object: T, context: ReconcileContext): Promise<Result>;
  /**
   * Optional: drop whatever this reconciler remembers of `request`'s object. The controller calls it when the
   * cache reports the object deleted (and when a queued key finds no object), so per-object memory never outlives
   * the object, finalizer or not. Must be cheap, must not throw, and must not wait.
   */
  forget?(request: Request): void;
}
