/**
 * What the RedisBackup reconciler and the `volume-backup` agent agree on: the command, the environment the agent
 * reads, where it finds the claim, and the JSON it leaves as its container's termination message. Pure data.
 */
import { BACKUP_REASONS } from '../backup/reasons.ts';
import type { BackupReason } from '../backup/reasons.ts';

/** `node /app/main.js volume-backup` runs the agent instead of the operator. */
export const VOLUME_BACKUP_COMMAND = 'volume-backup';
/** The agent container's name in its Pod. */
export const VOLUME_BACKUP_CONTAINER = 'backup';
/** Where the agent Pod mounts the destination claim. */
export const VOLUME_MOUNT_DIR = '/backup';

/** The environment variables the agent reads. The password comes from a `secretKeyRef`, never from arguments. */
export const VOLUME_BACKUP_ENV = {
  /** The member's address (a Pod IP) and port. */
  host: 'BACKUP_SOURCE_HOST',
  port: 'BACKUP_SOURCE_PORT',
  /** The replication user and its password. */
  username: 'BACKUP_SOURCE_USERNAME',
  password: 'BACKUP_SOURCE_PASSWORD',
  /** The key inside the claim (`<path>/<namespace>/<replication>/<stamp>-<uid>.rdb`), relative to {@link VOLUME_MOUNT_DIR}. */
  key: 'BACKUP_KEY',
  /** `refuse` (default): a file under the key fails with `BackupExists`; `adopt`: it is this backup's own, digested and reported. */
  existing: 'BACKUP_EXISTING',
  /** Where the termination message goes (default `/dev/termination-log`; tests point it elsewhere). */
  terminationLog: 'BACKUP_TERMINATION_LOG',
} as const;

/** What the agent reports on success. */
export interface VolumeBackupSuccess {
  readonly sizeBytes: number;
  /** Lower-case hex SHA-256 of the published file's bytes. */
  readonly sha256: string;
  /** Absent when an existing file was adopted (no snapshot was taken by this run). */
  readonly replicationOffset?: number;
  /** True when the file was found complete under the key (a Pod recreated after a crash), not written by this run. */
  readonly adopted: boolean;
}

/** What the agent reports on failure. `message` never carries a credential. */
export interface VolumeBackupFailure {
  readonly reason: BackupReason;
  readonly message: string;
}

/** The agent's termination message: one JSON object. */
export type VolumeBackupReport = VolumeBackupSuccess | VolumeBackupFailure;

const REASONS: ReadonlySet<string> = new Set(Object.values(BACKUP_REASONS));

/** True for a failure report. Pure. */
export function isFailure(report: VolumeBackupReport): report is VolumeBackupFailure {
  return 'reason' in report;
}

/**
 * Parses a termination message; `undefined` for anything that is not a report this agent writes (an empty message,
 * a truncated one, a reason outside {@link BACKUP_REASONS}). Pure.
 */
export function parseReport(text: string | undefined): VolumeBackupReport | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o['reason'] === 'string') {
    return REASONS.has(o['reason']) && typeof o['message'] === 'string' ? { reason: o['reason'] as BackupReason, message: o['message'] } : undefined;
  }
  const sizeBytes = o['sizeBytes'];
  const sha256 = o['sha256'];
  if (typeof sizeBytes !== 'number' || !Number.isInteger(sizeBytes) || sizeBytes < 0 || typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return undefined;
  const offset = o['replicationOffset'];
  return {
    sizeBytes,
    sha256,
    adopted: o['adopted'] === true,
    ...(typeof offset === 'number' && Number.isInteger(offset) ? { replicationOffset: offset } : {}),
  };
}
