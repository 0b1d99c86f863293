import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readablePayload } from '../backup/payload.ts';
import type { RdbSource, RdbTransfer } from '../redis/rdb-stream.ts';
import { parseReport, VOLUME_BACKUP_ENV } from './volume-backup-contract.ts';
import { finalPathOf, runVolumeBackup, takeVolumeBackup } from './volume-backup.ts';
import type { VolumeBackupDeps } from './volume-backup.ts';
import { openPartial } from './volume-backup-file.ts';

const KEY = 'backups/ns/cache/20261201020304-6f1c2a9e.rdb';
const RDB = Buffer.from('REDIS0011 the snapshot bytes '.repeat(1000));
const SHA = createHash('sha256').update(RDB).digest('hex');
const PASSWORD = 'the-replication-password';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'volume-backup-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    [VOLUME_BACKUP_ENV.host]: '10.244.0.7',
    [VOLUME_BACKUP_ENV.port]: '6379',
    [VOLUME_BACKUP_ENV.username]: 'replication',
    [VOLUME_BACKUP_ENV.password]: PASSWORD,
    [VOLUME_BACKUP_ENV.key]: KEY,
    [VOLUME_BACKUP_ENV.terminationLog]: join(dir, 'termination-log'),
    ...extra,
  };
}

/** An RDB source that sends `bytes` in two chunks, pausing between them so the test can look at the claim. */
function source(bytes: Buffer, options: { fail?: Error; between?: () => Promise<void> } = {}) {
  const opened: RdbSource[] = [];
  const lines: string[] = [];
  const deps: VolumeBackupDeps = {
    mountDir: dir,
    log: (line) => lines.push(line),
    openRdb: (s) => {
      opened.push(s);
      const body = new PassThrough();
      let resolve: (v: Awaited<RdbTransfer['summary']>) => void = () => undefined;
      let reject: (e: Error) => void = () => undefined;
      const summary = new Promise<Awaited<RdbTransfer['summary']>>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      summary.catch(() => undefined);
      void (async () => {
        body.write(bytes.subarray(0, 100));
        await options.between?.();
        if (options.fail !== undefined) {
          reject(options.fail);
          body.destroy(options.fail);
          return;
        }
        body.end(bytes.subarray(100));
        resolve({ sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), replicationId: 'r', replicationOffset: 4242 });
      })();
      return Promise.resolve({ ...readablePayload(body), body, summary, abort: () => undefined });
    },
  };
  return { deps, opened, lines };
}

describe('takeVolumeBackup', () => {
  it('writes a partial file, then publishes it under the key with the digest of its bytes; the final name never holds part of it', async () => {
    const final = join(dir, KEY);
    const seen: { final: boolean; partial: number }[] = [];
    const s = source(RDB, {
      between: async () => {
        await new Promise((r) => setTimeout(r, 20));
        seen.push({ final: await stat(final).then(() => true, () => false), partial: (await stat(`${final}.partial`)).size });
      },
    });
    const report = await takeVolumeBackup(env(), s.deps);
    expect(report).toEqual({ sizeBytes: RDB.length, sha256: SHA, replicationOffset: 4242, adopted: false });
    expect(seen).toEqual([{ final: false, partial: 100 }]);
    expect(await readFile(final)).toEqual(RDB);
    expect(await readdir(join(dir, 'backups/ns/cache'))).toEqual(['20261201020304-6f1c2a9e.rdb']);
    expect((await stat(final)).mode & 0o777).toBe(0o640);
    expect(s.opened).toEqual([{ host: '10.244.0.7', port: 6379, username: 'replication', password: PASSWORD }]);
    expect(s.lines.join('\n')).not.toContain(PASSWORD);
  });

  it('refuses a key that is taken (BackupExists) before asking Redis for anything, and leaves the file as it was', async () => {
    await mkdir(join(dir, 'backups/ns/cache'), { recursive: true });
    await writeFile(join(dir, KEY), 'someone else');
    const s = source(RDB);
    expect(await takeVolumeBackup(env(), s.deps)).toMatchObject({ reason: 'BackupExists' });
    expect(s.opened).toEqual([]);
    expect(await readFile(join(dir, KEY), 'utf8')).toBe('someone else');
  });

  it('refuses with BackupExists when the name is taken while the snapshot is written (link fails with EEXIST), and removes the partial file', async () => {
    const s = source(RDB, {
      between: async () => {
        await writeFile(join(dir, KEY), 'raced in');
      },
    });
    expect(await takeVolumeBackup(env(), s.deps)).toMatchObject({ reason: 'BackupExists' });
    expect(await readFile(join(dir, KEY), 'utf8')).toBe('raced in');
    expect(await readdir(join(dir, 'backups/ns/cache'))).toEqual(['20261201020304-6f1c2a9e.rdb']);
  });

  it('adopts a complete file under its key when told to (a recreated Pod), with the digest read back and no snapshot', async () => {
    await mkdir(join(dir, 'backups/ns/cache'), { recursive: true });
    await writeFile(join(dir, KEY), RDB);
    const s = source(RDB);
    expect(await takeVolumeBackup(env({ [VOLUME_BACKUP_ENV.existing]: 'adopt' }), s.deps)).toEqual({ sizeBytes: RDB.length, sha256: SHA, adopted: true });
    expect(s.opened).toEqual([]);
  });

  it('reports SourceUnavailable when the snapshot breaks off, and leaves neither the final nor the partial file', async () => {
    const s = source(RDB, { fail: new Error('10.244.0.7:6379 closed the connection before the RDB payload ended (100 bytes read)') });
    const report = await takeVolumeBackup(env(), s.deps);
    expect(report).toMatchObject({ reason: 'SourceUnavailable' });
    expect(JSON.stringify(report)).toContain('closed the connection');
    expect(await readdir(join(dir, 'backups/ns/cache'))).toEqual([]);
  });

  it('reports DestinationUnavailable for a claim it cannot write, before asking Redis for anything', async () => {
    // A file where the key's directory must go: mkdir fails (ENOTDIR), for root too (chmod would not stop root).
    await writeFile(join(dir, 'backups'), 'not a directory');
    const s = source(RDB);
    const report = await takeVolumeBackup(env(), s.deps);
    expect(report).toMatchObject({ reason: 'DestinationUnavailable' });
    expect(JSON.stringify(report)).toMatch(/ENOTDIR|EEXIST/);
    expect(s.opened).toEqual([]);
  });

  it('refuses a key that leaves the claim', () => {
    expect(() => finalPathOf('/backup', '../etc/x.rdb')).toThrow(/inside the claim/);
    expect(finalPathOf('/backup', 'a/b.rdb')).toBe('/backup/a/b.rdb');
  });
});

