// The real client against real redis-server processes started with the bootstrap ACL lines: ACL users,
// password rotation, a restricted `default`, live config, and the failure reasons.
import { setTimeout as sleep } from 'node:timers/promises';
import { isTerminalError } from '@domain-operators/reconcile';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aclSetUserArgs, passwordHash, passwordMatches, validateAclRules } from './acl.ts';
import type { BootstrapUsers } from './bootstrap.ts';
import { IoredisMemberClient } from './client.ts';
import { isRedisMemberError } from './errors.ts';
import { appConnection, hostOctets, LocalRedis, randomUsers } from './local-redis.test-support.ts';
import type { MemberAddress } from './topology.ts';

let users: BootstrapUsers;
let client: IoredisMemberClient;
let servers: LocalRedis[] = [];
const connections: Redis[] = [];
const RULES = ['+@read +@write +publish -flushall', '~app:*', '&app-events'];

function primary(): MemberAddress {
  return servers[0]!.address;
}

function replica(): MemberAddress {
  return servers[1]!.address;
}

async function connect(address: MemberAddress, user?: { username: string; password: string }): Promise<Redis> {
  const connection = await appConnection(address, user);
  connections.push(connection);
  return connection;
}

async function applyUser(username: string, password: string, rules: readonly string[]): Promise<void> {
  for (const server of servers) await client.aclSetUser(server.address, aclSetUserArgs({ username, password, rules }));
}

