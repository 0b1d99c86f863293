import { describe, expect, it } from 'vitest';
import type { TopologyCondition } from '../redis/topology.ts';
import { INITIAL_MEMORY } from '../redis/topology.ts';
import type { MemberInfo } from '../redis/info.ts';
import { goodReplicas, refusalMessage, replicationConditions, requeueDelayMs } from './replication-status.ts';

const readyTrue: TopologyCondition = { type: 'Ready', status: 'True', reason: 'TopologyConverged', message: 'ok' };
const primaryDown: TopologyCondition = { type: 'Ready', status: 'False', reason: 'PrimaryUnavailable', message: 'down' };
const counts = { members: 3, observed: 3, unreachable: 0, desired: 3 };

describe('replicationConditions', () => {
  it('keeps the decision when all is well', () => {
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [] })).toEqual([readyTrue]);
  });

  it('is not Ready while members are missing or Redis refused config', () => {
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 2, desired: 3, problems: [] })[0]).toMatchObject({ status: 'False', reason: 'MembersPending' });
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: ['bad value'] })[0]).toMatchObject({
      status: 'False',
      reason: 'InvalidConfig',
      message: 'bad value',
    });
  });
});

describe('replicationConditions while a change is rolled out or scaled down', () => {
  it('is not Ready while members run an older Pod template or members above spec.replicas remain', () => {
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], outdated: ['cache-1', 'cache-2'] })[0]).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'RolloutInProgress',
      message: '2 of 3 members do not run the current Pod template yet: cache-1, cache-2',
    });
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 2, desired: 2, problems: [], surplus: ['cache-2', 'cache-3'] })[0]).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'ScalingDown',
      message: 'cache-2, cache-3 above spec.replicas (2) still exist',
    });
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], outdated: [], surplus: [] })).toEqual([readyTrue]);
  });

  it('is not Ready while member Pods are not Ready, after every other reason, and only when the topology is Ready', () => {
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], unready: ['cache-0', 'cache-2'] })[0]).toMatchObject({
      status: 'False',
      reason: 'MembersNotReady',
      message: expect.stringMatching(/^cache-0, cache-2 not Ready yet: their readiness probe/) as unknown,
    });
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], outdated: ['cache-1'], unready: ['cache-1'] })[0]?.reason).toBe('RolloutInProgress');
    const notReady = { type: 'Ready', status: 'False' as const, reason: 'PrimaryUnavailable', message: 'no primary' };
    expect(replicationConditions({ conditions: [notReady] }, { members: 3, desired: 3, problems: [], unready: ['cache-0'] })[0]).toEqual(notReady);
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], unready: [] })).toEqual([readyTrue]);
  });

  it('keeps a more specific reason: the topology\'s own, missing members, refused config', () => {
    expect(replicationConditions({ conditions: [primaryDown] }, { members: 3, desired: 3, problems: [], outdated: ['cache-0'] })[0]).toEqual(primaryDown);
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 2, desired: 3, problems: [], outdated: ['cache-0'] })[0]).toMatchObject({ reason: 'MembersPending' });
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: ['bad value'], surplus: ['cache-3'] })[0]).toMatchObject({ reason: 'InvalidConfig' });
  });
});

describe('replicationConditions with a refused member', () => {
  const refusal = { reason: 'QuotaExceeded', pods: ['cache-2'], message: 'pods "cache-2" is forbidden: exceeded quota: q, requested: requests.cpu=100m' } as const;

  it('says why members are missing, over the topology reason, and only while they are missing', () => {
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 2, desired: 3, problems: [], refusal })[0]).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'QuotaExceeded',
      message: '2 of 3 members exist; cache-2 cannot be created: pods "cache-2" is forbidden: exceeded quota: q, requested: requests.cpu=100m',
    });
    expect(replicationConditions({ conditions: [primaryDown] }, { members: 0, desired: 3, problems: [], refusal })[0]).toMatchObject({ reason: 'QuotaExceeded' });
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], refusal })).toEqual([readyTrue]);
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 2, desired: 3, problems: ['bad value'], refusal })[0]).toMatchObject({ reason: 'InvalidConfig' });
  });

  it('cuts a long apiserver message to 1 KB', () => {
    const message = refusalMessage({ ...refusal, message: 'x'.repeat(5_000) }, { members: 2, desired: 3 });
    expect(message).toHaveLength(1024);
    expect(message.endsWith('…')).toBe(true);
  });
});

