/**
 * The backup schedule reconciler: `RedisReplication.spec.backup` creates one `RedisBackup` per cron slot, owned by
 * the RedisReplication (ownerReference with `controller: true`, label {@link SCHEDULE_LABEL}, slot annotation
 * {@link SLOT_ANNOTATION}), and deletes the schedule's own backups that its retention no longer keeps. Taking the
 * backup is the RedisBackup controller's job; this one only creates and deletes RedisBackup objects.
 *
 * Crash safety: a slot's RedisBackup has a name derived from the slot ({@link slotName}), so a create repeated after
 * a crash or on a stale cache is refused with AlreadyExists and a slot never yields two backups. Which slots were
 * taken is read from the schedule's own RedisBackups (and `status.backup.lastScheduleTime`, see {@link planSlot}),
 * not from memory, so a restart finds the most recent missed slot and takes it once.
 *
 * Status: this controller writes only `status.backup` of the RedisReplication, as a fields-only merge patch (no
 * conditions, never `observedGeneration`), so it never overwrites what the RedisReplication reconciler writes and
 * never holds back its `observedGeneration` (ADR 0025). The status is a report; the owned RedisBackups are the record.
 *
 * Suspend: no backup is created; retention still runs (it only removes what the rules no longer keep). An invalid
 * schedule or zone is reported in `status.backup.message` and a Warning Event, and retention still runs too.
 */
import { apiVersionOf, controllerReference, isAlreadyExists, isControlledBy, isNotFound, parseSchedule, Reasons, Result } from '@domain-operators/reconcile';
import type { Client, ReconcileContext, Reconciler, Recorder, Store } from '@domain-operators/reconcile';
import { redisBackups, redisReplications } from '../api/v1alpha1/index.ts';
import type { RedisBackup, RedisReplication } from '../api/v1alpha1/index.ts';
import type { BackupSchedule, BackupScheduleStatus } from '../api/v1alpha1/backup-schedule.ts';
import { planSlot } from '../backup/schedule-plan.ts';
import type { NameHolder } from '../backup/schedule-plan.ts';
import { parseRetentionAge, retentionVictims } from '../backup/schedule-retention.ts';
import type { ScheduledBackup } from '../backup/schedule-retention.ts';
import { SCHEDULE_LABEL, scheduleLabelValue, SLOT_ANNOTATION, slotName } from '../backup/scheduled-name.ts';
import { writeReplicationStatus } from './replication-status-writer.ts';

/** The index of the RedisBackups store this reconciler reads: by owner UID (`byOwnerUid`). */
export const BACKUPS_BY_OWNER = 'backupsByOwner';

/** Reasons of the schedule's Events (on the RedisReplication), besides the runtime's `InvalidSpec`. */
export const SCHEDULE_REASONS = {
  /** Normal: a slot's RedisBackup was created. */
  scheduled: 'BackupScheduled',
  /** Normal: retention deleted one of the schedule's RedisBackups. */
  pruned: 'BackupPruned',
} as const;

/** What {@link BackupScheduleReconciler} works through. */
export interface BackupScheduleDeps {
  readonly client: Client;
  /** Every RedisBackup, indexed by {@link BACKUPS_BY_OWNER}; may be stale (a create it does not show yet is refused by name). */
  readonly backups: Store<RedisBackup>;
  readonly recorder: Recorder;
  /** Wall-clock time; default `new Date()`. */
  readonly now?: () => Date;
}

/** Options of {@link BackupScheduleReconciler}. */
export interface BackupScheduleOptions {
  /** How long after a slot the reconcile wakes for it (timers and clocks differ by a little); default 500 ms. */
  readonly slotMarginMs?: number;
}

/** The phases of a RedisBackup that no longer change. */
const FINISHED = new Set(['Succeeded', 'Failed']);

/** See the module comment. Keeps nothing in memory but parsed schedules. */
export class BackupScheduleReconciler implements Reconciler<RedisReplication> {
  readonly #deps: BackupScheduleDeps;
  readonly #slotMarginMs: number;
  readonly #parsed = new Map<string, ReturnType<typeof parseSchedule>>();

  /** Does no work. */
  constructor(deps: BackupScheduleDeps, options: BackupScheduleOptions = {}) {
    this.#deps = deps;
    this.#slotMarginMs = options.slotMarginMs ?? 500;
  }

