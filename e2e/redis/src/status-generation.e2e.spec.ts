// What a watcher (kstatus, `kubectl wait`, Argo CD) sees of a spec change of each redis kind: every version the
// apiserver sent during the change is recorded, none may name an observedGeneration that a condition does not
// carry, and the first version that calls the object current at the new generation (observedGeneration and
// Ready=True both there) must come when the change really is on the members: checked at once with an independent
// Redis client (CONFIG GET, ACL GETUSER, the member Pods).
import type { V1Pod } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import { adminConnection, generationLies, kstatusReading, startOperator, watchStatuses } from '@domain-operators/e2e-harness';
import type { OperatorProcess, WatchedVersion } from '@domain-operators/e2e-harness';
import type { Condition, ResourceType } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cluster,
  command,
  deleteNamespace,
  eventually,
  freshNamespace,
  memberPods,
  operatorPassword,
  redisImage,
  redisReplications,
  redisUsers,
  replicationReady,
  restartCount,
} from './fixtures.ts';
import type { Cluster, RedisReplication, RedisUser } from './fixtures.ts';

const NAME = 'gen';
let c: Cluster;
let kubeConfig: KubeConfig;
let ns = '';
let operator: OperatorProcess | undefined;
let password = '';

/** Current at `generation`, as kstatus judges it: observedGeneration there and Ready=True computed from it. */
function currentAt(object: { metadata: { generation?: number }; status?: { observedGeneration?: number; conditions?: Condition[] } }, generation: number): boolean {
  const ready = object.status?.conditions?.find((x) => x.type === 'Ready');
  return object.status?.observedGeneration === generation && ready?.status === 'True' && ready.observedGeneration === generation;
}

/** The same judgement of a watched version. */
function versionCurrentAt(version: WatchedVersion, generation: number): boolean {
  const ready = version.conditions.find((x) => x.type === 'Ready');
  return version.observedGeneration === generation && ready?.status === 'True' && ready.observedGeneration === generation;
}

/**
 * Records every version of `type` in the namespace while `change` patches object `name`, polls (every 100 ms) until
 * the object is current at the generation the patch gave it, runs `applied` at once (the moment a watcher would call
 * it done), then stops the watch and checks what it saw: no version claims a generation a condition does not carry,
 * and some version is current at the new generation (so the check is not vacuous).
 */
async function changeAndWatch<T extends RedisReplication | RedisUser>(
  type: ResourceType<T>,
  name: string,
  change: () => Promise<T>,
  applied: () => Promise<void>,
  timeoutMs: number,
): Promise<void> {
  const watch = await watchStatuses(kubeConfig, type, ns);
  let generation = 0;
  let versions: readonly WatchedVersion[];
  try {
    generation = (await change()).metadata.generation ?? 0;
    await eventually(async () => currentAt(await c.client.get(type, { namespace: ns, name }), generation), timeoutMs, `${name} Ready at generation ${generation}`);
    await applied();
  } finally {
    versions = (await watch.stop()).filter((v) => v.name === name);
  }
  expect(generation).toBeGreaterThan(1);
  expect(generationLies(versions)).toEqual([]);
  expect(versions.some((v) => v.observedGeneration === generation)).toBe(true);
  expect(versions.some((v) => versionCurrentAt(v, generation))).toBe(true);
  // The real kstatus (Flux, kpt): never Current before the change is applied, InProgress while it is in flight.
  const reading = await kstatusReading(versions, generation);
  expect(reading.lies).toEqual([]);
  expect(reading.inProgress).toBeGreaterThan(0);
  const first = versions.findIndex((v) => versionCurrentAt(v, generation));
  console.info(`${name}: ${versions.length} version(s) watched; generation ${generation} current in version ${first + 1}`);
}

function patchReplication(spec: Partial<RedisReplication['spec']>): Promise<RedisReplication> {
  return c.client.patch(redisReplications.type, { namespace: ns, name: NAME }, { type: 'merge', body: { spec } });
}

async function configOf(pod: V1Pod, parameter: string): Promise<string | undefined> {
  return ((await command(pod, password, ['CONFIG', 'GET', parameter])) as string[])[1];
}

async function replicationInfo(pod: V1Pod): Promise<Map<string, string>> {
  const text = String(await command(pod, password, ['INFO', 'replication']));
  return new Map(text.split(/\r?\n/).filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)] as [string, string]));
}

/** The `commands` field of `ACL GETUSER <username>` on a member (`-@all +ping …`). */
async function aclCommands(pod: V1Pod, username: string): Promise<string> {
  const reply = (await command(pod, password, ['ACL', 'GETUSER', username])) as unknown[] | null;
  if (reply === null) throw new Error(`no user ${username} on ${pod.metadata?.name ?? ''}`);
  const at = reply.indexOf('commands');
  return String(reply[at + 1]);
}

