/**
 * What an `OpenSearchSnapshotPolicy` does next, decided from the policy's own snapshots as OpenSearch lists them (never
 * from its status alone, so a crash between a snapshot's start and the status write cannot lead to a second one),
 * and its retention. Pure.
 *
 * - A snapshot in progress: wait for it (poll), start nothing and delete nothing (OpenSearch may hold a delete behind
 *   a running snapshot).
 * - A schedule slot is owed when it is the latest slot at or before now (at or after the policy's creation) and none
 *   of the policy's snapshots was started at or after it: so however many slots passed while the operator was down,
 *   one snapshot is taken. A snapshot's time is the UTC stamp in its name, the operator's own clock when it chose
 *   the name, so OpenSearch's clock cannot make a slot look uncovered. The last attempt the status records (a start
 *   OpenSearch refused, or a snapshot since deleted) covers its slot too: a refused slot is not retried before the
 *   next one.
 * - A `snapshot-now` token other than the one recorded is owed a snapshot unless one of the listed snapshots carries
 *   it in its metadata (started before a crash, the token not yet recorded): then the token is only recorded.
 * - One snapshot pays for both when both are owed.
 * - Retention, when nothing is in progress or started: of the policy's successful snapshots (state SUCCESS), the
 *   newest `maxCount` are kept; those older than `maxAge` go, except the newest `minCount`. A FAILED, PARTIAL or
 *   INCOMPATIBLE snapshot is never counted as one of the kept; it is deleted once a newer successful snapshot exists
 *   (a PARTIAL one holds only some shards, and the newer complete one supersedes it) or once it is older than
 *   `maxAge`. Without `retention` nothing is deleted. Retention reads only snapshots named as the policy's
 *   ({@link isPolicySnapshot}: not another policy's whose name extends this one) AND carrying the policy in their
 *   metadata, as every snapshot it takes does: a snapshot made by hand is never selected, even one named like the
 *   policy's. Slots and waits read names alone, so such a look-alike can only make the policy take fewer snapshots,
 *   never a second one.
 */
import { createHash } from 'node:crypto';
import type { CronSchedule } from '@domain-operators/reconcile';
import type { ObservedSnapshot } from '../opensearch/snapshot-types.ts';
import { isPolicySnapshot, policySnapshotName } from '../opensearch/snapshot-tenancy.ts';

/** The retention of a policy, with `maxAge` in milliseconds. */
export interface Retention {
  readonly maxCount?: number;
  readonly maxAgeMs?: number;
  readonly minCount?: number;
}

/** Everything {@link planPolicy} decides from. */
export interface PolicyInput {
  readonly namespace: string;
  readonly policy: string;
  readonly now: Date;
  readonly schedule: CronSchedule;
  readonly suspend: boolean;
  /** Slots before this instant are not owed (the policy's creation). */
  readonly notBefore?: Date;
  /** The policy's own snapshots as listed (any order); others are ignored. */
  readonly snapshots: readonly ObservedSnapshot[];
  /** The name of the last snapshot the status records (it may have been refused, or deleted since). */
  readonly recordedName?: string;
  /** The `snapshot-now` annotation's value, if any. */
  readonly manualToken?: string;
  /** `status.lastManualToken`. */
  readonly lastManualToken?: string;
  /** Absent: nothing is deleted. */
  readonly retention?: Retention;
}

/** Why a snapshot is taken: the slot it covers, the token it answers, or both. */
export interface SnapshotToTake {
  readonly name: string;
  readonly slot?: Date;
  readonly token?: string;
}

/** What to do now. */
export type PolicyAction =
  | { readonly kind: 'wait'; readonly inProgress: ObservedSnapshot }
  | { readonly kind: 'take'; readonly snapshot: SnapshotToTake }
  | { readonly kind: 'prune'; readonly victims: readonly ObservedSnapshot[] };

/** {@link planPolicy}'s answer. */
export interface PolicyPlan {
  readonly action: PolicyAction;
  /** The token a listed snapshot already answers: record it, take nothing for it. */
  readonly tokenTaken?: string;
  /** The first slot after now; absent while suspended. */
  readonly next?: Date;
  /** The snapshots named as the policy's, newest first (by the stamp in their names): what slots and waits read. */
  readonly own: readonly ObservedSnapshot[];
  /** Of those, the ones whose metadata names the policy (every one it took): what retention, counts and Ready read. */
  readonly owned: readonly ObservedSnapshot[];
}

/** Metadata keys a policy's snapshots carry (`GET _snapshot` lists them back). */
export const SNAPSHOT_METADATA = {
  /** `<namespace>/<policy>`. */
  policy: 'policy',
  /** The schedule slot the snapshot covers (ISO 8601), when it was owed one. */
  slot: 'slot',
  /** {@link tokenKey} of the `snapshot-now` token it answers, when it answers one. */
  token: 'snapshotNowToken',
} as const;

/** The token as stored in a snapshot's metadata: itself up to 128 characters, else `sha256:<hex>` (metadata is limited to 1 KiB). Pure. */
export function tokenKey(token: string): string {
  return token.length <= 128 ? token : `sha256:${createHash('sha256').update(token).digest('hex')}`;
}

/** The UTC instant in a policy snapshot's name (`…-yyyymmddhhmmss`), or `undefined` for any other name. Pure. */
export function snapshotStamp(name: string, namespace: string, policy: string): number | undefined {
  if (!isPolicySnapshot(name, namespace, policy)) return undefined;
  const digits = name.slice(-14);
  const part = (from: number, to: number): number => Number(digits.slice(from, to));
  const at = Date.UTC(part(0, 4), part(4, 6) - 1, part(6, 8), part(8, 10), part(10, 12), part(12, 14));
  return Number.isNaN(at) ? undefined : at;
}