beforeAll(async () => {
  users = randomUsers();
  client = new IoredisMemberClient({ credentials: users.operator, connectTimeoutMs: 500, commandTimeoutMs: 1_000 });
  servers = await Promise.all(hostOctets(2).map((octet) => LocalRedis.start(users, octet)));
  await client.replicaOf(replica(), primary());
  for (let i = 0; i < 100; i++) {
    const info = await client.info(replica());
    if (info.replication.role === 'replica' && info.replication.linkUp) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  for (const c of connections) c.disconnect();
  await Promise.all(servers.map((s) => s.dispose()));
});

describe('ACL users on real members', () => {
  it('lets a user run its allowed commands on its keys and refuses the rest', async () => {
    expect(validateAclRules(RULES)).toEqual([]);
    await applyUser('app', 'first-password', RULES);
    const app = await connect(primary(), { username: 'app', password: 'first-password' });
    expect(await app.set('app:1', 'v')).toBe('OK');
    expect(await app.get('app:1')).toBe('v');
    await expect(app.set('other:1', 'v')).rejects.toThrow(/NOPERM/);
    await expect(app.call('FLUSHALL')).rejects.toThrow(/NOPERM/);
    await expect(app.call('CONFIG', 'GET', 'maxmemory')).rejects.toThrow(/NOPERM/);
    expect(await app.publish('app-events', 'hi')).toBe(0);
    await expect(app.publish('other-events', 'hi')).rejects.toThrow(/NOPERM/);
    // The same user exists on the replica, which serves its reads.
    const onReplica = await connect(replica(), { username: 'app', password: 'first-password' });
    expect(await client.wait(primary(), 1, 2_000)).toBe(1);
    expect(await onReplica.get('app:1')).toBe('v');
  });

  it('is declarative: applying other rules replaces the old ones instead of adding to them', async () => {
    await applyUser('app', 'first-password', ['+get', '~app:*']);
    const app = await connect(primary(), { username: 'app', password: 'first-password' });
    expect(await app.get('app:1')).toBe('v');
    await expect(app.set('app:2', 'v')).rejects.toThrow(/NOPERM/);
    const info = await client.aclGetUser(primary(), 'app');
    expect(info).toMatchObject({ flags: expect.arrayContaining(['on']) as unknown, commands: '-@all +get', keys: '~app:*' });
    await applyUser('app', 'first-password', RULES);
  });

  it('rotates the password: the old one is refused, the new one works, and the hash tells which is set', async () => {
    const before = await client.aclGetUser(primary(), 'app');
    expect(before && passwordMatches(before, 'first-password')).toBe(true);
    expect(before && passwordMatches(before, 'second-password')).toBe(false);
    await applyUser('app', 'second-password', RULES);
    const after = await client.aclGetUser(primary(), 'app');
    expect(after?.passwords).toEqual([passwordHash('second-password')]);
    await expect(appConnection(primary(), { username: 'app', password: 'first-password' })).rejects.toThrow(/WRONGPASS/);
    const app = await connect(primary(), { username: 'app', password: 'second-password' });
    expect(await app.get('app:1')).toBe('v');
  });

  it('refuses a rule only Redis knows is wrong as a TerminalError with its message, leaving the user as it was', async () => {
    expect(validateAclRules(['+nosuchcommand'])).toEqual([]);
    const err = await client.aclSetUser(primary(), aclSetUserArgs({ username: 'app', password: 'secret-in-args', rules: ['+nosuchcommand'] })).catch((e: unknown) => e);
    expect(isTerminalError(err)).toBe(true);
    expect(err).toMatchObject({ reason: 'InvalidAclRule' });
    expect((err as Error).message).toMatch(/'\+nosuchcommand': Unknown command or category name/);
    expect((err as Error).message).not.toContain('secret-in-args');
    expect((await client.aclGetUser(primary(), 'app'))?.passwords).toEqual([passwordHash('second-password')]);
  });

  it('deletes a user idempotently', async () => {
    await applyUser('temp', 'temp-password', ['+ping']);
    expect(await client.aclDelUser(primary(), 'temp')).toBe(true);
    expect(await client.aclDelUser(primary(), 'temp')).toBe(false);
    expect(await client.aclGetUser(primary(), 'temp')).toBeUndefined();
  });

  it('restricting default does not lock out the operator, nor replication', async () => {
    const before = await connect(primary());
    expect(await before.call('PING')).toBe('PONG');
    for (const server of servers) await client.aclSetUser(server.address, ['default', 'off']);
    await expect(appConnection(primary())).rejects.toThrow(/NOAUTH|WRONGPASS/);
    await client.ping(primary());
    const info = await client.info(replica());
    expect(info.replication).toMatchObject({ role: 'replica', linkUp: true });
    const app = await connect(primary(), { username: 'app', password: 'second-password' });
    await app.set('app:after-default-off', 'yes');
    expect(await client.wait(primary(), 1, 2_000)).toBe(1);
    const onReplica = await connect(replica(), { username: 'app', password: 'second-password' });
    expect(await onReplica.get('app:after-default-off')).toBe('yes');
  });

  it('the replication user can replicate but cannot read data', async () => {
    const replication = await connect(primary(), users.replication);
    await expect(replication.get('app:1')).rejects.toThrow(/NOPERM/);
    expect(await replication.call('PING')).toBe('PONG');
  });
});

describe('live configuration', () => {
  it('sets and reads a dynamic parameter', async () => {
    await client.configSet(primary(), { 'maxmemory-policy': 'allkeys-lru', 'maxmemory-samples': '7' });
    expect(await client.configGet(primary(), 'maxmemory-*')).toMatchObject({ 'maxmemory-policy': 'allkeys-lru', 'maxmemory-samples': '7' });
  });

  it('refuses an invalid value as a TerminalError with the reason InvalidConfig', async () => {
    const err = await client.configSet(primary(), { 'maxmemory-policy': 'sometimes' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'TerminalError', reason: 'InvalidConfig' });
    expect((err as Error).message).toMatch(/must be one of the following/);
  });
});

describe('write fence (CLIENT PAUSE WRITE)', () => {
  /** A command's outcome as a value: its reply, or its error's message (so that a rejection is never unhandled). */
  function settled<T>(command: Promise<T>): Promise<T | string> {
    return command.then(
      (v) => v,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
  }

  /** What a settled command gave, or 'pending' when it has not finished within `ms`. */
  async function within<T>(command: Promise<T | string>, ms: number): Promise<T | string> {
    return Promise.race([command, sleep(ms, 'pending')]);
  }

  it('holds writes while reads, INFO and WAIT go on, until unpauseWrites', async () => {
    const app = await connect(primary(), users.operator);
    const observer = await connect(primary(), users.operator);
    await client.pauseWrites(primary(), 5_000);
    const write = settled(app.set('fence:held', 'v'));
    expect(await within(write, 300)).toBe('pending');
    expect(await observer.get('fence:held')).toBeNull();
    // The operator's own WAIT still counts acknowledgements (its GETACKs move the offset; no client write does).
    expect(await client.wait(primary(), 1, 2_000)).toBe(1);
    expect(await observer.get('fence:held')).toBeNull();
    await client.unpauseWrites(primary());
    expect(await within(write, 2_000)).toBe('OK');
    await client.unpauseWrites(primary()); // idempotent
  });

  it('a write held across a switchover fails with READONLY instead of landing on the demoted primary', async () => {
    const app = await connect(primary(), users.operator);
    await client.pauseWrites(primary(), 5_000);
    const write = settled(app.set('fence:across', 'v'));
    try {
      await client.replicaOfNoOne(replica());
      await client.replicaOf(primary(), replica());
      await client.unpauseWrites(primary());
      expect(await within(write, 2_000)).toMatch(/^READONLY/);
    } finally {
      // Back to the topology the other tests use.
      await client.unpauseWrites(primary()).catch(() => undefined);
      await client.replicaOfNoOne(primary());
      await client.replicaOf(replica(), primary());
      for (let i = 0; i < 200; i++) {
        const info = await client.info(replica());
        if (info.replication.role === 'replica' && info.replication.linkUp) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(await app.get('fence:across')).toBeNull();
  });
});

describe('failure reasons', () => {
  it('AuthenticationFailed for a wrong operator password, without the password in the message', async () => {
    const wrong = new IoredisMemberClient({ credentials: { username: users.operator.username, password: 'not-the-password' }, connectTimeoutMs: 500 });
    const err = await wrong.ping(primary()).catch((e: unknown) => e);
    expect(isRedisMemberError(err, 'AuthenticationFailed')).toBe(true);
    expect((err as Error).message).not.toContain('not-the-password');
  });

  it('NotAuthorized (NOPERM) for a user without the right', async () => {
    const limited = new IoredisMemberClient({ credentials: { username: 'app', password: 'second-password' } });
    expect(isRedisMemberError(await limited.info(primary()).catch((e: unknown) => e), 'NotAuthorized')).toBe(true);
  });

  it('MemberUnreachable for a member that does not listen', async () => {
    const err = await client.info({ host: primary().host, port: 1 }).catch((e: unknown) => e);
    expect(isRedisMemberError(err, 'MemberUnreachable')).toBe(true);
    expect((err as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('MemberUnreachable for a member that is frozen (command timeout)', async () => {
    servers[1]!.signal('SIGSTOP');
    try {
      const err = await client.info(replica()).catch((e: unknown) => e);
      expect(isRedisMemberError(err, 'MemberUnreachable')).toBe(true);
    } finally {
      servers[1]!.signal('SIGCONT');
    }
  });
});