beforeAll(async () => {
  c = await cluster();
  kubeConfig = (await adminConnection()).kubeConfig;
  operator = await startOperator({ system: 'redis' });
  ns = await freshNamespace(c, 'redis-gen');
  await c.client.create(redisReplications.type, {
    apiVersion: redisReplications.apiVersion,
    kind: redisReplications.kind,
    metadata: { name: NAME, namespace: ns },
    spec: { replicas: 2, image: await redisImage() },
  });
  await replicationReady(c, ns, NAME);
  password = await operatorPassword(c, ns, NAME);
});

afterAll(async () => {
  await operator?.stop();
  if (ns !== '') await deleteNamespace(c, ns);
});

describe('status at a new generation', () => {
  it('RedisReplication, a live config change: current at the new generation only once every member has the value', async () => {
    const before = await memberPods(c, ns, NAME);
    expect(before).toHaveLength(2);
    for (const pod of before) expect(await configOf(pod, 'maxmemory-policy')).not.toBe('allkeys-lru');
    await changeAndWatch(
      redisReplications.type,
      NAME,
      () => patchReplication({ config: { 'maxmemory-policy': 'allkeys-lru' } }),
      async () => {
        const pods = await memberPods(c, ns, NAME);
        for (const pod of pods) expect(await configOf(pod, 'maxmemory-policy')).toBe('allkeys-lru');
        // Live: the same Pods, never restarted.
        expect(pods.map((p) => [p.metadata?.uid, restartCount(p)])).toEqual(before.map((p) => [p.metadata?.uid, restartCount(p)]));
      },
      60_000,
    );
  });

  it('RedisReplication, a static config change (a rollout): current at the new generation only once every member was replaced and has it', async () => {
    const before = new Set((await memberPods(c, ns, NAME)).map((p) => p.metadata?.uid ?? ''));
    await changeAndWatch(
      redisReplications.type,
      NAME,
      () => patchReplication({ config: { 'maxmemory-policy': 'allkeys-lru', databases: '32' } }),
      async () => {
        const pods = await memberPods(c, ns, NAME);
        expect(pods).toHaveLength(2);
        for (const pod of pods) {
          expect(before.has(pod.metadata?.uid ?? '')).toBe(false);
          expect(await configOf(pod, 'databases')).toBe('32');
          expect(await configOf(pod, 'maxmemory-policy')).toBe('allkeys-lru');
        }
      },
      240_000,
    );
  });

  it('RedisReplication, more replicas: current at the new generation only once the new member is linked and has the live config', async () => {
    await changeAndWatch(
      redisReplications.type,
      NAME,
      () => patchReplication({ replicas: 3 }),
      async () => {
        const rr = await c.client.get(redisReplications.type, { namespace: ns, name: NAME });
        const pods = await memberPods(c, ns, NAME);
        expect(pods.map((p) => p.metadata?.name)).toEqual([`${NAME}-0`, `${NAME}-1`, `${NAME}-2`]);
        for (const pod of pods) {
          expect(await configOf(pod, 'maxmemory-policy')).toBe('allkeys-lru');
          if (pod.metadata?.name === rr.status?.primary) continue;
          const info = await replicationInfo(pod);
          expect(info.get('role')).toBe('slave');
          expect(info.get('master_link_status')).toBe('up');
        }
      },
      120_000,
    );
  });

  it('RedisUser, new ACL rules: current at the new generation only once every member has the new rules', async () => {
    await c.client.create(redisUsers.type, {
      apiVersion: redisUsers.apiVersion,
      kind: redisUsers.kind,
      metadata: { name: 'app', namespace: ns },
      spec: { replicationRef: { name: NAME }, username: 'app', rules: ['+ping', '+get', '~app:*'] },
    });
    await eventually(async () => currentAt(await c.client.get(redisUsers.type, { namespace: ns, name: 'app' }), 1), 60_000, 'RedisUser app Ready');
    for (const pod of await memberPods(c, ns, NAME)) expect(await aclCommands(pod, 'app')).not.toContain('+set');
    await changeAndWatch(
      redisUsers.type,
      'app',
      () => c.client.patch(redisUsers.type, { namespace: ns, name: 'app' }, { type: 'merge', body: { spec: { rules: ['+ping', '+get', '+set', '~app:*'] } } }),
      async () => {
        const pods = await memberPods(c, ns, NAME);
        expect(pods).toHaveLength(3);
        for (const pod of pods) expect(await aclCommands(pod, 'app')).toContain('+set');
      },
      60_000,
    );
  });
});
