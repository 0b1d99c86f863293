/**
 * The `volume-backup` agent: runs in a short-lived Pod that mounts the destination claim, takes the RDB over the
 * network from the member the reconciler chose (as the replication user, password from the environment), writes it
 * into the claim with {@link openPartial} (partial file, fsync, link, never over an existing file) and leaves a
 * {@link VolumeBackupReport} as its termination message for the reconciler to read from the Pod's status.
 */
import { writeFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { BACKUP_REASONS } from '../backup/reasons.ts';
import type { BackupReason } from '../backup/reasons.ts';
import type { RdbSource, RdbTransfer } from '../redis/rdb-stream.ts';
import { VOLUME_BACKUP_ENV, VOLUME_MOUNT_DIR } from './volume-backup-contract.ts';
import type { VolumeBackupReport } from './volume-backup-contract.ts';
import { digestFile, DiskError, exists, FileExistsError, openPartial } from './volume-backup-file.ts';
import type { FileDigest, PartialFile } from './volume-backup-file.ts';

/** What the agent works through. */
export interface VolumeBackupDeps {
  readonly openRdb: (source: RdbSource) => Promise<RdbTransfer>;
  /** Where the claim is mounted; default {@link VOLUME_MOUNT_DIR}. */
  readonly mountDir?: string;
  /** One line of the agent's log (stdout in the Pod). Never given a credential. */
  readonly log: (line: string) => void;
}

/** The agent's failure as it will be reported. */
class AgentFailure extends Error {
  override readonly name = 'AgentFailure';
  readonly reason: BackupReason;

  constructor(reason: BackupReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function required(env: Env, name: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

/** The absolute path of `key` under `mountDir`; throws for a key that would leave it. Pure. */
export function finalPathOf(mountDir: string, key: string): string {
  const path = normalize(join(mountDir, key));
  if (!path.startsWith(`${normalize(mountDir)}/`) || !path.endsWith('.rdb')) throw new Error(`${VOLUME_BACKUP_ENV.key} ${JSON.stringify(key)} is not a .rdb file inside the claim`);
  return path;
}

/**
 * Takes one backup as `env` describes it and resolves with its report (never rejects for a backup's failure: that
 * is a report with a reason; rejects only for a malformed environment, an operator bug).
 */
export async function takeVolumeBackup(env: Env, deps: VolumeBackupDeps): Promise<VolumeBackupReport> {
  const key = required(env, VOLUME_BACKUP_ENV.key);
  const finalPath = finalPathOf(deps.mountDir ?? VOLUME_MOUNT_DIR, key);
  const source: RdbSource = {
    host: required(env, VOLUME_BACKUP_ENV.host),
    port: Number(required(env, VOLUME_BACKUP_ENV.port)),
    username: required(env, VOLUME_BACKUP_ENV.username),
    password: required(env, VOLUME_BACKUP_ENV.password),
  };
  const where = `${source.host}:${source.port}`;
  try {
    if (env[VOLUME_BACKUP_ENV.existing] === 'adopt' && (await exists(finalPath))) {
      const found = await digestFile(finalPath);
      deps.log(`found ${key} complete (${found.sizeBytes} bytes): adopted, no snapshot taken`);
      return { ...found, adopted: true };
    }
    let file: PartialFile;
    try {
      file = await openPartial(finalPath);
    } catch (err) {
      if (err instanceof FileExistsError) throw new AgentFailure(BACKUP_REASONS.backupExists, `${key} already exists in the claim: it is never overwritten`);
      throw new AgentFailure(BACKUP_REASONS.destinationUnavailable, `cannot write ${key} into the claim: ${(err as Error).message}`);
    }
    try {
      const written = await snapshotInto(file, source, deps);
      deps.log(`wrote ${written.sizeBytes} bytes from ${where} to ${key}`);
      try {
        await file.publish();
      } catch (err) {
        if (err instanceof FileExistsError) throw new AgentFailure(BACKUP_REASONS.backupExists, `${key} appeared in the claim while the snapshot was written: it is never overwritten`);
        throw new AgentFailure(BACKUP_REASONS.destinationUnavailable, `cannot publish ${key} in the claim: ${(err as Error).message}`);
      }
      return { sizeBytes: written.sizeBytes, sha256: written.sha256, replicationOffset: written.replicationOffset, adopted: false };
    } finally {
      await file.discard();
    }
  } catch (err) {
    if (err instanceof AgentFailure) return { reason: err.reason, message: err.message };
    return { reason: BACKUP_REASONS.destinationUnavailable, message: `cannot read or write ${key} in the claim: ${(err as Error).message}` };
  }
}

async function snapshotInto(file: PartialFile, source: RdbSource, deps: VolumeBackupDeps): Promise<FileDigest & { replicationOffset: number }> {
  const where = `${source.host}:${source.port}`;
  let transfer: RdbTransfer;
  try {
    transfer = await deps.openRdb(source);
  } catch (err) {
    throw new AgentFailure(BACKUP_REASONS.sourceUnavailable, `cannot reach ${where}: ${(err as Error).message}`);
  }
  let written: FileDigest;
  try {
    written = await file.write(transfer.body);
  } catch (err) {
    transfer.abort(err instanceof Error ? err : new Error(String(err)));
    if (err instanceof DiskError) throw new AgentFailure(BACKUP_REASONS.destinationUnavailable, err.message);
    throw new AgentFailure(BACKUP_REASONS.sourceUnavailable, `the snapshot from ${where} failed: ${(err as Error).message}`);
  }
  const summary = await transfer.summary.catch((err: unknown) => {
    throw new AgentFailure(BACKUP_REASONS.sourceUnavailable, `the snapshot from ${where} failed: ${(err as Error).message}`);
  });
  if (summary.sizeBytes !== written.sizeBytes || summary.sha256 !== written.sha256) {
    throw new AgentFailure(BACKUP_REASONS.destinationUnavailable, `the file holds ${written.sizeBytes} bytes but ${where} sent ${summary.sizeBytes}`);
  }
  return { ...written, replicationOffset: summary.replicationOffset };
}

/**
 * The agent's entry point: {@link takeVolumeBackup}, its report written as the termination message. Resolves with
 * the exit code: 0 when the file is published (or adopted), 1 for a reported failure, 2 for a malformed
 * environment (its message, not JSON, is the termination message).
 */
export async function runVolumeBackup(env: Env, deps: VolumeBackupDeps): Promise<number> {
  const terminationLog = env[VOLUME_BACKUP_ENV.terminationLog] ?? '/dev/termination-log';
  let report: VolumeBackupReport;
  try {
    report = await takeVolumeBackup(env, deps);
  } catch (err) {
    const message = `volume-backup: ${(err as Error).message}`;
    deps.log(message);
    await writeFile(terminationLog, message).catch(() => undefined);
    return 2;
  }
  await writeFile(terminationLog, JSON.stringify(report));
  deps.log(JSON.stringify(report));
  return 'reason' in report ? 1 : 0;
}
