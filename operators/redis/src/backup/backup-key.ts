/**
 * Where a backup is stored: every backup gets its own object key (or file), derived from the replication, the UTC
 * second it started and the RedisBackup's uid, so no backup ever overwrites another, not even two started in the
 * same second. Pure.
 */

/** What a backup's key is derived from. */
export interface BackupKeyInput {
  /** The destination's prefix (`s3.prefix` or the volume's `path`); leading and trailing slashes are ignored. */
  readonly prefix: string | undefined;
  readonly namespace: string;
  readonly replication: string;
  readonly startedAt: Date;
  /** The RedisBackup's `metadata.uid`; its first 8 characters go into the key. */
  readonly uid: string;
}

/** `yyyymmddhhmmss` of an instant in UTC. */
function stamp(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** `<prefix>/<namespace>/<replication>/<UTC yyyymmddhhmmss>-<uid prefix>.rdb` (no prefix: from `<namespace>`). */
export function backupKey(input: BackupKeyInput): string {
  const prefix = (input.prefix ?? '').replace(/^\/+|\/+$/g, '');
  const uid = input.uid.replace(/-/g, '').slice(0, 8);
  if (uid.length < 8) throw new Error(`a backup key needs the RedisBackup's uid, got ${JSON.stringify(input.uid)}`);
  const name = `${input.namespace}/${input.replication}/${stamp(input.startedAt)}-${uid}.rdb`;
  return prefix === '' ? name : `${prefix}/${name}`;
}
