/**
 * `RedisReplication.spec.backup` and `status.backup`: a backup schedule that creates `RedisBackup` objects owned by
 * the RedisReplication (as a CronJob creates its Jobs), one per slot, and prunes its own by retention.
 */
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { deletionPolicy } from '@domain-operators/reconcile';
import { BackupDestinationSchema, RedisBackupSpec } from './redisbackup.ts';

/** A retention age: a whole number of minutes, hours, days or weeks, e.g. `7d`. */
export const RETENTION_AGE_PATTERN = '^[1-9][0-9]{0,5}(m|h|d|w)$';

/** `spec.backup.retention`: which of the schedule's own backups are deleted. */
export const BackupRetentionSchema = Type.Object(
  {
    maxCount: Type.Optional(
      Type.Integer({ description: "Keep at most this many of the schedule's Succeeded backups (and as many Failed ones); the oldest go first.", minimum: 1, maximum: 10_000 }),
    ),
    maxAge: Type.Optional(
      Type.String({ description: "Delete the schedule's backups whose slot is older than this, e.g. 7d, 12h, 90m (m, h, d, w); the newest Succeeded one is always kept.", pattern: RETENTION_AGE_PATTERN }),
    ),
  },
  {
    description:
      'Which of this schedule’s own RedisBackups are deleted: never a hand-made one, never a Pending or Running one, never the newest one. ' +
      'Without retention none is deleted. What happens to the stored object follows deletionPolicy.',
    'x-kubernetes-validations': [{ rule: 'has(self.maxCount) || has(self.maxAge)', message: 'retention needs maxCount or maxAge' }],
  },
);

/** `spec.backup`: the schedule. */
export const BackupScheduleSchema = Type.Object(
  {
    schedule: Type.String({
      description: 'When to back up, as a five-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 2 * * *".',
      minLength: 9,
      maxLength: 100,
      'x-kubernetes-validations': [{ rule: "self.matches('^\\\\s*\\\\S+(\\\\s+\\\\S+){4}\\\\s*$')", message: 'schedule must have five fields: minute hour day-of-month month day-of-week' }],
    }),
    timeZone: Type.Optional(Type.String({ description: 'The IANA time zone the schedule is read in, e.g. Europe/Berlin. Default UTC.', default: 'UTC', minLength: 1, maxLength: 64 })),
    destination: BackupDestinationSchema,
    source: RedisBackupSpec.properties.source,
    deletionPolicy: deletionPolicy('Retain'),
    retention: Type.Optional(BackupRetentionSchema),
    suspend: Type.Optional(
      Type.Boolean({ description: 'Take no new backups while true (retention still runs); on resuming, the most recent slot missed is taken at once.', default: false }),
    ),
  },
  {
    description:
      'Scheduled backups: each slot creates one RedisBackup named <replication>-<UTC yyyymmddhhmm>, owned by this RedisReplication (deleted with it, ' +
      'its stored object kept unless deletionPolicy is Delete). A slot missed (operator down, a backup still running) is taken once when possible: ' +
      'only the most recent one.',
    'x-kubernetes-validations': [
      {
        rule: "!has(self.destination.volume) || !has(self.deletionPolicy) || self.deletionPolicy != 'Delete'",
        message: 'deletionPolicy Delete is not supported for a volume destination: the file stays in the claim',
      },
    ],
  },
);

/** `status.backup`: what the schedule last did; a report, never read back to decide (the owned RedisBackups are the record). */
export const BackupScheduleStatusSchema = Type.Object(
  {
    lastScheduleTime: Type.Optional(Type.String({ description: 'The slot of the newest RedisBackup this schedule created.', format: 'date-time' })),
    lastBackup: Type.Optional(Type.String({ description: 'The name of that RedisBackup.' })),
    lastSuccessfulTime: Type.Optional(Type.String({ description: 'The slot of the newest of its RedisBackups that Succeeded.', format: 'date-time' })),
    nextScheduleTime: Type.Optional(Type.String({ description: 'The next slot (absent while suspended or invalid).', format: 'date-time' })),
    active: Type.Optional(Type.Integer({ description: 'How many of its RedisBackups are Pending or Running.', minimum: 0 })),
    retained: Type.Optional(Type.Integer({ description: 'How many of its RedisBackups exist.', minimum: 0 })),
    message: Type.Optional(Type.String({ description: 'Why no backup is taken: the schedule is invalid, suspended, or waits for an active backup.' })),
  },
  { description: 'What spec.backup last did.' },
);

/** `spec.backup`. */
export type BackupSchedule = Static<typeof BackupScheduleSchema>;
/** `status.backup`. */
export type BackupScheduleStatus = Static<typeof BackupScheduleStatusSchema>;
