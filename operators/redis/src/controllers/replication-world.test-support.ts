// The RedisReplication reconciler's world on the fakes of reconciler.test-support.ts, shared by its specs: the caches,
// a fake apiserver and fake members, and the readiness helpers every scenario starts from.
import type { V1ConfigMap, V1Pod, V1PodDisruptionBudget, V1Secret, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import { storeSecrets, StoreWriter, VirtualClock } from '@domain-operators/reconcile';
import type { Condition } from '@domain-operators/reconcile';
import { expect } from 'vitest';
import type { RedisReplication, RedisUser } from '../api/v1alpha1/index.ts';
import { USERS_BY_REPLICATION, usersByReplication } from './kinds.ts';
import { EVENTS_BY_STATEFULSET, eventsByStatefulSet } from './member-refusal.ts';
import type { CoreEvent } from './member-refusal.ts';
import { PODS_BY_REPLICATION, podsByReplication } from './members.ts';
import type { Call, Status } from './reconciler.test-support.ts';
import { FakeKube, FakeRedis, internalSecret, memberIp, memberPod, passwordSecret, reconcileContext, RecordingEvents } from './reconciler.test-support.ts';
import { RedisReplicationReconciler } from './redisreplication.reconciler.ts';

/** The replication every scenario reconciles, in namespace `ns`. */
export const NAME = 'cache';
/** Its resource's plural. */
export const PLURAL = 'redisreplications';
/** The path its StatefulSet is applied at. */
export const STATEFULSET_PATH = `/apis/apps/v1/namespaces/ns/statefulsets/${NAME}`;

/** A RedisReplication `cache` at `generation` with 2 members and `spec` over the defaults. */
export function replication(spec: Partial<RedisReplication['spec']>, generation: number, uid = 'rr-uid'): RedisReplication {
  return {
    apiVersion: 'redis.domain-operators.io/v1alpha1',
    kind: 'RedisReplication',
    metadata: { namespace: 'ns', name: NAME, uid, generation, resourceVersion: String(generation) },
    spec: { replicas: 2, image: 'redis:7.0', ...spec },
  };
}

/** The operator's world: caches, a fake apiserver, fake members `cache-0` (primary) … `cache-<n-1>` (replicas). */
export function world(members = 2) {
  const calls: Call[] = [];
  const kube = new FakeKube(calls);
  const redis = new FakeRedis(calls);
  const clock = new VirtualClock();
  const pods = new StoreWriter<V1Pod>({ indexers: { [PODS_BY_REPLICATION]: podsByReplication } });
  const secrets = new StoreWriter<V1Secret>();
  const statefulSets = new StoreWriter<V1StatefulSet>();
  secrets.replace([internalSecret(NAME), passwordSecret(`${NAME}-auth`, 'default-pw')]);
  /** The member Pods: `count` of them at `revision`, all Ready but the ordinals in `unready`. */
  const setMembers = (revision: string, count = members, unready: readonly number[] = []): void => {
    pods.replace(Array.from({ length: count }, (_, i) => memberPod(NAME, i, { revision, role: i === 0 ? 'primary' : 'replica', ready: !unready.includes(i) })));
  };
  for (let i = 0; i < members; i++) redis.add(memberIp(i), i === 0 ? undefined : memberIp(0));
  setMembers('rev-1');
  const reconciler = new RedisReplicationReconciler({
    client: kube.client(),
    recorder: new RecordingEvents(),
    memberClient: () => redis.client(),
    clock,
    now: () => new Date('2026-12-01T12:00:00Z'),
    generatePassword: () => 'generated-pw',
    stores: {
      pods,
      secrets,
      statefulSets,
      configMaps: new StoreWriter<V1ConfigMap>(),
      services: new StoreWriter<V1Service>(),
      podDisruptionBudgets: new StoreWriter<V1PodDisruptionBudget>(),
      users: new StoreWriter<RedisUser>({ indexers: { [USERS_BY_REPLICATION]: usersByReplication } }),
      events: new StoreWriter<CoreEvent>({ indexers: { [EVENTS_BY_STATEFULSET]: eventsByStatefulSet } }),
    },
    referenced: storeSecrets({ store: secrets }),
  });
  let stsGeneration = 0;
  return {
    calls,
    kube,
    redis,
    clock,
    pods,
    reconciler,
    setMembers,
    /** The StatefulSet controller has seen the StatefulSet last applied: it is cached with `updateRevision` = `revision`. */
    syncStatefulSet(revision: string): void {
      const applied = calls.filter((c) => c.to === 'kube' && c.method === 'PATCH' && c.path === STATEFULSET_PATH).at(-1);
      if (applied?.to !== 'kube') throw new Error('no StatefulSet applied yet');
      const sts = structuredClone(applied.body) as V1StatefulSet;
      stsGeneration++;
      sts.metadata ??= {};
      sts.metadata.generation = stsGeneration;
      sts.metadata.resourceVersion = String(stsGeneration);
      sts.status = { replicas: 0, observedGeneration: stsGeneration, updateRevision: revision };
      statefulSets.replace([sts]);
    },
    /** One reconcile of `rr` as the cache would hand it over (with the status written so far). */
    async reconcile(rr: RedisReplication): Promise<void> {
      await reconciler.reconcile(kube.withStatus(rr, PLURAL), reconcileContext(rr));
    },
    status(rr: RedisReplication): Status {
      return kube.withStatus(rr, PLURAL).status ?? {};
    },
  };
}

/** What {@link world} returns. */
export type World = ReturnType<typeof world>;

/** The conditions in a written status (none: empty). */
export function conditions(status: Status): Condition[] {
  return (status['conditions'] as Condition[] | undefined) ?? [];
}

/** The Ready condition in a written status. */
export function ready(status: Status): Condition | undefined {
  return conditions(status).find((c) => c.type === 'Ready');
}

/** Ready=True at the generation, with observedGeneration there too. */
export function readyAt(status: Status, generation: number): boolean {
  const r = ready(status);
  return status['observedGeneration'] === generation && r?.status === 'True' && r.observedGeneration === generation;
}

/** Reconciled to steady state at generation 1 (the StatefulSet controller took the first template as `rev-1`). */
export async function steady(w: World, rr: RedisReplication): Promise<void> {
  await w.reconcile(rr);
  w.syncStatefulSet('rev-1');
  await w.reconcile(rr);
  expect(readyAt(w.status(rr), rr.metadata.generation ?? 0)).toBe(true);
}
