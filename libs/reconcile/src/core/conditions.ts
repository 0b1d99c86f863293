/**
 * Status conditions in the shape of Kubernetes' `metav1.Condition`, and pure helpers over lists of them.
 *
 * Conventions (as in the Kubernetes API conventions and Crossplane):
 * - Every resource carries a `Ready` condition ({@link READY_CONDITION}) that summarises it: `True` when the
 *   world matches the spec, `False` with a reason when it does not, `Unknown` while that is not known yet.
 *   Other types (`Synced`, `Progressing`, …) add detail; none of them replace `Ready`.
 * - Types and reasons are CamelCase constants ({@link ReasonValue}), declared once per operator and never built
 *   from data; the human detail, which may vary, goes in `message`.
 * - `observedGeneration` is the `metadata.generation` the condition was computed from, so a reader can tell a
 *   stale condition from a current one.
 */

/** The three values a condition status may take. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/**
 * A CamelCase reason or type, e.g. `Ready`, `ReconcileError`, `TopicCreated`: a letter first, then letters and
 * digits. A plain string alias on purpose (operators declare their reasons as `const` strings); the convention is
 * checked at run time by {@link isReasonValue} and by {@link setCondition}.
 */
export type ReasonValue = string;

/** One status condition, as `metav1.Condition` serialises it. */
export interface Condition {
  /** CamelCase type, unique within a list, e.g. `Ready`. */
  readonly type: ReasonValue;
  readonly status: ConditionStatus;
  /** CamelCase reason for the last transition, e.g. `TopicCreated`. */
  readonly reason: ReasonValue;
  /** Human-readable detail; may be empty. Never contains secrets. */
  readonly message: string;
  /** RFC 3339 time (seconds precision, UTC) of the last change of `status`. */
  readonly lastTransitionTime: string;
  /** The `metadata.generation` this condition was computed from. */
  readonly observedGeneration?: number;
}

/** What a reconciler states about a condition; {@link setCondition} fills in `lastTransitionTime`. */
export type ConditionUpdate = Omit<Condition, 'lastTransitionTime'>;

/** The summary condition type every resource carries. */
export const READY_CONDITION = 'Ready';

/**
 * The condition type of a resource that stands for an external object: did the last reconcile apply the spec
 * (`True`, `ReconcileSuccess`) or not (`False`, with the failure's reason). Written by the external-resource reconciler.
 */
export const SYNCED_CONDITION = 'Synced';

/**
 * kstatus' abnormal-true condition (sigs.k8s.io/cli-utils): `True` while the resource cannot make progress without a
 * change of it or of the world outside (Flux and kpt then report it `Failed` at once instead of waiting). Absent
 * otherwise. Written by the status path from the writer's `progress` (status/progress.ts), never by hand.
 */
export const STALLED_CONDITION = 'Stalled';

/**
 * kstatus' other abnormal-true condition: `True` while the operator is still working on the resource or retrying a
 * failure that may pass on its own (kstatus `InProgress`). Absent once the resource is Ready. Written like
 * {@link STALLED_CONDITION}.
 */
export const RECONCILING_CONDITION = 'Reconciling';

/** The apiserver's limit for `metav1.Condition.message` (characters). */
export const MAX_CONDITION_MESSAGE_LENGTH = 32_768;

const REASON_PATTERN = /^[A-Za-z][A-Za-z0-9]*$/;

/** True when `value` follows the CamelCase convention of {@link ReasonValue} (at most 1024 characters). */
export function isReasonValue(value: string): boolean {
  return value.length <= 1024 && REASON_PATTERN.test(value);
}

/** Formats a wall-clock time as `metav1.Time` does: RFC 3339, UTC, whole seconds. */
export function rfc3339(time: Date): string {
  return time.toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * Returns `conditions` with `next` set, as `meta.SetStatusCondition`: a new type is appended with
 * `lastTransitionTime = now`; an existing one keeps its position and its `lastTransitionTime` when `status` did
 * not change (only reason, message and observedGeneration are replaced), and gets `now` when it did. Returns the
 * same array when nothing changed, so callers can compare by identity. Pure; never mutates its input. The
 * message is cut to {@link MAX_CONDITION_MESSAGE_LENGTH}. Throws `RangeError` when `type` or `reason` is not
 * CamelCase (a programming error, not a runtime condition).
 */
export function setCondition(conditions: readonly Condition[] | undefined, next: ConditionUpdate, now: Date): readonly Condition[] {
  if (!isReasonValue(next.type)) throw new RangeError(`condition type must be CamelCase, got ${JSON.stringify(next.type)}`);
  if (!isReasonValue(next.reason)) throw new RangeError(`condition reason must be CamelCase, got ${JSON.stringify(next.reason)}`);
  const list = conditions ?? [];
  const index = list.findIndex((c) => c.type === next.type);
  const current = index < 0 ? undefined : list[index];
  const updated: Condition = {
    type: next.type,
    status: next.status,
    reason: next.reason,
    message: next.message.length > MAX_CONDITION_MESSAGE_LENGTH ? next.message.slice(0, MAX_CONDITION_MESSAGE_LENGTH) : next.message,
    lastTransitionTime: current?.status === next.status ? current.lastTransitionTime : rfc3339(now),
    ...(next.observedGeneration !== undefined && { observedGeneration: next.observedGeneration }),
  };
  if (current === undefined) return [...list, updated];
  if (conditionEqual(current, updated)) return list;
  return list.map((c, i) => (i === index ? updated : c));
}

/** Returns `conditions` without the condition of `type` (the same array when there was none). Pure. */
export function removeCondition(conditions: readonly Condition[] | undefined, type: string): readonly Condition[] {
  const list = conditions ?? [];
  return list.some((c) => c.type === type) ? list.filter((c) => c.type !== type) : list;
}

/** The condition of `type`, or `undefined`. */
export function getCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** True when the condition of `type` exists and its status is `True`. */
export function isTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'True';
}

/** True when the condition of `type` exists and its status is `False` (a missing condition is neither). */
export function isFalse(conditions: readonly Condition[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'False';
}

/**
 * True when both lists hold the same conditions, every field equal (including `lastTransitionTime` and
 * `observedGeneration`), in any order. `undefined` equals the empty list.
 */
export function conditionsEqual(a: readonly Condition[] | undefined, b: readonly Condition[] | undefined): boolean {
  const left = a ?? [];
  const right = b ?? [];
  if (left.length !== right.length) return false;
  return containsAll(left, right) && containsAll(right, left);
}

function containsAll(outer: readonly Condition[], inner: readonly Condition[]): boolean {
  return inner.every((c) => outer.some((o) => conditionEqual(c, o)));
}

function conditionEqual(a: Condition, b: Condition): boolean {
  return (
    a.type === b.type &&
    a.status === b.status &&
    a.reason === b.reason &&
    a.message === b.message &&
    a.lastTransitionTime === b.lastTransitionTime &&
    a.observedGeneration === b.observedGeneration
  );
}
