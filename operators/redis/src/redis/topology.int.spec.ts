// The topology state machine driving three real redis-server processes through the real client: converge,
// replicate, fail over after a crash, take the old primary back as a replica.
import { systemClock } from '@domain-operators/reconcile';
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapUsers } from './bootstrap.ts';
import { IoredisMemberClient } from './client.ts';
import { executePlan } from './execute.ts';
import type { RoleLabeler } from './execute.ts';
import { appConnection, hostOctets, LocalRedis, randomUsers } from './local-redis.test-support.ts';
import { decideTopology, INITIAL_MEMORY } from './topology.ts';
import type { FailoverSettings, MemberAddress, MemberObservation, TopologyDecision, TopologyMemory } from './topology.ts';
import type { RoleLabel } from './manifests.ts';

const FAILOVER: FailoverSettings = { enabled: true, downAfterMilliseconds: 1_000 };

let users: BootstrapUsers;
let client: IoredisMemberClient;
let servers: LocalRedis[] = [];
const pods = ['cache-0', 'cache-1', 'cache-2'];
const connections: Redis[] = [];

/** The Pods' role labels; throws the moment two Pods would be labelled primary. */
class RecordingLabeler implements RoleLabeler {
  readonly labels = new Map<string, RoleLabel>();

  setRole(pod: string, role: RoleLabel): Promise<void> {
    this.labels.set(pod, role);
    const primaries = [...this.labels].filter(([, r]) => r === 'primary').map(([p]) => p);
    if (primaries.length > 1) return Promise.reject(new Error(`two Pods labelled primary: ${primaries.join(', ')}`));
    return Promise.resolve();
  }

  primary(): string | undefined {
    return [...this.labels].find(([, r]) => r === 'primary')?.[0];
  }
}

const labeler = new RecordingLabeler();
let memory: TopologyMemory = INITIAL_MEMORY;

function addresses(): Map<string, MemberAddress> {
  return new Map(servers.map((s, i) => [pods[i] ?? '', s.address]));
}

async function observe(): Promise<MemberObservation[]> {
  return Promise.all(
    servers.map(async (server, ordinal) => {
      const pod = pods[ordinal] ?? '';
      const label = labeler.labels.get(pod);
      const base = { pod, ordinal, address: server.address, ...(label === undefined ? {} : { label }) };
      try {
        return { ...base, info: await client.info(server.address) };
      } catch (err) {
        return { ...base, error: (err as Error).message };
      }
    }),
  );
}

/** Observe → decide → execute until `done` holds for a decision that planned nothing. */
async function reconcileUntil(done: (d: TopologyDecision) => boolean, timeoutMs = 20_000): Promise<TopologyDecision[]> {
  const steps: TopologyDecision[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const decision = decideTopology({ members: await observe(), memory, failover: FAILOVER, now: systemClock.now() });
    memory = decision.memory;
    steps.push(decision);
    if (decision.actions.length > 0) await executePlan(decision.actions, addresses(), { client, labeler });
    else if (done(decision)) return steps;
    if (Date.now() > deadline) throw new Error(`no convergence; last decision ${JSON.stringify(decision)}`);
    await sleep(decision.actions.length > 0 ? 20 : 100);
  }
}

function condition(d: TopologyDecision, type: string): string | undefined {
  return d.conditions.find((c) => c.type === type)?.status;
}

const converged = (d: TopologyDecision): boolean => condition(d, 'Ready') === 'True' && condition(d, 'FailoverInProgress') === 'False';

async function app(index: number): Promise<Redis> {
  const server = servers[index];
  if (server === undefined) throw new Error(`no server ${index}`);
  const connection = await appConnection(server.address);
  connections.push(connection);
  return connection;
}

beforeAll(async () => {
  users = randomUsers();
  client = new IoredisMemberClient({ credentials: users.operator, connectTimeoutMs: 500, commandTimeoutMs: 1_000 });
  servers = await Promise.all(hostOctets(3).map((octet) => LocalRedis.start(users, octet)));
});

afterAll(async () => {
  for (const c of connections) c.disconnect();
  await Promise.all(servers.map((s) => s.dispose()));
});

