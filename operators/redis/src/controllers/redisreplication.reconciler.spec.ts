import { describe, expect, it } from 'vitest';
import { memberIp, reconcileContext, redisWrites } from './reconciler.test-support.ts';
import { conditions, NAME, PLURAL, ready, readyAt, replication, steady, world } from './replication-world.test-support.ts';

describe('RedisReplicationReconciler status at a new generation', () => {
  it('moves observedGeneration only in writes that carry every condition at that generation', async () => {
    const w = world();
    const rr = replication({}, 1);
    await steady(w, rr);
    for (const status of w.kube.statusWrites(rr, PLURAL)) {
      if (status['observedGeneration'] === undefined) continue;
      const all = conditions({ ...w.status(rr), ...status });
      // Reconciling (kstatus) comes and goes with Ready; whatever is there carries the generation too.
      expect(all.every((c) => c.observedGeneration === status['observedGeneration'])).toBe(true);
      expect(all.filter((c) => c.type !== 'Reconciling').map((c) => [c.type, c.observedGeneration])).toEqual([
        ['Ready', status['observedGeneration']],
        ['Degraded', status['observedGeneration']],
        ['FailoverInProgress', status['observedGeneration']],
      ]);
    }
  });

  it('is not Ready at the first generation before the StatefulSet controller has taken the template', async () => {
    const w = world();
    const rr = replication({}, 1);
    await w.reconcile(rr);
    expect(ready(w.status(rr))).toMatchObject({ status: 'False', reason: 'RolloutInProgress', observedGeneration: 1 });
  });

  it('a live config change: Ready=True at the new generation only after CONFIG SET succeeded on every member', async () => {
    const w = world();
    await steady(w, replication({}, 1));
    const changed = replication({ config: { 'maxmemory-policy': 'allkeys-lru' } }, 2);
    w.redis.failNext(memberIp(1), 'configSet', new Error('CONFIG SET on 10.0.0.11: connection reset'));
    await expect(w.reconcile(changed)).rejects.toThrow(/connection reset/);
    // Nothing written about generation 2: the change is not on cache-1 yet.
    expect(w.status(changed)['observedGeneration']).toBe(1);
    expect(ready(w.status(changed))?.observedGeneration).toBe(1);

    const before = w.calls.length;
    await w.reconcile(changed);
    expect(readyAt(w.status(changed), 2)).toBe(true);
    for (let i = 0; i < 2; i++) expect(w.redis.member(memberIp(i)).config['maxmemory-policy']).toBe('allkeys-lru');
    // cache-0 had it from the failed attempt; only cache-1 is written, and before the status says so.
    const after = w.calls.slice(before);
    expect(redisWrites(after, 'configSet')).toEqual([`configSet ${memberIp(1)}`]);
    const statusAt = after.findIndex((c) => c.to === 'kube' && c.path.endsWith('/status'));
    const configAt = after.findIndex((c) => c.to === 'redis' && c.op === 'configSet');
    expect(configAt).toBeGreaterThanOrEqual(0);
    expect(statusAt).toBeGreaterThan(configAt);
  });

  it('a change of the Pod template: not Ready at the new generation until every member runs the new revision', async () => {
    const w = world();
    await steady(w, replication({}, 1));
    const changed = replication({ image: 'redis:7.2' }, 2);
    // This reconcile applies the new template; the cached StatefulSet is still the old one.
    await w.reconcile(changed);
    expect(ready(w.status(changed))).toMatchObject({ status: 'False', reason: 'RolloutInProgress', observedGeneration: 2 });
    // The StatefulSet controller took it; the members still run rev-1.
    w.syncStatefulSet('rev-2');
    await w.reconcile(changed);
    expect(ready(w.status(changed))).toMatchObject({ status: 'False', reason: 'RolloutInProgress', message: '2 of 2 members do not run the current Pod template yet: cache-0, cache-1' });
    // Every member replaced.
    w.setMembers('rev-2');
    await w.reconcile(changed);
    expect(readyAt(w.status(changed), 2)).toBe(true);
    const readyWrites = w.kube.statusWrites(changed, PLURAL).filter((s) => ready(s)?.status === 'True');
    expect(readyWrites.map((s) => ready(s)?.observedGeneration)).toEqual([1, 2]);
  });

  it('a scale-down: not Ready at the new generation while a member above spec.replicas still exists', async () => {
    const w = world(3);
    await steady(w, replication({ replicas: 3 }, 1));
    const changed = replication({ replicas: 2 }, 2);
    await w.reconcile(changed);
    expect(ready(w.status(changed))).toMatchObject({ status: 'False', reason: 'ScalingDown', message: 'cache-2 above spec.replicas (2) still exist', observedGeneration: 2 });
    w.setMembers('rev-1', 2);
    await w.reconcile(changed);
    expect(readyAt(w.status(changed), 2)).toBe(true);
  });

  it('is not Ready while a member answers the operator but its Pod is not Ready (the Services do not route to it yet)', async () => {
    const w = world();
    const rr = replication({}, 1);
    await steady(w, rr);
    // cache-1 answers PING and is linked, but the kubelet's probe has not had PONG yet (it is loading, say).
    w.setMembers('rev-1', 2, [1]);
    await w.reconcile(rr);
    expect(ready(w.status(rr))).toMatchObject({ status: 'False', reason: 'MembersNotReady', observedGeneration: 1 });
    expect(ready(w.status(rr))?.message).toMatch(/^cache-1 not Ready yet/);
    expect(conditions(w.status(rr)).find((c) => c.type === 'Degraded')?.status).toBe('False');
    w.setMembers('rev-1', 2);
    await w.reconcile(rr);
    expect(readyAt(w.status(rr), 1)).toBe(true);
  });

  it('a refused spec (a managed config key) writes Ready=False at the new generation and leaves observedGeneration behind', async () => {
    const w = world();
    await steady(w, replication({}, 1));
    const refused = replication({ config: { port: '7000' } }, 2);
    await w.reconcile(refused);
    const status = w.status(refused);
    expect(ready(status)).toMatchObject({ status: 'False', reason: 'InvalidConfig', observedGeneration: 2 });
    expect(conditions(status).find((c) => c.type === 'Degraded')?.observedGeneration).toBe(1);
    expect(status['observedGeneration']).toBe(1);
    // Fixed: applied, and current again.
    await w.reconcile(replication({ config: { 'maxmemory-policy': 'allkeys-lru' } }, 3));
    expect(readyAt(w.status(refused), 3)).toBe(true);
  });
});