  async reconcile(rr: RedisReplication, ctx: ReconcileContext): Promise<Result> {
    if (rr.metadata.deletionTimestamp !== undefined) return Result.done();
    const spec = rr.spec.backup;
    if (spec === undefined) {
      // No schedule (or it was removed): its backups stay, owned by the replication; only the report goes.
      await this.#report(rr, undefined, ctx.signal);
      return Result.done();
    }
    const now = this.#deps.now?.() ?? new Date();
    const own = this.#own(rr);
    const live = own.filter((b) => !b.terminating);
    const pruned = await this.#prune(rr, spec, live, now, ctx.signal);
    const kept = live.filter((b) => !pruned.has(b.name));
    const parsed = this.#parse(spec);
    if (!parsed.ok) {
      await this.#report(rr, { ...summary(rr, own, kept), message: parsed.message }, ctx.signal, { reason: Reasons.invalidSpec, note: parsed.message });
      return Result.done();
    }
    const lastTaken = newest([...own.map((b) => b.slot), parseTime(rr.status?.backup?.lastScheduleTime)]);
    const active = kept.filter((b) => b.phase === undefined || !FINISHED.has(b.phase)).map((b) => b.name);
    const plan = planSlot({
      schedule: parsed.schedule,
      now,
      notBefore: rr.metadata.creationTimestamp === undefined ? undefined : new Date(rr.metadata.creationTimestamp),
      suspended: spec.suspend === true,
      lastTaken,
      active,
      holder: (name) => this.#holder(rr, name),
      replication: rr.metadata.name ?? '',
    });
    let created: ScheduledBackup | undefined;
    if (plan.create !== undefined) created = await this.#create(rr, spec, plan.create, ctx.signal);
    const status = summary(rr, created === undefined ? own : [...own, created], created === undefined ? kept : [...kept, created]);
    await this.#report(rr, { ...status, ...(plan.next === undefined ? {} : { nextScheduleTime: plan.next.toISOString() }), ...(plan.message === undefined ? {} : { message: plan.message }) }, ctx.signal);
    return plan.next === undefined ? Result.done() : Result.requeueAfter(Math.max(0, plan.next.getTime() - now.getTime()) + this.#slotMarginMs);
  }

  /** The schedule's own RedisBackups: controlled by `rr`, labelled by its schedule, with a readable slot. */
  #own(rr: RedisReplication): OwnBackup[] {
    const uid = rr.metadata.uid ?? '';
    const label = scheduleLabelValue(rr.metadata.name ?? '');
    return this.#deps.backups.byIndex(BACKUPS_BY_OWNER, uid).flatMap((b) => {
      const slot = parseTime(b.metadata.annotations?.[SLOT_ANNOTATION]);
      if (!isControlledBy(b, uid) || b.metadata.labels?.[SCHEDULE_LABEL] !== label || slot === undefined) return [];
      return [{ name: b.metadata.name ?? '', uid: b.metadata.uid ?? '', slot, phase: b.status?.phase, terminating: b.metadata.deletionTimestamp !== undefined }];
    });
  }

  #holder(rr: RedisReplication, name: string): NameHolder {
    const existing = this.#deps.backups.get(`${rr.metadata.namespace ?? ''}/${name}`);
    if (existing === undefined) return undefined;
    return isControlledBy(existing, rr.metadata.uid ?? '') && existing.metadata.labels?.[SCHEDULE_LABEL] !== undefined ? 'schedule' : 'other';
  }

  /** Deletes what retention no longer keeps (each by UID, so never a namesake created since); resolves with their names. */
  async #prune(rr: RedisReplication, spec: BackupSchedule, live: readonly OwnBackup[], now: Date, signal: AbortSignal): Promise<Set<string>> {
    const rules = { maxCount: spec.retention?.maxCount, maxAgeMs: spec.retention?.maxAge === undefined ? undefined : parseRetentionAge(spec.retention.maxAge) };
    const victims = retentionVictims(live, rules, now);
    for (const victim of victims) {
      try {
        await this.#deps.client.delete(redisBackups.type, { namespace: rr.metadata.namespace, name: victim.name }, { preconditions: { uid: victim.uid }, signal });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      const rule = [rules.maxCount === undefined ? '' : `maxCount ${rules.maxCount}`, spec.retention?.maxAge === undefined ? '' : `maxAge ${spec.retention.maxAge}`].filter((r) => r !== '').join(', ');
      this.#deps.recorder.record(rr, { type: 'Normal', reason: SCHEDULE_REASONS.pruned, action: 'Delete', note: `deleted RedisBackup ${victim.name} (${victim.phase ?? ''}, slot ${victim.slot.toISOString()}) by retention: ${rule}` });
    }
    return new Set(victims.map((v) => v.name));
  }

  /** Creates the slot's RedisBackup; AlreadyExists means it was created before (a stale cache): the slot is taken. */
  async #create(rr: RedisReplication, spec: BackupSchedule, slot: { readonly slot: Date; readonly name: string }, signal: AbortSignal): Promise<OwnBackup | undefined> {
    const backup: RedisBackup = {
      apiVersion: apiVersionOf(redisBackups.type),
      kind: redisBackups.kind,
      metadata: {
        namespace: rr.metadata.namespace ?? '',
        name: slot.name,
        labels: { [SCHEDULE_LABEL]: scheduleLabelValue(rr.metadata.name ?? '') },
        annotations: { [SLOT_ANNOTATION]: slot.slot.toISOString() },
        ownerReferences: [controllerReference(redisReplications.type, rr)],
      },
      spec: {
        replicationRef: { name: rr.metadata.name ?? '' },
        source: spec.source ?? 'PreferReplica',
        destination: spec.destination,
        deletionPolicy: spec.deletionPolicy,
      },
    };
    try {
      const made = await this.#deps.client.create(redisBackups.type, backup, { signal });
      this.#deps.recorder.record(rr, { type: 'Normal', reason: SCHEDULE_REASONS.scheduled, action: 'Create', note: `created RedisBackup ${slot.name} for the slot of ${slot.slot.toISOString()}` });
      return { name: slot.name, uid: made.metadata.uid ?? '', slot: slot.slot, phase: undefined, terminating: false };
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      return undefined;
    }
  }

  #parse(spec: BackupSchedule): ReturnType<typeof parseSchedule> {
    const zone = spec.timeZone ?? 'UTC';
    const key = `${zone} ${spec.schedule}`;
    const cached = this.#parsed.get(key);
    if (cached !== undefined) return cached;
    const parsed = parseSchedule(spec.schedule, zone);
    if (this.#parsed.size > 1_024) this.#parsed.clear();
    this.#parsed.set(key, parsed);
    return parsed;
  }

  /**
   * Writes `status.backup` when it differs from what the cached object shows (a merge patch of that one field, with
   * `null` for its keys that go); `undefined` removes the block. Records `warning` as an Event only when it writes,
   * so a standing problem is reported once per change, not once per reconcile.
   */
  async #report(rr: RedisReplication, desired: BackupScheduleStatus | undefined, signal: AbortSignal, warning?: { readonly reason: string; readonly note: string }): Promise<void> {
    const current = rr.status?.backup;
    if (sameStatus(current, desired)) return;
    const value = desired === undefined ? null : { ...Object.fromEntries(Object.keys(current ?? {}).map((k) => [k, null])), ...desired };
    await writeReplicationStatus(this.#deps.client, rr, { fields: { backup: value } }, { now: this.#deps.now?.() ?? new Date(), signal });
    if (warning !== undefined) this.#deps.recorder.record(rr, { type: 'Warning', reason: warning.reason, action: 'Schedule', note: warning.note });
  }
}

