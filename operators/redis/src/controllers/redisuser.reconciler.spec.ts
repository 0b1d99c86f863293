import type { V1Pod, V1Secret } from '@kubernetes/client-node';
import { storeSecrets, StoreWriter } from '@domain-operators/reconcile';
import type { Condition } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { RedisReplication, RedisUser } from '../api/v1alpha1/index.ts';
import { PODS_BY_REPLICATION, podsByReplication } from './members.ts';
import type { Call, Status } from './reconciler.test-support.ts';
import { FakeKube, FakeRedis, internalSecret, memberIp, memberPod, passwordSecret, reconcileContext, RecordingEvents, redisWrites } from './reconciler.test-support.ts';
import { RedisUserReconciler, USER_FINALIZER } from './redisuser.reconciler.ts';

const PLURAL = 'redisusers';

function user(rules: string[], generation: number, uid = 'user-uid'): RedisUser {
  return {
    apiVersion: 'redis.domain-operators.io/v1alpha1',
    kind: 'RedisUser',
    metadata: { namespace: 'ns', name: 'app', uid, generation, resourceVersion: String(generation), finalizers: [USER_FINALIZER] },
    spec: { replicationRef: { name: 'cache' }, username: 'app', passwordSecretRef: { name: 'app-pw' }, rules },
  };
}

function world() {
  const calls: Call[] = [];
  const kube = new FakeKube(calls);
  const redis = new FakeRedis(calls);
  const pods = new StoreWriter<V1Pod>({ indexers: { [PODS_BY_REPLICATION]: podsByReplication } });
  const secrets = new StoreWriter<V1Secret>();
  const replications = new StoreWriter<RedisReplication>();
  secrets.replace([internalSecret('cache'), passwordSecret('app-pw', 'app-password')]);
  replications.replace([{ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', metadata: { namespace: 'ns', name: 'cache', uid: 'rr', resourceVersion: '1' }, spec: { replicas: 2, image: 'redis:7.0' } }]);
  const setMembers = (ready: readonly boolean[]): void => {
    pods.replace(ready.map((r, i) => memberPod('cache', i, { revision: 'rev-1', ready: r })));
  };
  redis.add(memberIp(0));
  redis.add(memberIp(1), memberIp(0));
  setMembers([true, true]);
  const reconciler = new RedisUserReconciler(
    { client: kube.client(), recorder: new RecordingEvents(), memberClient: () => redis.client(), stores: { pods, secrets, replications }, referenced: storeSecrets({ store: secrets }), now: () => new Date('2026-12-01T12:00:00Z') },
    { pendingRequeueMs: 1_000 },
  );
  return {
    calls,
    kube,
    redis,
    reconciler,
    setMembers,
    async reconcile(u: RedisUser): Promise<void> {
      await reconciler.reconcile(kube.withStatus(u, PLURAL), reconcileContext(u));
    },
    status(u: RedisUser): Status {
      return kube.withStatus(u, PLURAL).status ?? {};
    },
  };
}

function ready(status: Status): Condition | undefined {
  return ((status['conditions'] as Condition[] | undefined) ?? []).find((c) => c.type === 'Ready');
}

describe('RedisUserReconciler status at a new generation', () => {
  it('a rule change: Ready=True at the new generation only once ACL SETUSER with the new rules ran on every member', async () => {
    const w = world();
    await w.reconcile(user(['+@read', '~app:*'], 1));
    expect(ready(w.status(user([], 1)))).toMatchObject({ status: 'True', observedGeneration: 1 });
    expect(w.status(user([], 1))['observedGeneration']).toBe(1);

    const changed = user(['+@read', '+@write', '~app:*'], 2);
    w.setMembers([true, false]);
    await w.reconcile(changed);
    expect(ready(w.status(changed))).toMatchObject({ status: 'False', reason: 'MembersPending', observedGeneration: 2 });
    expect(w.redis.member(memberIp(0)).users.get('app')).toContain('+@write');
    expect(w.redis.member(memberIp(1)).users.get('app')).not.toContain('+@write');

    w.setMembers([true, true]);
    const before = w.calls.length;
    await w.reconcile(changed);
    expect(ready(w.status(changed))).toMatchObject({ status: 'True', observedGeneration: 2 });
    expect(w.status(changed)['observedGeneration']).toBe(2);
    expect(w.redis.member(memberIp(1)).users.get('app')).toContain('+@write');
    const after = w.calls.slice(before);
    expect(redisWrites(after)).toEqual([`aclSetUser ${memberIp(1)}`]);
    expect(after.at(-1)).toMatchObject({ to: 'kube', method: 'PATCH' });
  });
});

describe('RedisUserReconciler.forget', () => {
  it('drops what was applied: the next reconcile runs ACL SETUSER on every member again', async () => {
    const w = world();
    const u = user(['+ping'], 1);
    await w.reconcile(u);
    let before = w.calls.length;
    await w.reconcile(u);
    expect(redisWrites(w.calls.slice(before))).toEqual([]);

    w.reconciler.forget({ namespace: 'ns', name: 'app' });
    before = w.calls.length;
    await w.reconcile(u);
    expect(redisWrites(w.calls.slice(before))).toEqual([`aclSetUser ${memberIp(0)}`, `aclSetUser ${memberIp(1)}`]);
    expect(() => {
      w.reconciler.forget({ namespace: 'ns', name: 'never-seen' });
    }).not.toThrow();
  });

  it('a RedisUser created again under the same name (another UID), same rules and password, is applied again', async () => {
    const w = world();
    await w.reconcile(user(['+ping'], 1));
    // Its user was removed (by its cleanup, or by hand) while this reconciler never saw the deletion.
    for (let i = 0; i < 2; i++) w.redis.member(memberIp(i)).users.delete('app');
    const before = w.calls.length;
    await w.reconcile(user(['+ping'], 1, 'second-uid'));
    expect(redisWrites(w.calls.slice(before))).toEqual([`aclSetUser ${memberIp(0)}`, `aclSetUser ${memberIp(1)}`]);
  });
});
