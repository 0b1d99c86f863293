import type { KubernetesObject } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import type { Condition, ConditionUpdate } from '../core/conditions.ts';
import { conditionsEqual, setCondition } from '../core/conditions.ts';
import { requestFor } from '../core/request.ts';
import type { Progress } from './progress.ts';
import { progressFromReady, withProgress } from './progress.ts';
import type { ResourceType } from '../client/resource-type.ts';

/** What a reconciler wants the status to say; {@link patchStatusIfChanged} turns it into the next status. */
export interface DesiredStatus {
  /**
   * Conditions to set with {@link setCondition}; types not listed keep their current value. A condition without
   * `observedGeneration` gets the object's `metadata.generation`.
   */
  readonly conditions?: readonly ConditionUpdate[];
  /**
   * Other top-level status fields (not `conditions`, not `observedGeneration`), compared deeply and written when
   * different. `null` removes a field; fields not named here are left alone.
   */
  readonly fields?: Readonly<Record<string, unknown>>;
  /**
   * Where the resource stands for kstatus (`Stalled`, `Reconciling`, or neither: progress.ts). Absent: derived from the
   * `Ready` update in `conditions` (`True` settles, anything else is `Reconciling` with Ready's reason), and left as it
   * is by a write that does not touch `Ready`. Ignored by a write of fields alone.
   */
  readonly progress?: Progress;
}

/** Options for {@link patchStatusIfChanged}. */
export interface PatchStatusOptions {
  /** Wall-clock time for new `lastTransitionTime`s; default now. */
  readonly now?: Date;
  /**
   * Send `metadata.resourceVersion` of `object` with the patch, so a write based on a stale read fails with 409
   * Conflict instead of overwriting (controller-runtime's `MergeFromWithOptimisticLock`). Default false: the
   * conditions array is computed from `object` either way, and a reconcile of a stale object is followed by one of
   * the fresh object.
   */
  readonly optimisticLock?: boolean;
  readonly fieldManager?: string;
  readonly signal?: AbortSignal;
}

/** The status fields this helper understands; the rest of a status is opaque to it. */
interface StatusShape {
  readonly observedGeneration?: number;
  readonly conditions?: readonly Condition[];
  readonly [field: string]: unknown;
}

/**
 * Computes the next status of `object` from `desired` (conditions via {@link setCondition}, plain fields, and
 * `observedGeneration` as {@link statusChange} rules) and, only when it differs from the object's current status
 * (deeply; conditions in any order), sends ONE merge patch with the changed top-level fields to the status
 * subresource. Resolves to the object as the apiserver returned it after the patch, or `undefined` at steady
 * state, when it sends nothing. `object` is usually the cached copy the reconcile got; the comparison is against
 * it, so after a stale read a reconcile may write a status the server already has (harmless, and followed by a
 * quiet reconcile). Rejects with the client's `KubeApiError`.
 */
export async function writeStatusIfChanged<T extends KubernetesObject>(
  client: Client,
  type: ResourceType<T>,
  object: T,
  desired: DesiredStatus,
  options: PatchStatusOptions = {},
): Promise<T | undefined> {
  const change = statusChange(object, desired, options.now ?? new Date());
  if (change === undefined) return undefined;
  const resourceVersion = object.metadata?.resourceVersion;
  const body = {
    ...(options.optimisticLock === true && resourceVersion !== undefined && { metadata: { resourceVersion } }),
    status: change,
  };
  return client.patchStatus(type, requestFor(object), { type: 'merge', body }, {
    ...(options.fieldManager !== undefined && { fieldManager: options.fieldManager }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
}

/**
 * {@link writeStatusIfChanged} for callers that only need to know whether it wrote: resolves `true` when it sent
 * the patch and `false` at steady state.
 */
export async function patchStatusIfChanged<T extends KubernetesObject>(
  client: Client,
  type: ResourceType<T>,
  object: T,
  desired: DesiredStatus,
  options: PatchStatusOptions = {},
): Promise<boolean> {
  return (await writeStatusIfChanged(client, type, object, desired, options)) !== undefined;
}

/**
 * The top-level status fields that must change to bring `object`'s status to `desired`, or `undefined` when
 * none must. Pure; exported for reconcilers that batch status with other writes.
 *
 * The one rule of `observedGeneration` (ADR 0007): it moves to `metadata.generation` only in a write that names
 * conditions and after which EVERY condition of the object carries that generation. So a watcher never sees
 * `observedGeneration` at a generation while a condition still describes an older one, and tools that judge
 * readiness from `observedGeneration` plus `Ready` (kstatus, `kubectl wait`) never call the object current
 * early. A write of fields alone (a write-ahead record before an external call) never moves it; neither does a
 * write that leaves one condition at an older generation (a failure that keeps `Ready` as it was).
 *
 * Every write that names conditions also brings kstatus' `Stalled` and `Reconciling` to `desired.progress` (or the
 * progress its `Ready` update implies), so no kind writes them by hand and none can forget them.
 */
export function statusChange(object: KubernetesObject, desired: DesiredStatus, now: Date): Record<string, unknown> | undefined {
  const current = statusOf(object);
  const generation = object.metadata?.generation;
  const change: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(desired.fields ?? {})) {
    if (field === 'conditions' || field === 'observedGeneration') throw new RangeError(`status field ${field} is managed by statusChange; use desired.conditions`);
    if (value === undefined) continue;
    if (value === null ? field in current : !deepEqual(current[field], value)) change[field] = value;
  }
  let conditions = current.conditions ?? [];
  if (desired.conditions !== undefined) {
    for (const update of desired.conditions) {
      conditions = setCondition(conditions, { ...update, ...(update.observedGeneration === undefined && generation !== undefined && { observedGeneration: generation }) }, now);
    }
    const progress = desired.progress ?? progressFromReady(desired.conditions);
    if (progress !== undefined) conditions = withProgress(conditions, progress, generation, now);
    if (!conditionsEqual(conditions, current.conditions)) change['conditions'] = conditions;
  }
  const settled = generation !== undefined && desired.conditions !== undefined && conditions.every((c) => c.observedGeneration === generation);
  if (settled && current.observedGeneration !== generation) change['observedGeneration'] = generation;
  return Object.keys(change).length === 0 ? undefined : change;
}

function statusOf(object: KubernetesObject): StatusShape {
  const status = (object as { status?: unknown }).status;
  return typeof status === 'object' && status !== null ? (status as StatusShape) : {};
}

/** Structural equality of JSON values; object key order does not matter, array order does. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((k) => left[k] !== undefined);
  if (keys.length !== Object.keys(right).filter((k) => right[k] !== undefined).length) return false;
  return keys.every((k) => deepEqual(left[k], right[k]));
}
