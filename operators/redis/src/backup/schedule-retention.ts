/**
 * Which of a schedule's own backups its retention deletes. Pure: it reads only the list it is given, which the
 * caller has already cut down to the schedule's own backups (controlled by the RedisReplication and labelled by
 * its schedule), so a hand-made RedisBackup is never a candidate.
 *
 * The rules, each protecting a recovery point:
 * - A `Pending` or `Running` backup (or one without a phase yet) is never deleted.
 * - The newest backup of the schedule (any phase) is never deleted: it is the record that its slot was taken.
 * - `maxCount` keeps the newest `maxCount` `Succeeded` backups, and separately the newest `maxCount` `Failed` ones
 *   newer than the newest success (so failures never push good backups out); a `Failed` one older than the newest
 *   success is deleted (the success superseded it).
 * - `maxAge` deletes backups whose slot is older than it, except the newest `Succeeded` one: a schedule whose
 *   backups fail for longer than `maxAge` keeps its last good one.
 */
import type { RedisBackupStatus } from '../api/v1alpha1/index.ts';

/** A backup of the schedule, as retention sees it. */
export interface ScheduledBackup {
  readonly name: string;
  readonly uid: string;
  /** Its slot (from its annotation). */
  readonly slot: Date;
  readonly phase: RedisBackupStatus['phase'];
}

/** `spec.backup.retention`, with `maxAge` in milliseconds. Neither set: nothing is deleted. */
export interface RetentionRules {
  readonly maxCount?: number | undefined;
  readonly maxAgeMs?: number | undefined;
}

/** The backups of `backups` that retention deletes at `now`, oldest first. */
export function retentionVictims(backups: readonly ScheduledBackup[], rules: RetentionRules, now: Date): ScheduledBackup[] {
  if (rules.maxCount === undefined && rules.maxAgeMs === undefined) return [];
  const newestFirst = [...backups].sort((a, b) => b.slot.getTime() - a.slot.getTime());
  const newest = newestFirst[0];
  const succeeded = newestFirst.filter((b) => b.phase === 'Succeeded');
  const newestSuccess = succeeded[0];
  const failedSinceSuccess = newestFirst.filter((b) => b.phase === 'Failed' && (newestSuccess === undefined || b.slot > newestSuccess.slot));
  const victims = newestFirst.filter((b) => {
    if (b === newest || (b.phase !== 'Succeeded' && b.phase !== 'Failed')) return false;
    if (rules.maxAgeMs !== undefined && b !== newestSuccess && now.getTime() - b.slot.getTime() > rules.maxAgeMs) return true;
    if (rules.maxCount === undefined) return false;
    if (b.phase === 'Succeeded') return succeeded.indexOf(b) >= rules.maxCount;
    const index = failedSinceSuccess.indexOf(b);
    return index < 0 || index >= rules.maxCount;
  });
  return victims.reverse();
}

/** A retention age (`90m`, `12h`, `7d`, `2w`) in milliseconds, or `undefined` when it is not one. Pure. */
export function parseRetentionAge(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,5})(m|h|d|w)$/.exec(text);
  if (match === null) return undefined;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[2] as 'm' | 'h' | 'd' | 'w'];
  return Number(match[1]) * unit;
}
