/**
 * When to look again at something OpenSearch runs in the background (a snapshot, a restore): a tenth of its age, so
 * it is reported at most about 10% of its duration after it ends (polls 10% apart: about 25 reads to get from 100 ms
 * to 1 s of age, each a cheap GET), and a long one is not polled more than every `maxMs`.
 */

/** The bounds of {@link youngPollDelay}. */
export interface PollBounds {
  /** The shortest delay, for one just started. */
  readonly firstMs: number;
  /** The longest delay, for one running a while (and one whose age is unknown). */
  readonly maxMs: number;
}

/** A tenth of `ageMs`, rounded, within `firstMs` and `maxMs`; `maxMs` when the age is not a number. Pure. */
export function youngPollDelay(ageMs: number, bounds: PollBounds): number {
  if (Number.isNaN(ageMs)) return bounds.maxMs;
  return Math.min(bounds.maxMs, Math.max(bounds.firstMs, Math.round(ageMs / 10)));
}
