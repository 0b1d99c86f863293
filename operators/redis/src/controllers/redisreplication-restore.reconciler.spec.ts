import type { V1ConfigMap, V1Pod, V1PodDisruptionBudget, V1Secret, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import { storeSecrets, StoreWriter, VirtualClock } from '@domain-operators/reconcile';
import type { Condition } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { RedisReplication, RedisUser } from '../api/v1alpha1/index.ts';
import { USERS_BY_REPLICATION, usersByReplication } from './kinds.ts';
import { EVENTS_BY_STATEFULSET, eventsByStatefulSet } from './member-refusal.ts';
import type { CoreEvent } from './member-refusal.ts';
import { PODS_BY_REPLICATION, podsByReplication } from './members.ts';
import type { Call } from './reconciler.test-support.ts';
import { FakeKube, FakeRedis, internalSecret, memberIp, memberPod, passwordSecret, reconcileContext, RecordingEvents, redisWrites } from './reconciler.test-support.ts';
import { RedisReplicationReconciler } from './redisreplication.reconciler.ts';
import type { AgentImage } from '../config.ts';

const NAME = 'copy';
const SHA = 'c'.repeat(64);
const PLAN_PATH = `/api/v1/namespaces/ns/configmaps/${NAME}-restore`;
const STATEFULSET_PATH = `/apis/apps/v1/namespaces/ns/statefulsets/${NAME}`;
const CONFIG_PATH = `/api/v1/namespaces/ns/configmaps/${NAME}-config`;

const rr: RedisReplication = {
  apiVersion: 'redis.domain-operators.io/v1alpha1',
  kind: 'RedisReplication',
  metadata: { namespace: 'ns', name: NAME, uid: 'rr-uid', generation: 1, resourceVersion: '1' },
  spec: { replicas: 3, image: 'redis:7.0', config: { appendonly: 'yes' }, restore: { s3: { bucket: 'bkt', key: 'k.rdb', credentialsSecretRef: { name: 's3' }, sha256: SHA } } },
};

/** Three fresh members (each its own empty primary, no labels); `copy-0` does not answer until `up()`. */
function world(withAgent = true) {
  const agentImage: AgentImage | undefined = withAgent ? { image: 'redis-operator:1', pullPolicy: 'IfNotPresent' } : undefined;
  const calls: Call[] = [];
  const kube = new FakeKube(calls);
  const redis = new FakeRedis(calls);
  const recorder = new RecordingEvents();
  const pods = new StoreWriter<V1Pod>({ indexers: { [PODS_BY_REPLICATION]: podsByReplication } });
  const secrets = new StoreWriter<V1Secret>();
  const configMaps = new StoreWriter<V1ConfigMap>();
  secrets.replace([internalSecret(NAME), passwordSecret(`${NAME}-auth`, 'default-pw')]);
  const members = Array.from({ length: 3 }, (_, i) => memberPod(NAME, i, { revision: 'rev-1' }));
  pods.replace(members);
  for (let i = 0; i < 3; i++) redis.add(memberIp(i));
  redis.down.add(memberIp(0));
  const reconciler = new RedisReplicationReconciler({
    client: kube.client(),
    recorder,
    memberClient: () => redis.client(),
    clock: new VirtualClock(),
    now: () => new Date('2026-12-01T12:00:00Z'),
    generatePassword: () => 'generated-pw',
    ...(agentImage !== undefined && { agentImage }),
    stores: {
      pods,
      secrets,
      statefulSets: new StoreWriter<V1StatefulSet>(),
      configMaps,
      services: new StoreWriter<V1Service>(),
      podDisruptionBudgets: new StoreWriter<V1PodDisruptionBudget>(),
      users: new StoreWriter<RedisUser>({ indexers: { [USERS_BY_REPLICATION]: usersByReplication } }),
      events: new StoreWriter<CoreEvent>({ indexers: { [EVENTS_BY_STATEFULSET]: eventsByStatefulSet } }),
    },
    referenced: storeSecrets({ store: secrets }),
  });
  return {
    calls,
    kube,
    redis,
    recorder,
    reconciler,
    /** The Pod status of `copy-<ordinal>` (default 0): its restore container's last run. */
    restoreTerminated(message: string, ordinal = 0): void {
      const pod: V1Pod = {
        metadata: members[ordinal]?.metadata ?? {},
        status: { podIP: memberIp(ordinal), initContainerStatuses: [{ name: 'restore', image: 'op', imageID: '', ready: false, restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, message } } }] },
      };
      pods.replace(members.map((m, i) => (i === ordinal ? pod : m)));
    },
    /** The plan ConfigMap is in the cache (as the informer would show the one applied). */
    planCached(): void {
      configMaps.replace([{ metadata: { namespace: 'ns', name: `${NAME}-restore` } }]);
    },
  };
}