/** One of the schedule's own backups, with whether it is being deleted. */
interface OwnBackup extends ScheduledBackup {
  readonly terminating: boolean;
}

/** The report's fields that follow from the schedule's backups: `all` as ever seen, `kept` those that stay. */
function summary(rr: RedisReplication, all: readonly ScheduledBackup[], kept: readonly ScheduledBackup[]): BackupScheduleStatus {
  const previous = rr.status?.backup;
  const last = newest([...all.map((b) => b.slot), parseTime(previous?.lastScheduleTime)]);
  const lastSuccess = newest([...all.filter((b) => b.phase === 'Succeeded').map((b) => b.slot), parseTime(previous?.lastSuccessfulTime)]);
  return {
    ...(last === undefined ? {} : { lastScheduleTime: last.toISOString(), lastBackup: slotName(rr.metadata.name ?? '', last) }),
    ...(lastSuccess === undefined ? {} : { lastSuccessfulTime: lastSuccess.toISOString() }),
    active: kept.filter((b) => b.phase === undefined || !FINISHED.has(b.phase)).length,
    retained: kept.length,
  };
}

function newest(times: readonly (Date | undefined)[]): Date | undefined {
  let best: Date | undefined;
  for (const t of times) if (t !== undefined && (best === undefined || t > best)) best = t;
  return best;
}

function parseTime(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const t = Date.parse(text);
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** Whether two reports say the same (key order and absent keys aside). */
function sameStatus(a: BackupScheduleStatus | undefined, b: BackupScheduleStatus | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof BackupScheduleStatus)[]);
  return [...keys].every((k) => a[k] === b[k]);
}
