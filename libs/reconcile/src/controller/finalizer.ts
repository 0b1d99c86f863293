import type { KubernetesObject } from '@kubernetes/client-node';
import type { Client, JsonPatchOperation } from '../client/client.ts';
import { isNotFound } from '../core/errors.ts';
import { Reasons } from '../core/reasons.ts';
import type { Recorder } from '../observability/events.ts';
import { requestFor } from '../core/request.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { Result } from '../core/result.ts';

/** What {@link withFinalizer} runs, by the object's lifecycle. */
export interface FinalizerHandlers<T extends KubernetesObject> {
  /** The finalizer name, e.g. `kafka.domain-operators.io/topic`. */
  readonly finalizer: string;
  /** Brings the world to the spec; runs while the object is not being deleted and carries the finalizer. */
  readonly apply: (object: T) => Promise<Result>;
  /**
   * Removes what `apply` created, idempotently; runs while the object is being deleted. `Result.done()` means
   * "finished": the finalizer is removed and the apiserver deletes the object. `Result.requeueAfter(ms)` means
   * "still in progress" (e.g. waiting for an external deletion): the finalizer stays and the object is
   * reconciled again after `ms`. A throw keeps the finalizer too (see {@link withFinalizer}).
   */
  readonly cleanup: (object: T) => Promise<Result>;
}

/** What {@link withFinalizer} needs. */
export interface FinalizerDeps<T extends KubernetesObject> {
  readonly client: Client;
  readonly type: ResourceType<T>;
  readonly recorder: Recorder;
  /** The operator's API group: the force-delete annotation is `<group>/force-delete`. */
  readonly group: string;
  readonly signal?: AbortSignal;
}

/** The annotation that lets a human release a stuck object: `<group>/force-delete: "true"`. */
export function forceDeleteAnnotation(group: string): string {
  return `${group}/force-delete`;
}

/**
 * Runs `apply` or `cleanup` for `object` with a finalizer guarding cleanup, covering the four cases of
 * (carries the finalizer × is being deleted), as kube-rs' `finalizer()`:
 *
 * - not deleting, finalizer missing: adds it with a JSON patch guarded by a `test` of `/metadata/finalizers`, so
 *   a concurrent change to the list fails the patch (422) instead of being overwritten; then runs `apply` on the
 *   patched object.
 * - not deleting, finalizer present: runs `apply`.
 * - deleting, finalizer present: runs `cleanup`; on `Result.done()` removes the finalizer with a JSON patch that
 *   removes it by index after a `test` of the value at that index (a 404, the object already gone, counts as
 *   success). If `cleanup` throws, the finalizer stays, a `Warning` Event `CleanupFailed` is recorded, and the
 *   error is rethrown, so the loop retries with backoff (or, for a `TerminalError`, waits for a change).
 *   Reporting the failure in a condition is left to the caller, who sees the error; on a deleting object the
 *   Event is the signal users look for.
 *   When the object carries `<group>/force-delete: "true"` ({@link forceDeleteAnnotation}) the finalizer is
 *   removed WITHOUT cleanup and a `Warning` Event `ForceDeleted` is recorded, so a namespace never stays stuck
 *   when the external system is gone for good. The annotation does nothing on an object not being deleted.
 * - deleting, finalizer missing: does nothing (returns `Result.done()`).
 *
 * Returns the `Result` of `apply` or `cleanup`. Rejects with the client's `KubeApiError` when a finalizer patch
 * fails (a 422 from a failed `test` means the cached object was stale: retrying with a fresh one fixes it).
 */
export async function withFinalizer<T extends KubernetesObject>(object: T, handlers: FinalizerHandlers<T>, deps: FinalizerDeps<T>): Promise<Result> {
  const finalizers = object.metadata?.finalizers ?? [];
  const index = finalizers.indexOf(handlers.finalizer);
  const deleting = object.metadata?.deletionTimestamp !== undefined;

  if (!deleting) {
    if (index >= 0) return handlers.apply(object);
    // An empty list is absent from the JSON, and the apiserver's JSON patch treats `test` of null as "absent".
    const added = await jsonPatch(deps, object, [
      { op: 'test', path: '/metadata/finalizers', value: finalizers.length === 0 ? null : finalizers },
      finalizers.length === 0
        ? { op: 'add', path: '/metadata/finalizers', value: [handlers.finalizer] }
        : { op: 'add', path: '/metadata/finalizers/-', value: handlers.finalizer },
    ]);
    return handlers.apply(added);
  }

  if (index < 0) return Result.done();

  if (object.metadata?.annotations?.[forceDeleteAnnotation(deps.group)] === 'true') {
    deps.recorder.record(object, {
      type: 'Warning',
      reason: Reasons.forceDeleted,
      action: 'RemoveFinalizer',
      note: `${forceDeleteAnnotation(deps.group)} is set: finalizer ${handlers.finalizer} removed without cleanup; external resources may remain`,
    });
    await removeFinalizer(deps, object, index, handlers.finalizer);
    return Result.done();
  }

  let result: Result;
  try {
    result = await handlers.cleanup(object);
  } catch (err) {
    deps.recorder.record(object, {
      type: 'Warning',
      reason: Reasons.cleanupFailed,
      action: 'Cleanup',
      note: `cleanup failed, finalizer ${handlers.finalizer} kept (set annotation ${forceDeleteAnnotation(deps.group)}: "true" to delete without cleanup): ${err instanceof Error ? err.message : String(err)}`,
    });
    throw err;
  }
  if (result.kind === 'done') await removeFinalizer(deps, object, index, handlers.finalizer);
  return result;
}

/**
 * Removes `finalizer` from an object that is NOT being deleted, when it carries it (a kind whose deletion no longer
 * needs cleanup, e.g. after its deletion policy became `Retain`), with the same guarded JSON patch as a removal
 * after cleanup. Returns the patched object, or `object` itself (no request) when the finalizer is absent.
 * Rejects with the client's `KubeApiError` when the patch fails (422: the cached object was stale; retry).
 */
export async function releaseFinalizer<T extends KubernetesObject>(object: T, finalizer: string, deps: FinalizerDeps<T>): Promise<T> {
  const index = (object.metadata?.finalizers ?? []).indexOf(finalizer);
  if (index < 0) return object;
  return jsonPatch(deps, object, [
    { op: 'test', path: `/metadata/finalizers/${index}`, value: finalizer },
    { op: 'remove', path: `/metadata/finalizers/${index}` },
  ]);
}

async function removeFinalizer<T extends KubernetesObject>(deps: FinalizerDeps<T>, object: T, index: number, finalizer: string): Promise<void> {
  try {
    await jsonPatch(deps, object, [
      { op: 'test', path: `/metadata/finalizers/${index}`, value: finalizer },
      { op: 'remove', path: `/metadata/finalizers/${index}` },
    ]);
  } catch (err) {
    // Gone already: what removing the finalizer was for.
    if (!isNotFound(err)) throw err;
  }
}

function jsonPatch<T extends KubernetesObject>(deps: FinalizerDeps<T>, object: T, operations: readonly JsonPatchOperation[]): Promise<T> {
  return deps.client.patch(deps.type, requestFor(object), { type: 'json', operations }, { ...(deps.signal !== undefined && { signal: deps.signal }) });
}
