// The members' probe against a real redis-server (the host's, the same 7.0.15 as the node's Redis image) started the
// way a member is (the bootstrap ACL users, `default` with a password), kept in LOADING for seconds by `key-load-delay` on a small RDB: the
// probe fails for as long as an authenticated PING gets LOADING, although an anonymous PING gets NOAUTH then (what
// the probe before it took for an answer), and succeeds once the data is loaded; a wrong password never succeeds.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@domain-operators/e2e-harness';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aclBootstrapLines } from './bootstrap.ts';
import type { BootstrapUsers } from './bootstrap.ts';
import { randomUsers } from './local-redis.test-support.ts';
import { memberProbeCommand } from './probe.ts';

const KEYS = 2_000;
/** Microseconds the server sleeps per key while loading: about 4 s of LOADING for {@link KEYS}. */
const KEY_LOAD_DELAY_US = 2_000;

let dir = '';
let port = 0;
let users: BootstrapUsers;
let server: ChildProcess | undefined;

function start(extra: readonly string[]): ChildProcess {
  const child = spawn('redis-server', [join(dir, 'redis.conf'), ...extra], { cwd: dir, stdio: 'ignore' });
  server = child;
  return child;
}

async function stop(): Promise<void> {
  const child = server;
  server = undefined;
  if (child?.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** One answer to PING, as `user` or anonymously; a refusal's message instead of a rejection. */
async function ping(user?: { username: string; password: string }): Promise<string> {
  const redis = new Redis({ host: '127.0.0.1', port, ...(user ?? {}), lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableReadyCheck: false, connectTimeout: 2_000 });
  let failure: Error | undefined;
  redis.on('error', (err: Error) => {
    failure = err;
  });
  try {
    await redis.connect();
    return String(await redis.call('PING'));
  } catch (err) {
    return (failure ?? (err as Error)).message;
  } finally {
    redis.disconnect();
  }
}

/** The probe's exit code, run by `sh` with the host's redis-cli, the password read from `passwordFile`. */
async function probe(passwordFile: string): Promise<number> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', memberProbeCommand(users.replication.username, passwordFile, port)], { timeout: 5_000 }, (err) => {
      resolve(err === null ? 0 : typeof err.code === 'number' ? err.code : -1);
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'redis-probe-int-'));
  port = await freePort();
  // As on a member: `default` has the RedisReplication's password (given, or generated when none is).
  users = { ...randomUsers(), defaultPassword: randomBytes(12).toString('hex') };
  await writeFile(join(dir, 'replication-password'), users.replication.password, { mode: 0o600 });
  await writeFile(join(dir, 'wrong-password'), 'not-the-password', { mode: 0o600 });
  await writeFile(join(dir, 'redis.conf'), `${['bind 127.0.0.1', `port ${port}`, `dir ${dir}`, 'save ""', 'appendonly no', 'logfile redis.log', ...aclBootstrapLines(users)].join('\n')}\n`, { mode: 0o600 });
  // The dataset, saved to dump.rdb, which the next start loads.
  start([]);
  const deadline = Date.now() + 10_000;
  while ((await ping(users.operator)) !== 'PONG') {
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await sleep(50);
  }
  const redis = new Redis({ host: '127.0.0.1', port, ...users.operator, lazyConnect: true });
  await redis.connect();
  const pipeline = redis.pipeline();
  for (let i = 0; i < KEYS; i++) pipeline.set(`k${i}`, `v${i}`);
  await pipeline.exec();
  await redis.call('SAVE');
  redis.disconnect();
  await stop();
}, 30_000);

afterAll(async () => {
  await stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the members’ probe', () => {
  it('fails while the member loads its data, though an anonymous PING gets NOAUTH then, and succeeds once it is loaded', async () => {
    start(['--key-load-delay', String(KEY_LOAD_DELAY_US), '--loading-process-events-interval-bytes', '1024']);
    const passwordFile = join(dir, 'replication-password');
    let sawLoading = false;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [asReplication, anonymous, code] = [await ping(users.replication), await ping(), await probe(passwordFile)];
      if (asReplication.startsWith('LOADING')) {
        sawLoading = true;
        expect(anonymous).toMatch(/^NOAUTH/);
        // The probe asked after this PING: it may only have succeeded if the load ended in between.
        if (code === 0) expect(await ping(users.replication)).toBe('PONG');
      } else if (asReplication === 'PONG' && sawLoading) {
        expect(code).toBe(0);
        break;
      }
      if (Date.now() > deadline) throw new Error(`no LOADING then PONG within 30 s (last answer: ${asReplication})`);
      await sleep(100);
    }
    expect(sawLoading).toBe(true);
    expect(await probe(passwordFile)).toBe(0);
    expect(await probe(join(dir, 'wrong-password'))).not.toBe(0);
  }, 60_000);
});
