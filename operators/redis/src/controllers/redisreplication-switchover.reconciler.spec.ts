// The requested switchover through the reconciler, on the fakes of reconciler.test-support.ts: the order of the
// Kubernetes and Redis writes of the hand-over, the annotation's removal, the Switchover condition, and a refusal
// that writes nothing to the members. The pure decisions are in switchover-request.spec.ts.
import type { Condition } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { RedisReplication } from '../api/v1alpha1/index.ts';
import type { Call, Status } from './reconciler.test-support.ts';
import { memberIp, redisWrites } from './reconciler.test-support.ts';
import { SWITCHOVER_ANNOTATION } from './switchover-request.ts';
import { conditions, NAME, replication, steady, world } from './replication-world.test-support.ts';

function annotated(rr: RedisReplication, value: string, resourceVersion: string): RedisReplication {
  const copy = structuredClone(rr);
  copy.metadata.resourceVersion = resourceVersion;
  copy.metadata.annotations = { [SWITCHOVER_ANNOTATION]: value };
  return copy;
}

function switchover(status: Status): Condition | undefined {
  return conditions(status).find((c) => c.type === 'Switchover');
}

/** The writes after `from` in the shared log, Kubernetes ones as method and path, Redis ones as op and host. */
function writesAfter(calls: readonly Call[], from: number): string[] {
  return calls.slice(from).flatMap((c) => {
    if (c.to === 'redis') return [`${c.op} ${c.host}`];
    return c.method === 'GET' || c.path.endsWith('/status') ? [] : [`${c.method} ${c.path}`];
  });
}

describe('RedisReplicationReconciler: a requested switchover', () => {
  it('labels first, holds writes, promotes, labels, repoints, lifts the hold; then removes the annotation (tested) and reports SwitchoverCompleted', async () => {
    const w = world(3);
    const rr = replication({ replicas: 3 }, 1);
    await steady(w, rr);
    const from = w.calls.length;
    const pods = '/api/v1/namespaces/ns/pods';
    await w.reconcile(annotated(rr, 'cache-2', '7'));
    // The owned objects (re-applied here: the fake caches do not take the applies) and live config left out.
    const steps = writesAfter(w.calls, from).filter((x) => x.startsWith(`PATCH ${pods}/`) || x.includes('/redisreplications/') || /^(pause|unpause|replicaOf)/.test(x));
    expect(steps).toEqual([
      `PATCH ${pods}/cache-0`,
      `pauseWrites ${memberIp(0)}`,
      `replicaOfNoOne ${memberIp(2)}`,
      `PATCH ${pods}/cache-2`,
      `replicaOf ${memberIp(0)}`,
      `unpauseWrites ${memberIp(0)}`,
      `PATCH /apis/redis.domain-operators.io/v1alpha1/namespaces/ns/redisreplications/${NAME}`,
    ]);
    const removal = w.calls.filter((c) => c.to === 'kube' && c.path.endsWith(`/redisreplications/${NAME}`)).at(-1);
    const path = '/metadata/annotations/redis.domain-operators.io~1switchover';
    expect(removal?.to === 'kube' ? removal.body : undefined).toEqual([
      { op: 'test', path, value: 'cache-2' },
      { op: 'remove', path },
    ]);
    expect(switchover(w.status(rr))).toMatchObject({ status: 'True', reason: 'SwitchoverCompleted', observedGeneration: 1 });
    expect(w.redis.member(memberIp(2)).role).toBe('primary');

    // A stale cache still showing the annotation at the same resourceVersion: not handled twice.
    const again = w.calls.length;
    await w.reconcile(annotated(rr, 'cache-2', '7'));
    expect(redisWrites(w.calls.slice(again), 'replicaOfNoOne')).toEqual([]);
    expect(redisWrites(w.calls.slice(again), 'pauseWrites')).toEqual([]);
  });

  it('refuses a member whose link is down: nothing written to a member, the annotation removed, MemberNotLinked, and the condition follows the next generation', async () => {
    const w = world(3);
    const rr = replication({ replicas: 3 }, 1);
    await steady(w, rr);
    w.redis.down.add(memberIp(1));
    const from = w.calls.length;
    await w.reconcile(annotated(rr, 'cache-1', '7'));
    expect(redisWrites(w.calls.slice(from)).filter((x) => !x.startsWith('configSet') && !x.startsWith('aclSetUser'))).toEqual([]);
    expect(switchover(w.status(rr))).toMatchObject({ status: 'False', reason: 'MemberNotLinked' });
    expect(w.calls.slice(from).some((c) => c.to === 'kube' && c.method === 'PATCH' && c.path.endsWith(`/redisreplications/${NAME}`))).toBe(true);
    w.redis.down.delete(memberIp(1));
    const next = replication({ replicas: 3, config: { 'maxmemory-policy': 'allkeys-lru' } }, 2);
    await w.reconcile(next);
    await w.reconcile(next);
    expect(switchover(w.status(next))).toMatchObject({ status: 'False', reason: 'MemberNotLinked', observedGeneration: 2 });
    expect(w.status(next)['observedGeneration']).toBe(2);
  });
});
