// Snapshots over the network from real redis-server processes (a primary and its replica, as the operator's
// members run): the bytes streamed from the replica are an RDB that a fresh redis-server loads with exactly the keys
// written with WAIT 1, with the size, SHA-256 and replication offset reported; refusals carry Redis's message.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapUsers } from './bootstrap.ts';
import { IoredisMemberClient } from './client.ts';
import { appConnection, hostOctets, LocalRedis, randomUsers } from './local-redis.test-support.ts';
import { openRdbStream } from './rdb-stream.ts';

let users: BootstrapUsers;
let servers: LocalRedis[] = [];
let primary: Redis;
let dir = '';
const KEYS = 2_000;

beforeAll(async () => {
  users = randomUsers();
  servers = await Promise.all(hostOctets(2).map((octet) => LocalRedis.start(users, octet)));
  const client = new IoredisMemberClient({ credentials: users.operator, connectTimeoutMs: 500, commandTimeoutMs: 2_000 });
  await client.replicaOf(servers[1]!.address, servers[0]!.address);
  primary = await appConnection(servers[0]!.address, users.operator);
  const pipelined = primary.pipeline();
  for (let i = 0; i < KEYS; i++) pipelined.set(`k:${i}`, `v${i}-${randomBytes(16).toString('hex')}`);
  await pipelined.exec();
  // Every write is on the replica before the snapshot is taken from it.
  expect(await primary.call('WAIT', '1', '10000')).toBe(1);
  dir = await mkdtemp(join(tmpdir(), 'rdb-int-'));
});

afterAll(async () => {
  primary.disconnect();
  await Promise.all(servers.map((s) => s.dispose()));
  await rm(dir, { recursive: true, force: true });
});

/** Starts a plain redis-server on `file` and returns its key count and one value, then stops it. */
async function loadInto(file: string, key: string): Promise<{ keys: number; value: string | null }> {
  const [octet] = hostOctets(1);
  const host = `127.0.0.${octet ?? 30}`;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn('redis-server', ['--bind', host, '--port', String(port), '--dir', dir, '--dbfilename', file.split('/').pop() ?? '', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const redis = await appConnection({ host, port });
        try {
          return { keys: await redis.dbsize(), value: await redis.get(key) };
        } finally {
          redis.disconnect();
        }
      } catch (err) {
        if (attempt > 100) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    child.kill('SIGKILL');
  }
}

describe('RDB snapshots over the network', () => {
  it('streams a replica’s snapshot that a fresh server loads with every key', async () => {
    const transfer = await openRdbStream({ ...servers[1]!.address, ...users.replication });
    const file = join(dir, 'replica.rdb');
    await pipeline(transfer.body, createWriteStream(file));
    const summary = await transfer.summary;
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('REDIS');
    expect(summary.sizeBytes).toBe(bytes.length);
    expect(summary.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const info = await primary.info('replication');
    const masterOffset = Number(/master_repl_offset:(\d+)/.exec(info)?.[1] ?? '-1');
    expect(summary.replicationOffset).toBeGreaterThan(0);
    expect(summary.replicationOffset).toBeLessThanOrEqual(masterOffset);
    expect(summary.replicationId).toMatch(/^[0-9a-f]{40}$/);
    const expected = await primary.get('k:1234');
    expect(await loadInto(file, 'k:1234')).toEqual({ keys: KEYS, value: expected });
  });

  it("refuses a wrong password with Redis's message and never the password", async () => {
    const transfer = await openRdbStream({ ...servers[1]!.address, username: users.replication.username, password: 'not-the-password' });
    const failure = await transfer.summary.then(() => undefined, (err: unknown) => err as Error);
    expect(failure?.message).toMatch(/WRONGPASS/);
    expect(failure?.message).not.toContain('not-the-password');
  });

  it('refuses a user without PSYNC', async () => {
    const replica = await appConnection(servers[1]!.address, users.operator);
    await replica.call('ACL', 'SETUSER', 'reader', 'on', '>reader-password', '~*', '+get', '+replconf');
    replica.disconnect();
    const transfer = await openRdbStream({ ...servers[1]!.address, username: 'reader', password: 'reader-password' });
    const failure = await transfer.summary.then(() => undefined, (err: unknown) => err as Error);
    expect(failure?.message).toMatch(/NOPERM.*psync/);
  });
});
