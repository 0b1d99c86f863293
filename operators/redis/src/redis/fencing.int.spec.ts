// Write fencing as the operator applies it (fencingConfig through the real client's CONFIG SET) on real
// redis-server processes: a primary with its replica linked takes writes; once no replica is linked, every member
// that is a primary refuses them with NOREPLICAS, including one just promoted.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IoredisMemberClient } from './client.ts';
import { fencingConfig } from './config-file.ts';
import { appConnection, hostOctets, LocalRedis, randomUsers } from './local-redis.test-support.ts';
import type { MemberAddress } from './topology.ts';

let client: IoredisMemberClient;
let servers: LocalRedis[] = [];
let operatorUser: { username: string; password: string };

function address(i: number): MemberAddress {
  const server = servers[i];
  if (server === undefined) throw new Error(`no server ${i}`);
  return server.address;
}

/** The reply of `SET key 1` on `member` as the operator's user, or the refusal's message. */
async function set(member: MemberAddress, key: string): Promise<string> {
  let redis: Redis | undefined;
  try {
    redis = await appConnection(member, operatorUser);
    return await redis.set(key, '1');
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    redis?.disconnect();
  }
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within 10 s`);
}

beforeAll(async () => {
  const users = randomUsers();
  operatorUser = users.operator;
  client = new IoredisMemberClient({ credentials: users.operator, connectTimeoutMs: 500, commandTimeoutMs: 1_000 });
  servers = await Promise.all(hostOctets(2).map((octet) => LocalRedis.start(users, octet)));
  for (const i of [0, 1]) await client.configSet(address(i), fencingConfig({ minReplicasToWrite: 1, maxLagSeconds: 1 }));
  await client.replicaOf(address(1), address(0));
  await until(async () => (await client.info(address(1))).replication.role === 'replica' && (await set(address(0), 'linked')) === 'OK', 'the replica linked');
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.dispose()));
});

describe('write fencing on real members', () => {
  it('is set on every member by CONFIG SET', async () => {
    for (const i of [0, 1]) expect(await client.configGet(address(i), 'min-replicas-*')).toEqual({ 'min-replicas-to-write': '1', 'min-replicas-max-lag': '1' });
  });

  it('a primary whose only replica left refuses writes with NOREPLICAS, and so does that replica once promoted alone', async () => {
    expect(await set(address(0), 'before')).toBe('OK');
    await client.replicaOfNoOne(address(1));
    await until(async () => (await set(address(0), 'after')).startsWith('NOREPLICAS'), 'the old primary refuses writes');
    expect(await set(address(1), 'promoted')).toMatch(/^NOREPLICAS/);
    await client.replicaOf(address(0), address(1));
    await until(async () => (await set(address(1), 'relinked')) === 'OK', 'the new primary takes writes once a replica linked');
  });
});
