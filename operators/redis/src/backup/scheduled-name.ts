/**
 * The names a backup schedule gives: each slot's RedisBackup is named from the replication and the slot's UTC
 * minute, so creating it twice (a crash between the create and the status write, a second reconcile on a stale
 * cache) hits the same name and the apiserver refuses the second (AlreadyExists): a slot never yields two backups.
 * Pure.
 */
import { createHash } from 'node:crypto';
import { GROUP } from '../api/v1alpha1/index.ts';

/** Label on every RedisBackup a schedule creates: the replication whose schedule made it ({@link scheduleLabelValue}). */
export const SCHEDULE_LABEL = `${GROUP}/backup-schedule`;
/** Annotation on every RedisBackup a schedule creates: its slot, RFC 3339 in UTC. */
export const SLOT_ANNOTATION = `${GROUP}/scheduled-at`;
/**
 * The longest name a slot's RedisBackup gets: a label value's limit, so whatever a backup names after itself (an
 * agent Pod's label, a Job) still fits.
 */
export const MAX_SLOT_NAME_LENGTH = 63;

const HASH_LENGTH = 8;

/** `yyyymmddhhmm` of an instant in UTC. */
export function slotStamp(slot: Date): string {
  return slot.toISOString().replace(/[-:T]/g, '').slice(0, 12);
}

/**
 * `<replication>-<yyyymmddhhmm>` (the slot in UTC). A replication name too long for {@link MAX_SLOT_NAME_LENGTH}
 * is cut and followed by 8 hex digits of its SHA-256, so two long names that share a beginning still differ.
 * Always a valid object name (a DNS subdomain) when `replication` is one. Deterministic.
 */
export function slotName(replication: string, slot: Date): string {
  return `${fitted(replication, MAX_SLOT_NAME_LENGTH - 13)}-${slotStamp(slot)}`;
}

/** The value of {@link SCHEDULE_LABEL} for `replication`: its name, or cut with a hash as in {@link slotName} beyond 63 characters. */
export function scheduleLabelValue(replication: string): string {
  return fitted(replication, 63);
}

/** `name` when at most `max` characters, else its first characters, `-` and a hash, `max` in all, ending alphanumeric. */
function fitted(name: string, max: number): string {
  if (name.length <= max) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_LENGTH);
  // A cut that ends in '-' or '.' would leave '--'/'.-' (an invalid DNS label) before the hash.
  const head = name.slice(0, max - HASH_LENGTH - 1).replace(/[-.]+$/, '');
  return `${head}-${hash}`;
}