/** Whether a snapshot's state is a finished failure: `FAILED`, `PARTIAL` or `INCOMPATIBLE`. Pure. */
export function isFailedState(state: string): boolean {
  return state === 'FAILED' || state === 'PARTIAL' || state === 'INCOMPATIBLE';
}

/** Decides the next action of a policy; see the module comment. Pure. */
export function planPolicy(input: PolicyInput): PolicyPlan {
  const { namespace, policy, now } = input;
  const stampOf = (snapshot: ObservedSnapshot): number => snapshotStamp(snapshot.name, namespace, policy) ?? 0;
  const own = input.snapshots.filter((snapshot) => isPolicySnapshot(snapshot.name, namespace, policy)).sort((a, b) => stampOf(b) - stampOf(a) || b.name.localeCompare(a.name));
  const token = input.manualToken === undefined || input.manualToken === '' ? undefined : input.manualToken;
  const tokenPending = token !== undefined && token !== input.lastManualToken;
  const tokenTaken = tokenPending && own.some((snapshot) => snapshot.metadata?.[SNAPSHOT_METADATA.token] === tokenKey(token)) ? token : undefined;
  const next = input.suspend ? undefined : input.schedule.next(now);
  const owned = own.filter((snapshot) => snapshot.metadata?.[SNAPSHOT_METADATA.policy] === `${namespace}/${policy}`);
  const base = { own, owned, ...(tokenTaken === undefined ? {} : { tokenTaken }), ...(next === undefined ? {} : { next }) };

  const inProgress = own.find((snapshot) => snapshot.state === 'IN_PROGRESS');
  if (inProgress !== undefined) return { ...base, action: { kind: 'wait', inProgress } };

  const slot = input.suspend ? undefined : input.schedule.latest(now, input.notBefore);
  const recorded = input.recordedName === undefined ? undefined : snapshotStamp(input.recordedName, namespace, policy);
  const latestTaken = Math.max(own[0] === undefined ? Number.NEGATIVE_INFINITY : stampOf(own[0]), recorded ?? Number.NEGATIVE_INFINITY);
  const slotOwed = slot !== undefined && latestTaken < slot.getTime();
  const tokenOwed = tokenPending && tokenTaken === undefined;
  if (slotOwed || tokenOwed) {
    // A name of its own even when another one was taken in this very second.
    const at = Math.max(Math.floor(now.getTime() / 1_000) * 1_000, Number.isFinite(latestTaken) ? latestTaken + 1_000 : 0);
    const snapshot: SnapshotToTake = {
      name: policySnapshotName(namespace, policy, new Date(at)),
      ...(slotOwed ? { slot } : {}),
      ...(tokenOwed ? { token } : {}),
    };
    return { ...base, action: { kind: 'take', snapshot } };
  }
  return { ...base, action: { kind: 'prune', victims: input.retention === undefined ? [] : retentionVictims(owned, input.retention, now, stampOf) } };
}

/**
 * The snapshots retention deletes, oldest first, from `own` (newest first, none in progress): see the module comment.
 * `stampOf` gives each snapshot's time. Pure.
 */
export function retentionVictims(own: readonly ObservedSnapshot[], retention: Retention, now: Date, stampOf: (snapshot: ObservedSnapshot) => number): ObservedSnapshot[] {
  const oldEnough = (snapshot: ObservedSnapshot): boolean => retention.maxAgeMs !== undefined && now.getTime() - stampOf(snapshot) > retention.maxAgeMs;
  const victims: ObservedSnapshot[] = [];
  let successes = 0;
  for (const snapshot of own) {
    if (snapshot.state === 'IN_PROGRESS') continue;
    if (snapshot.state !== 'SUCCESS') {
      if (successes > 0 || oldEnough(snapshot)) victims.push(snapshot);
      continue;
    }
    successes++;
    const beyondCount = retention.maxCount !== undefined && successes > retention.maxCount;
    const expired = oldEnough(snapshot) && successes > (retention.minCount ?? 0);
    if (beyondCount || expired) victims.push(snapshot);
  }
  return victims.reverse();
}

/**
 * The next time a kept snapshot passes `maxAge` (when retention may have work without a new snapshot), or `undefined`.
 * Snapshots already past it and kept by `minCount` do not count. Pure.
 */
export function nextExpiry(
  own: readonly ObservedSnapshot[],
  victims: readonly ObservedSnapshot[],
  retention: Retention | undefined,
  now: Date,
  stampOf: (snapshot: ObservedSnapshot) => number,
): Date | undefined {
  const maxAgeMs = retention?.maxAgeMs;
  if (maxAgeMs === undefined) return undefined;
  const gone = new Set(victims.map((snapshot) => snapshot.name));
  const expiries = own.filter((snapshot) => !gone.has(snapshot.name) && snapshot.state !== 'IN_PROGRESS').map((snapshot) => stampOf(snapshot) + maxAgeMs + 1_000).filter((at) => at > now.getTime());
  return expiries.length === 0 ? undefined : new Date(Math.min(...expiries));
}

/** Parses a retention age (`90m`, `12h`, `7d`, `2w`) into milliseconds; `undefined` when it is not one. Pure. */
export function parseRetentionAge(text: string): number | undefined {
  const match = /^([1-9][0-9]*)(m|h|d|w)$/.exec(text);
  if (match === null) return undefined;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[2] as 'm' | 'h' | 'd' | 'w'];
  const ms = Number(match[1]) * unit;
  return Number.isSafeInteger(ms) ? ms : undefined;
}