function kubePaths(calls: readonly Call[], method: string): string[] {
  return calls.flatMap((c) => (c.to === 'kube' && c.method === method ? [c.path] : []));
}

function ready(w: ReturnType<typeof world>, object: RedisReplication): Condition | undefined {
  const conditions = w.kube.withStatus(object, 'redisreplications').status?.conditions as Condition[] | undefined;
  return conditions?.find((c) => c.type === 'Ready');
}

describe('RedisReplicationReconciler with spec.restore', () => {
  it('applies the plan before the StatefulSet, runs members with appendonly no, and decides nothing while copy-0 restores', async () => {
    const w = world();
    await w.reconciler.reconcile(rr, reconcileContext(rr));
    const applied = kubePaths(w.calls, 'PATCH');
    expect(applied.indexOf(PLAN_PATH)).toBeGreaterThanOrEqual(0);
    expect(applied.indexOf(PLAN_PATH)).toBeLessThan(applied.indexOf(STATEFULSET_PATH));
    const sts = w.calls.find((c) => c.to === 'kube' && c.path === STATEFULSET_PATH);
    expect((sts?.to === 'kube' ? (sts.body as V1StatefulSet) : undefined)?.spec?.template.spec?.initContainers?.[0]?.name).toBe('restore');
    const conf = w.calls.find((c) => c.to === 'kube' && c.path === CONFIG_PATH);
    expect((conf?.to === 'kube' ? (conf.body as V1ConfigMap) : undefined)?.data?.['redis.conf']).toContain('\nappendonly no\n');
    // No REPLICAOF, no role label, no live config: the empty members wait for the restored one.
    expect(redisWrites(w.calls)).toEqual([]);
    expect(kubePaths(w.calls, 'PATCH').filter((p) => p.includes('/pods/'))).toEqual([]);
    expect(ready(w, rr)).toMatchObject({ status: 'False', reason: 'Restoring' });
  });

  it('reports the agent’s RestoreVerificationFailed from the Pod status, with one Event', async () => {
    const w = world();
    w.restoreTerminated(JSON.stringify({ reason: 'RestoreVerificationFailed', message: `s3://bkt/k.rdb has SHA-256 ${'d'.repeat(64)}, not the expected ${SHA}` }));
    await w.reconciler.reconcile(rr, reconcileContext(rr));
    expect(ready(w, rr)).toMatchObject({ status: 'False', reason: 'RestoreVerificationFailed' });
    expect(ready(w, rr)?.message).toContain(SHA);
    await w.reconciler.reconcile(w.kube.withStatus(rr, 'redisreplications'), reconcileContext(rr));
    expect(w.recorder.events.filter((e) => e.reason === 'RestoreVerificationFailed')).toHaveLength(1);
    expect(redisWrites(w.calls)).toEqual([]);
  });

  it('reports a restoring replica’s failure with its name, and decides nothing although copy-0 has its data', async () => {
    const w = world();
    w.redis.down.delete(memberIp(0));
    w.restoreTerminated(JSON.stringify({ reason: 'RestoreVerificationFailed', message: `s3://bkt/k.rdb has SHA-256 ${'d'.repeat(64)}, not the expected ${SHA}` }), 2);
    await w.reconciler.reconcile(rr, reconcileContext(rr));
    expect(ready(w, rr)).toMatchObject({ status: 'False', reason: 'RestoreVerificationFailed' });
    expect(ready(w, rr)?.message).toMatch(/^copy-2 did not start from s3:\/\/bkt\/k\.rdb/);
    expect(w.kube.withStatus(rr, 'redisreplications').status?.restoredFrom).toBeUndefined();
    expect(redisWrites(w.calls)).toEqual([]);
  });

  it('once copy-0 answers PING as a primary: deletes the plan, then records restoredFrom and the keys, and makes copy-0 the primary', async () => {
    const w = world();
    w.planCached();
    w.redis.down.delete(memberIp(0));
    await w.reconciler.reconcile(rr, reconcileContext(rr));
    const deleted = w.calls.findIndex((c) => c.to === 'kube' && c.method === 'DELETE' && c.path === PLAN_PATH);
    const recorded = w.calls.findIndex((c) => c.to === 'kube' && c.method === 'PATCH' && c.path.endsWith('/status') && JSON.stringify(c.body).includes('restoredFrom'));
    expect(deleted).toBeGreaterThanOrEqual(0);
    expect(deleted).toBeLessThan(recorded);
    const status = w.kube.withStatus(rr, 'redisreplications').status;
    expect(status).toMatchObject({ restoredFrom: 's3://bkt/k.rdb', restoredKeys: 1, primary: 'copy-0' });
    expect(redisWrites(w.calls, 'replicaOf')).toEqual([`replicaOf ${memberIp(1)}`, `replicaOf ${memberIp(2)}`]);
    expect(w.recorder.events.map((e) => e.reason)).toContain('Restored');
    // The user's appendonly comes back live once the data is in.
    expect(w.redis.member(memberIp(0)).config['appendonly']).toBe('yes');
  });

  it('while copy-0 still loads (PING refused), nothing is recorded and nothing decided', async () => {
    const w = world();
    w.redis.down.delete(memberIp(0));
    w.redis.failNext(memberIp(0), 'ping', new Error('LOADING Redis is loading the dataset in memory'));
    await w.reconciler.reconcile(rr, reconcileContext(rr));
    expect(ready(w, rr)).toMatchObject({ status: 'False', reason: 'Restoring' });
    expect(ready(w, rr)?.message).toContain('copy-0 restoring or loading');
    expect(redisWrites(w.calls)).toEqual([]);
  });

  it('while a restored replica still loads, nothing is recorded and nothing decided: every member restores before any topology', async () => {
    const w = world();
    w.redis.down.delete(memberIp(0));
    w.redis.failNext(memberIp(2), 'ping', new Error('LOADING Redis is loading the dataset in memory'));
    await w.reconciler.reconcile(rr, reconcileContext(rr));
    expect(ready(w, rr)).toMatchObject({ status: 'False', reason: 'Restoring' });
    expect(ready(w, rr)?.message).toContain('copy-2 restoring or loading');
    expect(w.kube.withStatus(rr, 'redisreplications').status?.restoredFrom).toBeUndefined();
    expect(redisWrites(w.calls)).toEqual([]);
  });

  it('the plan names every member: ordinal 0 as the primary, the others as replicas that restore beside it', async () => {
    const w = world();
    await w.reconciler.reconcile(rr, reconcileContext(rr));
    const plan = w.calls.find((c) => c.to === 'kube' && c.path === PLAN_PATH);
    const text = (plan?.to === 'kube' ? (plan.body as V1ConfigMap) : undefined)?.data?.['plan.json'] ?? '';
    expect(JSON.parse(text)).toMatchObject({ pod: 'copy-0', replicas: ['copy-1', 'copy-2'] });
  });

  it('after an S3 restore: the idle agent stays, so the template (its hash) is the one the members run, and a plan still cached is deleted', async () => {
    const template = (w: ReturnType<typeof world>): string | undefined => {
      const sts = w.calls.find((c) => c.to === 'kube' && c.path === STATEFULSET_PATH);
      return (sts?.to === 'kube' ? (sts.body as V1StatefulSet) : undefined)?.metadata?.annotations?.['redis.domain-operators.io/template-hash'];
    };
    const pending = world();
    await pending.reconciler.reconcile(rr, reconcileContext(rr));
    const w = world();
    w.planCached();
    w.redis.down.delete(memberIp(0));
    const done = { ...rr, status: { restoredFrom: 's3://bkt/k.rdb', restoredKeys: 1 } };
    await w.reconciler.reconcile(done, reconcileContext(done));
    expect(kubePaths(w.calls, 'DELETE')).toEqual([PLAN_PATH]);
    expect(template(w)).toBeDefined();
    expect(template(w)).toBe(template(pending));
  });

  it('after a volume restore the agent and the claim leave the template (one rollout: the claim must not stay mounted)', async () => {
    const w = world();
    w.redis.down.delete(memberIp(0));
    const done: RedisReplication = { ...rr, spec: { ...rr.spec, restore: { volume: { claimName: 'backups', path: 'x.rdb', sha256: SHA } } }, status: { restoredFrom: 'pvc://backups/x.rdb', restoredKeys: 1 } };
    await w.reconciler.reconcile(done, reconcileContext(done));
    const sts = w.calls.find((c) => c.to === 'kube' && c.path === STATEFULSET_PATH);
    const spec = (sts?.to === 'kube' ? (sts.body as V1StatefulSet) : undefined)?.spec?.template.spec;
    expect(spec?.initContainers).toBeUndefined();
    expect(spec?.volumes?.map((v) => v.name)).not.toContain('restore-source');
  });

  it('without the operator image nothing is created, and Ready says why', async () => {
    const w = world(false);
    await w.reconciler.reconcile(rr, reconcileContext(rr));
    expect(kubePaths(w.calls, 'PATCH').filter((p) => !p.endsWith('/status'))).toEqual([]);
    expect(ready(w, rr)).toMatchObject({ status: 'False', reason: 'AgentImageUnknown' });
  });
});