describe('runVolumeBackup', () => {
  it('leaves the report as JSON in the termination log, without the password; exit 0, or 1 for a failure', async () => {
    expect(await runVolumeBackup(env(), source(RDB).deps)).toBe(0);
    const text = await readFile(join(dir, 'termination-log'), 'utf8');
    expect(parseReport(text)).toEqual({ sizeBytes: RDB.length, sha256: SHA, replicationOffset: 4242, adopted: false });
    expect(await runVolumeBackup(env(), source(RDB).deps)).toBe(1);
    expect(parseReport(await readFile(join(dir, 'termination-log'), 'utf8'))).toMatchObject({ reason: 'BackupExists' });
    expect(await readFile(join(dir, 'termination-log'), 'utf8')).not.toContain(PASSWORD);
  });

  it('exits 2 with a plain message for a malformed environment', async () => {
    const e = { ...env(), [VOLUME_BACKUP_ENV.password]: undefined };
    expect(await runVolumeBackup(e, source(RDB).deps)).toBe(2);
    expect(await readFile(join(dir, 'termination-log'), 'utf8')).toContain(`${VOLUME_BACKUP_ENV.password} is not set`);
  });
});

describe('openPartial', () => {
  it('truncates a partial file a killed run left', async () => {
    const final = join(dir, 'x.rdb');
    await writeFile(`${final}.partial`, 'x'.repeat(5000));
    const file = await openPartial(final);
    expect(await file.write(Readable.from([Buffer.from('abc')]))).toEqual({ sizeBytes: 3, sha256: createHash('sha256').update('abc').digest('hex') });
    await file.publish();
    expect(await readFile(final, 'utf8')).toBe('abc');
    expect(await readdir(dir)).toEqual(['x.rdb']);
  });
});

describe('parseReport', () => {
  it('reads reports and nothing else', () => {
    expect(parseReport(JSON.stringify({ sizeBytes: 3, sha256: SHA, adopted: false }))).toEqual({ sizeBytes: 3, sha256: SHA, adopted: false });
    expect(parseReport(JSON.stringify({ reason: 'BackupExists', message: 'm' }))).toEqual({ reason: 'BackupExists', message: 'm' });
    expect(parseReport(JSON.stringify({ reason: 'Whatever', message: 'm' }))).toBeUndefined();
    expect(parseReport(JSON.stringify({ sizeBytes: 3, sha256: 'short' }))).toBeUndefined();
    expect(parseReport('{"sizeBytes": 3, "sha')).toBeUndefined();
    expect(parseReport('')).toBeUndefined();
    expect(parseReport(undefined)).toBeUndefined();
  });
});