describe('RedisReplicationReconciler.forget', () => {
  it('drops what was applied: the next reconcile applies live config and the default user again', async () => {
    const w = world();
    const rr = replication({ config: { 'maxmemory-policy': 'allkeys-lru' } }, 1);
    await steady(w, rr);
    let before = w.calls.length;
    await w.reconcile(rr);
    expect(redisWrites(w.calls.slice(before))).toEqual([]);

    w.reconciler.forget({ namespace: 'ns', name: NAME });
    before = w.calls.length;
    await w.reconcile(rr);
    expect(redisWrites(w.calls.slice(before)).sort()).toEqual([`aclSetUser ${memberIp(0)}`, `aclSetUser ${memberIp(1)}`, `configSet ${memberIp(0)}`, `configSet ${memberIp(1)}`]);
  });

  it('drops the failover timing: a primary unreachable before forget is timed afresh', async () => {
    const w = world();
    const rr = replication({ failover: { enabled: true, downAfterMilliseconds: 5_000 } }, 1);
    await steady(w, rr);
    w.redis.down.add(memberIp(0));
    await w.reconcile(rr); // unreachable since t = 0
    await w.clock.advance(4_000);
    w.reconciler.forget({ namespace: 'ns', name: NAME });
    await w.reconcile(rr); // unreachable since t = 4 s, as far as the reconciler knows
    await w.clock.advance(2_000);
    await w.reconcile(rr); // 6 s after it went, 2 s after forget: no promotion yet
    expect(redisWrites(w.calls, 'replicaOfNoOne')).toEqual([]);
    await w.clock.advance(3_000);
    await w.reconcile(rr); // 5 s after forget
    expect(redisWrites(w.calls, 'replicaOfNoOne')).toEqual([`replicaOfNoOne ${memberIp(1)}`]);
  });

  it('a RedisReplication created again under the same name (another UID) starts with no memory', async () => {
    const w = world();
    await steady(w, replication({}, 1));
    const before = w.calls.length;
    await w.reconcile(replication({}, 1, 'new-uid'));
    expect(redisWrites(w.calls.slice(before)).filter((c) => c.startsWith('configSet'))).toEqual([`configSet ${memberIp(0)}`, `configSet ${memberIp(1)}`]);
  });

  it('is what the deletion path does too, and never throws for an object it does not know', async () => {
    const w = world();
    const rr = replication({}, 1);
    await steady(w, rr);
    const deleting = structuredClone(rr);
    deleting.metadata.deletionTimestamp = new Date();
    await w.reconciler.reconcile(deleting, reconcileContext(rr));
    const before = w.calls.length;
    await w.reconcile(rr);
    expect(redisWrites(w.calls.slice(before), 'configSet')).toHaveLength(2);
    expect(() => {
      w.reconciler.forget({ namespace: 'other', name: 'unknown' });
    }).not.toThrow();
  });
});
