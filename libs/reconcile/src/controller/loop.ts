import { randomUUID } from 'node:crypto';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Clock } from '../core/clock.ts';
import type { ControllerMetrics, ReconcileOutcome } from '../observability/controller-metrics.ts';
import { isTerminalError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { errorFields } from '../core/logger.ts';
import type { WorkQueue } from '../queue/queue.ts';
import { parseRequestKey } from '../core/request.ts';
import type { Result } from '../core/result.ts';
import type { Store } from '../cache/store.ts';
import type { ReconcileContext, Reconciler } from './reconciler.ts';
import type { TriggerLedger } from './trigger.ts';

/** Everything the private worker loop needs. */
export interface LoopDeps<T extends KubernetesObject> {
  readonly name: string;
  readonly queue: WorkQueue;
  readonly store: Store<T>;
  readonly reconciler: Reconciler<T>;
  /** Why each queued key runs; the loop takes the reason and notes the requeues and retries it schedules. */
  readonly triggers: TriggerLedger;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: ControllerMetrics;
  /** Abort a reconcile's signal after this long; the key stays busy until the reconcile settles. */
  readonly reconcileTimeoutMs: number;
}

/** Thrown into the outcome when a reconcile outlives its timeout. */
class ReconcileTimeoutError extends Error {
  override readonly name = 'ReconcileTimeoutError';
}

/**
 * One worker: takes a key, reconciles the cached object, handles the one outcome, marks the key done; until the
 * queue is shut down and drained. Never throws: every failure of a reconcile is an outcome.
 */
export async function runWorker<T extends KubernetesObject>(deps: LoopDeps<T>): Promise<void> {
  for (;;) {
    const key = await deps.queue.get();
    if (key === undefined) return;
    deps.metrics.addActiveWorkers(deps.name, 1);
    try {
      await processKey(deps, key);
    } finally {
      deps.metrics.addActiveWorkers(deps.name, -1);
      deps.queue.done(key);
    }
  }
}

async function processKey<T extends KubernetesObject>(deps: LoopDeps<T>, key: string): Promise<void> {
  const trigger = deps.triggers.take(key);
  const object = deps.store.get(key);
  if (object === undefined) {
    // Deleted since it was queued: nothing to converge. Finalizers keep objects that need cleanup in the store.
    deps.queue.forget(key);
    deps.triggers.forget(key);
    deps.reconciler.forget?.(parseRequestKey(key));
    return;
  }
  const reconcileId = randomUUID();
  const request = parseRequestKey(key);
  // deps.logger is already bound to the controller's name (Controller.start).
  const log = deps.logger.child({ ...(request.namespace !== undefined && { namespace: request.namespace }), name: request.name, reconcileId, trigger });
  deps.metrics.countTrigger(deps.name, trigger);
  const started = deps.clock.now();
  const { outcome, result, error } = await reconcileOnce(deps, object, { request, reconcileId, log, trigger });
  const seconds = (deps.clock.now() - started) / 1000;
  deps.metrics.observeReconcile(deps.name, outcome, seconds);
  const durationMs = Math.round(seconds * 1000);
  switch (outcome) {
    case 'success':
      deps.queue.forget(key);
      log.debug({ durationMs }, 'reconciled');
      break;
    case 'requeue_after': {
      const delayMs = result?.kind === 'requeueAfter' ? result.delayMs : 0;
      deps.queue.forget(key);
      deps.triggers.noteScheduled(key, result?.kind === 'requeueAfter' && result.driftCheck === true ? 'DriftCheck' : 'Requeue');
      deps.queue.addAfter(key, delayMs);
      log.debug({ durationMs, requeueAfterMs: delayMs }, 'reconciled; requeue scheduled');
      break;
    }
    case 'terminal_error':
      deps.queue.forget(key);
      log.error({ durationMs, ...errorFields(error) }, 'reconcile failed terminally; waiting for a change');
      break;
    case 'error':
    case 'panic':
    case 'timeout':
      deps.triggers.noteScheduled(key, 'RetryAfterError');
      deps.queue.addRateLimited(key);
      log.warn({ durationMs, outcome, retries: deps.queue.numRequeues(key), ...errorFields(error) }, 'reconcile failed; retrying with backoff');
      break;
  }
}

interface Attempt {
  readonly outcome: ReconcileOutcome;
  readonly result?: Result;
  readonly error?: unknown;
}

async function reconcileOnce<T extends KubernetesObject>(
  deps: LoopDeps<T>,
  object: T,
  base: Omit<ReconcileContext, 'signal'>,
): Promise<Attempt> {
  const abort = new AbortController();
  const timer = deps.clock.setTimeout(() => {
    abort.abort(new ReconcileTimeoutError(`reconcile exceeded ${deps.reconcileTimeoutMs} ms`));
  }, deps.reconcileTimeoutMs);
  try {
    let result: Result;
    try {
      // A synchronous throw inside reconcile() becomes a rejection here, like a recovered panic.
      result = await Promise.resolve().then(() => deps.reconciler.reconcile(object, { ...base, signal: abort.signal }));
    } catch (error) {
      if (abort.signal.aborted) return { outcome: 'timeout', error: abort.signal.reason };
      if (isTerminalError(error)) return { outcome: 'terminal_error', error };
      return { outcome: error instanceof Error ? 'error' : 'panic', error };
    }
    if (abort.signal.aborted) return { outcome: 'timeout', error: abort.signal.reason };
    if (typeof result !== 'object' || !('kind' in result)) {
      return { outcome: 'panic', error: new TypeError(`reconcile returned ${String(result)}, not a Result`) };
    }
    return { outcome: result.kind === 'done' ? 'success' : 'requeue_after', result };
  } finally {
    deps.clock.clearTimeout(timer);
  }
}
