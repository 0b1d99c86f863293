import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRestoreFetch } from './restore-command.ts';
import type { RestoreCommandPaths } from './restore-command.ts';
import { parseTerminationMessage, RESTORE_PLAN_FILE } from './restore-plan.ts';

const RDB = Buffer.from('REDIS0011 a snapshot');
const SHA = createHash('sha256').update(RDB).digest('hex');

let root = '';
let paths: RestoreCommandPaths;
const lines: string[] = [];
const log = (line: string): void => {
  lines.push(line);
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'restore-command-'));
  paths = { planDir: join(root, 'plan'), dataDir: join(root, 'data'), sourceDir: join(root, 'source'), startDir: join(root, 'start'), terminationLog: join(root, 'termination-log') };
  await Promise.all([mkdir(paths.planDir), mkdir(paths.dataDir), mkdir(paths.startDir), mkdir(join(paths.sourceDir, 'backups'), { recursive: true })]);
  await writeFile(join(paths.sourceDir, 'backups', 'cache.rdb'), RDB);
  lines.length = 0;
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function plan(sha256: string, replicas?: string[]): Promise<void> {
  await writeFile(join(paths.planDir, RESTORE_PLAN_FILE), JSON.stringify({ location: 'pvc://backups/backups/cache.rdb', sha256, pod: 'cache-0', replicas, file: { path: 'backups/cache.rdb' } }));
}

describe('runRestoreFetch', () => {
  it('does nothing without a plan (the restore is done, or there is none)', async () => {
    expect(await runRestoreFetch({ POD_NAME: 'cache-0' }, paths, log)).toBe(0);
    expect(await readdir(paths.dataDir)).toEqual([]);
  });

  it('only the members the plan names restore; the others start empty and replicate', async () => {
    await plan(SHA);
    expect(await runRestoreFetch({ POD_NAME: 'cache-1' }, paths, log)).toBe(0);
    expect(await readdir(paths.dataDir)).toEqual([]);
    expect(await runRestoreFetch({ POD_NAME: 'cache-0' }, paths, log)).toBe(0);
    expect((await readFile(join(paths.dataDir, 'dump.rdb'))).equals(RDB)).toBe(true);
    expect(await readdir(paths.startDir)).toEqual([]);
  });

  it('a replica the plan names restores too and first starts as a replica of no reachable primary', async () => {
    await plan(SHA, ['cache-1', 'cache-2']);
    expect(await runRestoreFetch({ POD_NAME: 'cache-2' }, paths, log)).toBe(0);
    expect((await readFile(join(paths.dataDir, 'dump.rdb'))).equals(RDB)).toBe(true);
    expect(await readFile(join(paths.startDir, 'replicaof'), 'utf8')).toBe('127.0.0.1 1\n');
  });

  it('removes a start file of an earlier run once there is no plan: a later start is an ordinary one', async () => {
    await writeFile(join(paths.startDir, 'replicaof'), '127.0.0.1 1\n');
    expect(await runRestoreFetch({ POD_NAME: 'cache-1' }, paths, log)).toBe(0);
    expect(await readdir(paths.startDir)).toEqual([]);
    expect(await readdir(paths.dataDir)).toEqual([]);
  });

  it('a replica with a mismatching digest fails like the primary and leaves no start file', async () => {
    await plan('0'.repeat(64), ['cache-1']);
    expect(await runRestoreFetch({ POD_NAME: 'cache-1' }, paths, log)).toBe(1);
    expect(parseTerminationMessage(await readFile(paths.terminationLog, 'utf8'))).toMatchObject({ reason: 'RestoreVerificationFailed' });
    expect(await readdir(paths.startDir)).toEqual([]);
    expect(await readdir(paths.dataDir)).toEqual([]);
  });

  it('a digest mismatch exits 1 with RestoreVerificationFailed in the termination message and no data', async () => {
    await plan('0'.repeat(64));
    expect(await runRestoreFetch({ POD_NAME: 'cache-0' }, paths, log)).toBe(1);
    expect(parseTerminationMessage(await readFile(paths.terminationLog, 'utf8'))).toMatchObject({ reason: 'RestoreVerificationFailed' });
    expect(await readdir(paths.dataDir)).toEqual([]);
  });

  it('a missing file is RestoreSourceUnavailable; a broken plan RestorePlanInvalid', async () => {
    await writeFile(join(paths.planDir, RESTORE_PLAN_FILE), JSON.stringify({ location: 'pvc://b/x', sha256: SHA, pod: 'cache-0', file: { path: 'absent.rdb' } }));
    expect(await runRestoreFetch({ POD_NAME: 'cache-0' }, paths, log)).toBe(1);
    expect(parseTerminationMessage(await readFile(paths.terminationLog, 'utf8'))).toMatchObject({ reason: 'RestoreSourceUnavailable' });
    await writeFile(join(paths.planDir, RESTORE_PLAN_FILE), '{"location":1}');
    expect(await runRestoreFetch({ POD_NAME: 'cache-0' }, paths, log)).toBe(1);
    expect(parseTerminationMessage(await readFile(paths.terminationLog, 'utf8'))).toMatchObject({ reason: 'RestorePlanInvalid' });
  });

  it('never logs the S3 secret', async () => {
    await writeFile(
      join(paths.planDir, RESTORE_PLAN_FILE),
      JSON.stringify({ location: 's3://b/k', sha256: SHA, pod: 'cache-0', s3: { endpoint: 'http://127.0.0.1:1', bucket: 'bkt', key: 'k', region: 'us-east-1', forcePathStyle: true } }),
    );
    const env = { POD_NAME: 'cache-0', RESTORE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', RESTORE_S3_SECRET_ACCESS_KEY: 'super-secret-value-42' };
    expect(await runRestoreFetch(env, paths, log)).toBe(1);
    const message = await readFile(paths.terminationLog, 'utf8');
    expect(parseTerminationMessage(message)).toMatchObject({ reason: 'RestoreSourceUnavailable' });
    expect(`${message}${lines.join('\n')}`).not.toContain('super-secret-value-42');
  });
});
