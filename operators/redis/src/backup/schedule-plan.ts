/**
 * What a backup schedule does now: which slot, if any, gets a backup, and when to look again. Pure.
 *
 * Only the most recent slot at or before now is ever taken (as a CronJob with a starting deadline: slots missed
 * while the operator was down, the schedule was suspended or a backup was still running collapse into one), and only
 * when it is newer than every slot already taken. "Taken" is read from the schedule's own RedisBackups, which
 * survive a crash, and from `status.backup.lastScheduleTime`, which survives their deletion by hand; either alone
 * only ever suppresses a backup, never adds one. A slot whose name is held by a RedisBackup the schedule did not
 * create is skipped, reported, never overwritten.
 */
import type { CronSchedule } from '@domain-operators/reconcile';
import { slotName } from './scheduled-name.ts';

/** Who holds a RedisBackup name: this schedule, someone else, or nobody. */
export type NameHolder = 'schedule' | 'other' | undefined;

/** Everything {@link planSlot} decides from. */
export interface SlotPlanInput {
  readonly schedule: CronSchedule;
  readonly now: Date;
  /** The RedisReplication's creation: no slot before it counts. */
  readonly notBefore: Date | undefined;
  readonly suspended: boolean;
  /** The newest slot already taken (see the module comment), if any. */
  readonly lastTaken: Date | undefined;
  /** The schedule's own backups still Pending or Running, by name. */
  readonly active: readonly string[];
  /** Who holds a RedisBackup name in the replication's namespace. */
  readonly holder: (name: string) => NameHolder;
  readonly replication: string;
}

/** The decision: the slot to back up now (with its RedisBackup's name), why none is, and the next slot. */
export interface SlotPlan {
  readonly create?: { readonly slot: Date; readonly name: string };
  /** Why the due slot gets no backup (suspended, waiting, name taken); absent when there is nothing to say. */
  readonly message?: string;
  /** The next slot, when the schedule runs (absent while suspended). */
  readonly next?: Date;
}

/** See the module comment. */
export function planSlot(input: SlotPlanInput): SlotPlan {
  if (input.suspended) return { message: 'suspended: no new backups are taken (retention still runs)' };
  const next = input.schedule.next(input.now);
  const withNext = next === undefined ? {} : { next };
  const slot = input.schedule.latest(input.now, input.notBefore);
  if (slot === undefined || (input.lastTaken !== undefined && slot.getTime() <= input.lastTaken.getTime())) return withNext;
  const name = slotName(input.replication, slot);
  const holder = input.holder(name);
  if (holder === 'schedule') return withNext;
  if (holder === 'other') return { ...withNext, message: `the slot of ${slot.toISOString()} is skipped: RedisBackup ${name} exists and was not created by this schedule` };
  if (input.active.length > 0) return { ...withNext, message: `the slot of ${slot.toISOString()} waits for ${input.active.join(', ')} to finish` };
  return { ...withNext, create: { slot, name } };
}
