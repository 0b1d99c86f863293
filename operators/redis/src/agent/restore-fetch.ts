/**
 * The restoring member's first step, before redis-server starts: the RDB streamed to `<dir>/dump.rdb.partial`
 * while its SHA-256 is computed, renamed to `dump.rdb` (the file redis-server loads at start) only when the digest is
 * the expected one. A mismatch deletes the partial file. Never overwrites data already in the directory.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RESTORE_FAILURE_REASONS } from './restore-plan.ts';
import type { RestoreFailure } from './restore-plan.ts';

/** The file redis-server loads on start (`dbfilename`, Redis' default; the operator does not let spec.config move `dir`). */
export const RDB_FILE = 'dump.rdb';
/** Where the download goes until it is verified. */
export const PARTIAL_FILE = `${RDB_FILE}.partial`;
/** The AOF directory (`appenddirname` default): with it, redis-server would load the AOF and ignore the RDB. */
export const AOF_DIR = 'appendonlydir';

/** A restore that cannot go on; its `failure` becomes the termination message. */
export class RestoreError extends Error {
  override readonly name = 'RestoreError';
  /** What the operator reports. */
  readonly failure: RestoreFailure;

  /** Wraps `failure`; `cause` is kept for the log only. */
  constructor(failure: RestoreFailure, options?: { cause?: unknown }) {
    super(failure.message, options);
    this.failure = failure;
  }
}

/** What {@link fetchRestore} did. */
export interface RestoreOutcome {
  /** `restored`: the verified file is in place; `alreadyRestored`: it was (a rerun of the init container). */
  readonly outcome: 'restored' | 'alreadyRestored';
  readonly sizeBytes: number;
}

/** Inputs of {@link fetchRestore}. */
export interface FetchRestoreInput {
  /** The data directory (`/data`). */
  readonly dataDir: string;
  /** Lower-case hex SHA-256 the RDB must have. */
  readonly sha256: string;
  /** What status will call the source, for messages. */
  readonly location: string;
  /** Opens the source once; rejects with a {@link RestoreError} (`RestoreSourceUnavailable`) when it cannot. */
  readonly open: () => Promise<Readable>;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function digestOf(path: string): Promise<{ sha256: string; sizeBytes: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path)) {
    const buf = chunk as Buffer;
    hash.update(buf);
    sizeBytes += buf.length;
  }
  return { sha256: hash.digest('hex'), sizeBytes };
}

async function fsync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Downloads, verifies and puts the RDB in place. Idempotent: a rerun finds the verified `dump.rdb` and leaves it. A
 * directory with another `dump.rdb` or an AOF is refused (`RestoreTargetNotEmpty`); a digest mismatch
 * (`RestoreVerificationFailed`) removes the partial file and leaves no `dump.rdb`. Rejects only with {@link RestoreError}
 * for those and for the source, or with the file system's own error.
 */
export async function fetchRestore(input: FetchRestoreInput): Promise<RestoreOutcome> {
  const target = join(input.dataDir, RDB_FILE);
  const partial = join(input.dataDir, PARTIAL_FILE);
  if (await exists(join(input.dataDir, AOF_DIR))) {
    throw new RestoreError({ reason: RESTORE_FAILURE_REASONS.targetNotEmpty, message: `${input.dataDir} already holds an AOF (${AOF_DIR}); a restore never overwrites data` });
  }
  if (await exists(target)) {
    const present = await digestOf(target);
    if (present.sha256 === input.sha256) return { outcome: 'alreadyRestored', sizeBytes: present.sizeBytes };
    throw new RestoreError({ reason: RESTORE_FAILURE_REASONS.targetNotEmpty, message: `${target} already holds other data (SHA-256 ${present.sha256}); a restore never overwrites data` });
  }
  await rm(partial, { force: true });
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      done(null, chunk);
    },
  });
  const source = await input.open();
  try {
    await pipeline(source, hashing, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await rm(partial, { force: true });
    if (err instanceof RestoreError) throw err;
    throw new RestoreError({ reason: RESTORE_FAILURE_REASONS.sourceUnavailable, message: `reading ${input.location} failed after ${sizeBytes} bytes: ${err instanceof Error ? err.message : String(err)}` }, { cause: err });
  }
  const sha256 = hash.digest('hex');
  if (sha256 !== input.sha256) {
    await rm(partial, { force: true });
    throw new RestoreError({
      reason: RESTORE_FAILURE_REASONS.verificationFailed,
      message: `${input.location} has SHA-256 ${sha256} (${sizeBytes} bytes), not the expected ${input.sha256}: the member does not start with it`,
    });
  }
  // Durable before it becomes the file redis-server trusts.
  await fsync(partial);
  await rename(partial, target);
  await fsync(input.dataDir);
  return { outcome: 'restored', sizeBytes };
}
