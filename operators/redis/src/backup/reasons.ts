/** The reasons a backup or restore reports, beside the runtime's shared `Reasons`. Written by these names only. */
export const BACKUP_REASONS = {
  /** The destination cannot be reached (connection refused, DNS, timeout, 5xx) or its bucket does not exist. */
  destinationUnavailable: 'DestinationUnavailable',
  /** The destination refused the credentials or the request (S3's AccessDenied, a bad signature, an unknown key). */
  accessDenied: 'AccessDenied',
  /** The member the snapshot is taken from cannot be reached or refused it. */
  sourceUnavailable: 'SourceUnavailable',
  /** An object already exists under the backup's key: it is never overwritten. */
  backupExists: 'BackupExists',
} as const;

/** One of {@link BACKUP_REASONS}. */
export type BackupReason = (typeof BACKUP_REASONS)[keyof typeof BACKUP_REASONS];