describe('requeueDelayMs', () => {
  it('polls fast while the primary is down, often while converging, calmly at steady state', () => {
    const steady = { conditions: [readyTrue], memory: INITIAL_MEMORY, actions: [] };
    expect(requeueDelayMs(steady, counts)).toBe(1_000);
    expect(requeueDelayMs({ ...steady, conditions: [primaryDown] }, counts)).toBe(250);
    expect(requeueDelayMs({ ...steady, requeueAfterMs: 100 }, counts)).toBe(100);
    // Waiting for downAfterMilliseconds of a frozen primary (each ask waited 1 s): urgent asks, then the one whose
    // wait ends at the deadline exactly, even if that is more than an urgent poll away.
    expect(requeueDelayMs({ ...steady, requeueAfterMs: 3_000, primaryAskMs: 1_000 }, counts)).toBe(250);
    expect(requeueDelayMs({ ...steady, requeueAfterMs: 500, primaryAskMs: 1_000 }, counts)).toBe(500);
    expect(requeueDelayMs({ ...steady, requeueAfterMs: 500, primaryAskMs: 0 }, counts)).toBe(250);
    expect(requeueDelayMs({ ...steady, actions: [{ kind: 'promote', pod: 'a' }] }, counts)).toBe(1_000);
    expect(requeueDelayMs(steady, { ...counts, unreachable: 1 })).toBe(1_000);
    expect(requeueDelayMs(steady, { ...counts, members: 2 })).toBe(1_000);
    expect(requeueDelayMs({ ...steady, memory: { ...INITIAL_MEMORY, failover: { from: 'a', to: 'b', startedAt: 0 } } }, counts)).toBe(1_000);
  });
});

describe('replicationConditions with write fencing (minReplicasToWrite)', () => {
  const primary = (replicas: { state: string; lag: number }[], redisCount?: number): MemberInfo => ({
    keys: 0,
    replication: {
      role: 'primary',
      offset: 100,
      replid: 'r',
      replicas: replicas.map((r, i) => ({ ip: `10.0.0.${i + 11}`, port: 6379, offset: 100, ...r })),
      ...(redisCount !== undefined && { goodReplicas: redisCount }),
    },
  });

  it('counts the replicas Redis counts: online and acknowledged within the lag', () => {
    expect(goodReplicas(primary([{ state: 'online', lag: 0 }, { state: 'online', lag: 3 }, { state: 'wait_bgsave', lag: 0 }]), 2)).toBe(1);
    expect(goodReplicas(primary([{ state: 'online', lag: 2 }]), 2)).toBe(1);
    expect(goodReplicas(primary([]), 2)).toBe(0);
    expect(goodReplicas(undefined, 2)).toBeUndefined();
    // Right after a stopped replica resumes it acks at once (lag 0) while Redis' own count, refreshed once a second, is still 0.
    expect(goodReplicas(primary([{ state: 'online', lag: 0 }], 0), 2)).toBe(0);
    expect(goodReplicas(primary([{ state: 'online', lag: 0 }], 1), 2)).toBe(1);
    expect(goodReplicas(primary([{ state: 'online', lag: 5 }], 1), 2)).toBe(0);
    expect(goodReplicas({ keys: 0, replication: { role: 'replica', primaryHost: 'h', primaryPort: 6379, linkUp: true, syncInProgress: false, offset: 1, replid: 'r' } }, 2)).toBeUndefined();
  });

  it('is not Ready (WritesFenced) while the primary has fewer good replicas than it needs, or did not report them', () => {
    const fenced = replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], fencing: { required: 1, maxLagSeconds: 2, good: 0 } })[0];
    expect(fenced).toMatchObject({ status: 'False', reason: 'WritesFenced' });
    expect(fenced?.message).toContain('the primary has 0 good replica(s), and spec.failover.minReplicasToWrite is 1');
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], fencing: { required: 1, maxLagSeconds: 2, good: undefined } })[0]).toMatchObject({ reason: 'WritesFenced' });
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], fencing: { required: 2, maxLagSeconds: 2, good: 2 } })).toEqual([readyTrue]);
    // A more specific reason wins, and a topology that is not Ready keeps its own.
    expect(replicationConditions({ conditions: [readyTrue] }, { members: 3, desired: 3, problems: [], unready: ['cache-2'], fencing: { required: 1, maxLagSeconds: 2, good: 0 } })[0]).toMatchObject({ reason: 'MembersNotReady' });
    expect(replicationConditions({ conditions: [primaryDown] }, { members: 3, desired: 3, problems: [], fencing: { required: 1, maxLagSeconds: 2, good: 0 } })[0]).toMatchObject({ reason: 'PrimaryUnavailable' });
  });
});

