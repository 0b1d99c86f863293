// What a parallel restore relies on (ADR 0024, addendum), on real redis-server processes: members started from the
// same snapshot (streamed from a replica, as a RedisBackup takes it), one as the primary and one as a replica of an
// address where no Redis listens (RESTORE_PLACEHOLDER_PRIMARY, as the start script does for a restored replica),
// join by a partial resynchronisation of 0 bytes once the replica is pointed at the primary with the operator's own
// REPLICAOF; a member started from it as a primary instead needs a full one. Both hold every key.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTORE_PLACEHOLDER_PRIMARY } from '../agent/restore-plan.ts';
import { aclBootstrapLines, replicationAuthLines } from './bootstrap.ts';
import type { BootstrapUsers } from './bootstrap.ts';
import { IoredisMemberClient } from './client.ts';
import { appConnection, hostOctets, LocalRedis, randomUsers } from './local-redis.test-support.ts';
import { openRdbStream } from './rdb-stream.ts';
import type { MemberAddress } from './topology.ts';

const KEYS = 1_000;
let users: BootstrapUsers;
let source: LocalRedis[] = [];
let dir = '';
const children: ChildProcess[] = [];

/** A redis-server on `rdb` (a copy), configured as the operator's members are, with `args` after its config file. */
async function startFrom(rdb: string, name: string, octet: number, args: readonly string[]): Promise<MemberAddress> {
  const home = join(dir, name);
  await mkdir(home);
  await copyFile(rdb, join(home, 'dump.rdb'));
  const address = { host: `127.0.0.${octet}`, port: 20_000 + Math.floor(Math.random() * 20_000) };
  await writeFile(join(home, 'auth.conf'), `${replicationAuthLines(users.replication).join('\n')}\n`, { mode: 0o600 });
  const conf = [`bind ${address.host}`, `port ${address.port}`, `dir ${home}`, 'save ""', 'appendonly no', 'logfile redis.log', ...aclBootstrapLines(users), `include ${join(home, 'auth.conf')}`];
  await writeFile(join(home, 'redis.conf'), `${conf.join('\n')}\n`, { mode: 0o600 });
  children.push(spawn('redis-server', [join(home, 'redis.conf'), ...args], { cwd: home, stdio: 'ignore' }));
  const client = new IoredisMemberClient({ credentials: users.operator, connectTimeoutMs: 500, commandTimeoutMs: 2_000 });
  for (let attempt = 0; ; attempt++) {
    // PING is refused with LOADING until the RDB is in.
    if (await client.ping(address).then(() => true, () => false)) return address;
    if (attempt > 200) throw new Error(`redis-server ${name} did not load ${rdb}`);
    await sleep(50);
  }
}

async function info(address: MemberAddress, section: string): Promise<Map<string, string>> {
  const redis: Redis = await appConnection(address, users.operator);
  try {
    const text = await redis.info(section);
    return new Map(text.split(/\r?\n/).filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)] as [string, string]));
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  users = randomUsers();
  source = await Promise.all(hostOctets(2).map((octet) => LocalRedis.start(users, octet)));
  const client = new IoredisMemberClient({ credentials: users.operator, connectTimeoutMs: 500, commandTimeoutMs: 2_000 });
  await client.replicaOf(source[1]!.address, source[0]!.address);
  const primary = await appConnection(source[0]!.address, users.operator);
  try {
    const pipelined = primary.pipeline();
    for (let i = 0; i < KEYS; i++) pipelined.set(`k:${i}`, randomBytes(32).toString('hex'));
    await pipelined.exec();
    expect(await primary.call('WAIT', '1', '10000')).toBe(1);
  } finally {
    primary.disconnect();
  }
  dir = await mkdtemp(join(tmpdir(), 'restored-replica-int-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(source.map((s) => s.dispose()));
  await rm(dir, { recursive: true, force: true });
});

describe('members restored from one snapshot', () => {
  it('a replica started as a replica of no one joins the restored primary by a partial resync; one started as a primary needs a full one', async () => {
    const transfer = await openRdbStream({ ...source[1]!.address, ...users.replication });
    const rdb = join(dir, 'backup.rdb');
    await pipeline(transfer.body, createWriteStream(rdb));
    await transfer.summary;
    const [a, b, c] = hostOctets(3);
    const primary = await startFrom(rdb, 'primary', a ?? 30, []);
    const replica = await startFrom(rdb, 'replica', b ?? 31, ['--replicaof', ...RESTORE_PLACEHOLDER_PRIMARY.split(' ')]);
    const asPrimary = await startFrom(rdb, 'as-primary', c ?? 32, []);
    expect((await info(replica, 'replication')).get('role')).toBe('slave');

    const client = new IoredisMemberClient({ credentials: users.operator, connectTimeoutMs: 500, commandTimeoutMs: 2_000 });
    await client.replicaOf(replica, primary);
    await client.replicaOf(asPrimary, primary);
    for (let attempt = 0; ; attempt++) {
      const links = await Promise.all([replica, asPrimary].map(async (m) => (await info(m, 'replication')).get('master_link_status')));
      if (links.every((l) => l === 'up')) break;
      if (attempt > 200) throw new Error(`links ${links.join(', ')}`);
      await sleep(50);
    }
    const stats = await info(primary, 'stats');
    expect(stats.get('sync_partial_ok')).toBe('1');
    expect(stats.get('sync_full')).toBe('1');
    for (const member of [primary, replica, asPrimary]) expect((await info(member, 'keyspace')).get('db0')).toMatch(new RegExp(`^keys=${KEYS},`));
  });
});
