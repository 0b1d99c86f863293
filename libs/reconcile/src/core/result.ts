/**
 * What a reconcile asks of the loop when it returns normally. Use the named constructors of {@link Result}.
 * A thrown error means "retry with backoff"; a thrown `TerminalError` means "record it and wait for a change".
 */
export type Result =
  | { readonly kind: 'done' }
  | { readonly kind: 'requeueAfter'; readonly delayMs: number; readonly driftCheck?: true };

/** Named constructors for {@link Result}. */
export const Result = {
  /** The object is as desired; forget its backoff and wait for the next change. */
  done(): Result {
    return DONE;
  },
  /**
   * Reconcile again after `delayMs` even if nothing changes (polling an external system, a drift check).
   * The key's backoff is forgotten first. Throws on a negative or non-finite delay.
   */
  requeueAfter(delayMs: number): Result {
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new RangeError(`requeueAfter needs a delay ≥ 0 ms, got ${delayMs}`);
    return { kind: 'requeueAfter', delayMs };
  },
  /**
   * {@link Result.requeueAfter} for a periodic drift check of an object that is as desired: the same to the loop,
   * but the reconcile it schedules is logged and counted as a `DriftCheck` rather than a `Requeue`.
   */
  checkDriftAfter(delayMs: number): Result {
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new RangeError(`checkDriftAfter needs a delay ≥ 0 ms, got ${delayMs}`);
    return { kind: 'requeueAfter', delayMs, driftCheck: true };
  },
} as const;

const DONE: Result = Object.freeze({ kind: 'done' });
