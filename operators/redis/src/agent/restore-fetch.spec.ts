import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AOF_DIR, fetchRestore, RDB_FILE, RestoreError } from './restore-fetch.ts';

const RDB = Buffer.from('REDIS0011 pretend snapshot bytes '.repeat(4096));
const SHA = createHash('sha256').update(RDB).digest('hex');

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'restore-fetch-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function from(bytes: Buffer): () => Promise<Readable> {
  // Several chunks, as a download arrives.
  return () => Promise.resolve(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
}

async function failure(promise: Promise<unknown>): Promise<RestoreError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RestoreError)) throw new Error(`expected a RestoreError, got ${String(err)}`);
  return err;
}

describe('fetchRestore', () => {
  it('puts the verified RDB where redis-server loads it and leaves no partial file', async () => {
    const done = await fetchRestore({ dataDir: dir, sha256: SHA, location: 's3://b/k.rdb', open: from(RDB) });
    expect(done).toEqual({ outcome: 'restored', sizeBytes: RDB.length });
    expect(await readdir(dir)).toEqual([RDB_FILE]);
    expect((await readFile(join(dir, RDB_FILE))).equals(RDB)).toBe(true);
  });

  it('refuses bytes with another digest: the partial file is removed and no dump.rdb exists', async () => {
    const corrupted = Buffer.from(RDB);
    corrupted[500] = (corrupted[500] ?? 0) ^ 0xff;
    const err = await failure(fetchRestore({ dataDir: dir, sha256: SHA, location: 's3://b/k.rdb', open: from(corrupted) }));
    expect(err.failure.reason).toBe('RestoreVerificationFailed');
    expect(err.failure.message).toContain(SHA);
    expect(err.failure.message).toContain(createHash('sha256').update(corrupted).digest('hex'));
    expect(await readdir(dir)).toEqual([]);
  });

  it('a source that breaks mid-stream is RestoreSourceUnavailable and leaves nothing', async () => {
    const broken = (): Promise<Readable> =>
      Promise.resolve(
        Readable.from(
          (async function* () {
            yield RDB.subarray(0, 100);
            await Promise.resolve();
            throw new Error('connection reset');
          })(),
        ),
      );
    const err = await failure(fetchRestore({ dataDir: dir, sha256: SHA, location: 's3://b/k.rdb', open: broken }));
    expect(err.failure).toMatchObject({ reason: 'RestoreSourceUnavailable' });
    expect(err.failure.message).toContain('connection reset');
    expect(await readdir(dir)).toEqual([]);
  });

  it('a rerun that finds the verified file keeps it without reading the source again', async () => {
    await writeFile(join(dir, RDB_FILE), RDB);
    const open = (): Promise<Readable> => Promise.reject(new Error('must not be opened'));
    expect(await fetchRestore({ dataDir: dir, sha256: SHA, location: 's3://b/k.rdb', open })).toEqual({ outcome: 'alreadyRestored', sizeBytes: RDB.length });
  });

  it('never overwrites other data: another dump.rdb or an AOF directory is RestoreTargetNotEmpty', async () => {
    await writeFile(join(dir, RDB_FILE), 'newer data');
    const other = await failure(fetchRestore({ dataDir: dir, sha256: SHA, location: 's3://b/k.rdb', open: from(RDB) }));
    expect(other.failure.reason).toBe('RestoreTargetNotEmpty');
    expect(await readFile(join(dir, RDB_FILE), 'utf8')).toBe('newer data');
    await rm(join(dir, RDB_FILE));
    await mkdir(join(dir, AOF_DIR));
    const aof = await failure(fetchRestore({ dataDir: dir, sha256: SHA, location: 's3://b/k.rdb', open: from(RDB) }));
    expect(aof.failure.reason).toBe('RestoreTargetNotEmpty');
    expect(await readdir(dir)).toEqual([AOF_DIR]);
  });
});