describe('topology against three real redis-server processes', () => {
  it('converges three fresh members on one primary with two linked replicas', async () => {
    const steps = await reconcileUntil(converged);
    const last = steps.at(-1)!;
    expect(last.primary).toBe('cache-0');
    expect(labeler.primary()).toBe('cache-0');
    expect(last.members.map((m) => [m.pod, m.role, m.linkUp])).toEqual([
      ['cache-0', 'primary', true],
      ['cache-1', 'replica', true],
      ['cache-2', 'replica', true],
    ]);
    expect(last.readyReplicas).toBe(3);
    expect(Object.fromEntries(labeler.labels)).toEqual({ 'cache-0': 'primary', 'cache-1': 'replica', 'cache-2': 'replica' });
  });

  it('replicates a write on the primary to a replica', async () => {
    const primary = await app(0);
    await primary.set('greeting', 'hello');
    expect(await primary.call('WAIT', '2', '2000')).toBe(2);
    const replica = await app(1);
    expect(await replica.get('greeting')).toBe('hello');
  });

  it('client.wait counts only replicas that acknowledged the current offset', async () => {
    const primary = await app(0);
    servers[2]!.signal('SIGSTOP');
    try {
      await primary.set('paused', '1');
      expect(await client.wait(servers[0]!.address, 2, 300)).toBe(1);
    } finally {
      servers[2]!.signal('SIGCONT');
    }
    expect(await client.wait(servers[0]!.address, 2, 3_000)).toBe(2);
  });

  it('after the primary crashes promotes the replica with the highest offset, repoints the other and loses no acknowledged write', async () => {
    const primary = await app(0);
    const acknowledged: string[] = [];
    for (let i = 0; i < 50; i++) await primary.set(`both:${i}`, String(i));
    expect(await primary.call('WAIT', '2', '2000')).toBe(2);
    for (let i = 0; i < 50; i++) acknowledged.push(`both:${i}`);

    // cache-1 freezes, so only cache-2 receives the next writes: it has the highest offset, not the lowest ordinal.
    // The writes are large enough (16 MiB) not to fit in the kernel's socket buffers, which cache-1 would
    // otherwise still read after it thaws.
    servers[1]!.signal('SIGSTOP');
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 16; i++) await primary.set(`one:${i}`, `${i}:${big}`);
    await primary.set('one:last', 'last');
    expect(await primary.call('WAIT', '1', '5000')).toBe(1);
    await servers[0]!.kill();
    const crashedAt = Date.now();
    servers[1]!.signal('SIGCONT');

    const failoverDone = (d: TopologyDecision): boolean => d.events.some((e) => e.reason === 'FailoverCompleted');
    const steps = await reconcileUntil(failoverDone);
    const failoverStep = steps.find((s) => s.failoverStarted);
    expect(failoverStep?.primary).toBe('cache-2');
    expect(failoverStep?.actions).toEqual([
      { kind: 'setRole', pod: 'cache-0', role: 'replica' },
      { kind: 'promote', pod: 'cache-2' },
      { kind: 'setRole', pod: 'cache-2', role: 'primary' },
      { kind: 'replicaOf', pod: 'cache-1', primary: 'cache-2', address: servers[2]!.address },
    ]);
    console.log(`verified new primary ${Date.now() - crashedAt} ms after the crash (downAfterMilliseconds ${FAILOVER.downAfterMilliseconds})`);
    expect(steps.some((s) => s.conditions.some((c) => c.type === 'Ready' && c.reason === 'PrimaryUnavailable'))).toBe(true);
    expect(labeler.primary()).toBe('cache-2');

    const newPrimary = await app(2);
    const values = await newPrimary.mget(...acknowledged);
    expect(values).toEqual(acknowledged.map((k) => k.split(':')[1]));
    expect(await newPrimary.get('one:last')).toBe('last');
    const replica = await app(1);
    await newPrimary.set('after-failover', 'yes');
    expect(await newPrimary.call('WAIT', '1', '2000')).toBe(1);
    expect(await replica.get('after-failover')).toBe('yes');
    expect(await replica.get('one:last')).toBe('last');
  });

  it('demotes the old primary when it comes back, never labelling it primary', async () => {
    await servers[0]!.startProcess(users);
    const steps = await reconcileUntil(converged);
    expect(steps[0]?.actions).toContainEqual({ kind: 'replicaOf', pod: 'cache-0', primary: 'cache-2', address: servers[2]!.address });
    expect(steps.every((s) => s.primary === 'cache-2')).toBe(true);
    expect(labeler.labels.get('cache-0')).toBe('replica');
    const old = await app(0);
    expect(await old.get('both:0')).toBe('0');
    await expect(old.set('x', '1')).rejects.toThrow(/READONLY/);
  });
});
