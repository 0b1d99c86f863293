import { VirtualClock } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { MemberInfo } from './info.ts';
import { decideTopology, INITIAL_MEMORY } from './topology.ts';
import type { FailoverSettings, MemberObservation, TopologyAction, TopologyDecision, TopologyMemory } from './topology.ts';
import type { RoleLabel } from './manifests.ts';

const PORT = 6379;
const ip = (ordinal: number): string => `10.0.0.${ordinal + 10}`;
const pod = (ordinal: number): string => `cache-${ordinal}`;
const FAILOVER: FailoverSettings = { enabled: true, downAfterMilliseconds: 5000 };

interface PrimaryShape {
  readonly offset?: number;
  readonly keys?: number;
}
interface ReplicaShape {
  readonly of: number;
  readonly offset?: number;
  readonly keys?: number;
  readonly linkUp?: boolean;
}

function primaryInfo(shape: PrimaryShape = {}): MemberInfo {
  return { replication: { role: 'primary', offset: shape.offset ?? 100, replid: 'a'.repeat(40), replicas: [] }, keys: shape.keys ?? 1 };
}

function replicaInfo(shape: ReplicaShape): MemberInfo {
  return {
    replication: {
      role: 'replica',
      primaryHost: ip(shape.of),
      primaryPort: PORT,
      linkUp: shape.linkUp ?? true,
      syncInProgress: false,
      offset: shape.offset ?? 100,
      replid: 'a'.repeat(40),
    },
    keys: shape.keys ?? 1,
  };
}

function member(ordinal: number, info: MemberInfo | undefined, label?: RoleLabel): MemberObservation {
  return {
    pod: pod(ordinal),
    ordinal,
    address: { host: ip(ordinal), port: PORT },
    ...(label === undefined ? {} : { label }),
    ...(info === undefined ? { error: 'connect ECONNREFUSED' } : { info }),
  };
}

/** The labels after applying the setRole actions of `plan` one at a time; throws if two Pods are ever primary. */
function labelsThrough(members: readonly MemberObservation[], plan: readonly TopologyAction[]): Map<string, RoleLabel | undefined> {
  const labels = new Map(members.map((m) => [m.pod, m.label]));
  const check = (): void => {
    const primaries = [...labels.values()].filter((l) => l === 'primary').length;
    if (primaries > 1) throw new Error(`two Pods labelled primary: ${JSON.stringify([...labels])}`);
  };
  check();
  for (const action of plan) {
    if (action.kind === 'setRole') labels.set(action.pod, action.role);
    check();
  }
  return labels;
}

function conditionOf(decision: TopologyDecision, type: string): { status: string; reason: string } | undefined {
  return decision.conditions.find((c) => c.type === type);
}

/** A healthy set: cache-0 primary, cache-1 and cache-2 linked replicas, labels in place. */
function healthy(offsets: readonly [number, number, number] = [100, 100, 100]): MemberObservation[] {
  return [
    member(0, primaryInfo({ offset: offsets[0] }), 'primary'),
    member(1, replicaInfo({ of: 0, offset: offsets[1] }), 'replica'),
    member(2, replicaInfo({ of: 0, offset: offsets[2] }), 'replica'),
  ];
}

describe('decideTopology: a fresh set', () => {
  it('makes the lowest ordinal primary and the others its replicas, labelling after REPLICAOF', () => {
    const members = [0, 1, 2].map((o) => member(o, primaryInfo({ offset: 0, keys: 0 })));
    const decision = decideTopology({ members, memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 });
    expect(decision.primary).toBe('cache-0');
    expect(decision.actions).toEqual([
      { kind: 'setRole', pod: 'cache-0', role: 'primary' },
      { kind: 'replicaOf', pod: 'cache-1', primary: 'cache-0', address: { host: ip(0), port: PORT } },
      { kind: 'setRole', pod: 'cache-1', role: 'replica' },
      { kind: 'replicaOf', pod: 'cache-2', primary: 'cache-0', address: { host: ip(0), port: PORT } },
      { kind: 'setRole', pod: 'cache-2', role: 'replica' },
    ]);
    expect(decision.events).toEqual([]);
    expect(conditionOf(decision, 'Ready')).toMatchObject({ status: 'False', reason: 'TopologyConverging' });
    expect(decision.memory.primary).toBe('cache-0');
  });

  it('prefers a member with data as the first primary (existing volumes)', () => {
    const members = [member(0, primaryInfo({ offset: 0, keys: 0 })), member(1, primaryInfo({ offset: 0, keys: 7 }))];
    expect(decideTopology({ members, memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 }).primary).toBe('cache-1');
  });
});

describe('decideTopology: steady state', () => {
  it('plans nothing and reports Ready when one primary has every replica linked', () => {
    const decision = decideTopology({ members: healthy([120, 100, 90]), memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 });
    expect(decision.actions).toEqual([]);
    expect(decision.members).toEqual([
      { pod: 'cache-0', role: 'primary', linkUp: true },
      { pod: 'cache-1', role: 'replica', linkUp: true, lagBytes: 20 },
      { pod: 'cache-2', role: 'replica', linkUp: true, lagBytes: 30 },
    ]);
    expect(decision.readyReplicas).toBe(3);
    expect(decision.conditions).toEqual([
      { type: 'Ready', status: 'True', reason: 'TopologyConverged', message: 'cache-0 is primary; 2 replica(s) linked' },
      { type: 'Degraded', status: 'False', reason: 'AllMembersHealthy', message: 'every member answers and is linked' },
      { type: 'FailoverInProgress', status: 'False', reason: 'NoFailover', message: 'no failover in progress' },
    ]);
  });

  it('repoints a replica that follows another address', () => {
    const members = healthy();
    members[2] = member(2, replicaInfo({ of: 9 }), 'replica');
    const decision = decideTopology({ members, memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 });
    expect(decision.actions).toEqual([{ kind: 'replicaOf', pod: 'cache-2', primary: 'cache-0', address: { host: ip(0), port: PORT } }]);
  });

  it('reports ReplicaLinkDown for a replica pointed right whose link is down, and plans nothing', () => {
    const members = healthy();
    members[1] = member(1, replicaInfo({ of: 0, linkUp: false }), 'replica');
    const decision = decideTopology({ members, memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 });
    expect(decision.actions).toEqual([]);
    expect(conditionOf(decision, 'Ready')).toMatchObject({ status: 'False', reason: 'ReplicaLinkDown' });
    expect(conditionOf(decision, 'Degraded')).toMatchObject({ status: 'True', reason: 'ReplicaLinkDown' });
    expect(decision.members[1]).toMatchObject({ pod: 'cache-1', linkUp: false });
  });

  it('reports an unreachable replica as MemberUnreachable and plans nothing for it', () => {
    const members = healthy();
    members[2] = member(2, undefined, 'replica');
    const decision = decideTopology({ members, memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 });
    expect(decision.actions).toEqual([]);
    expect(conditionOf(decision, 'Degraded')).toMatchObject({ status: 'True', reason: 'MemberUnreachable' });
    expect(decision.members[2]).toEqual({ pod: 'cache-2', role: 'unknown', linkUp: false });
    expect(decision.memory.unreachableSince).toEqual({ 'cache-2': 0 });
  });
});

describe('decideTopology: failover on a VirtualClock', () => {
  async function primaryDownFor(ms: number, offsets: readonly [number, number, number], failover = FAILOVER): Promise<TopologyDecision> {
    const clock = new VirtualClock(1_000);
    const members = healthy(offsets);
    members[0] = member(0, undefined, 'primary');
    members[1] = member(1, replicaInfo({ of: 0, offset: offsets[1], linkUp: false }), 'replica');
    members[2] = member(2, replicaInfo({ of: 0, offset: offsets[2], linkUp: false }), 'replica');
    let memory: TopologyMemory = { primary: 'cache-0', unreachableSince: {} };
    const first = decideTopology({ members, memory, failover, now: clock.now() });
    expect(first.actions).toEqual([]);
    memory = first.memory;
    await clock.advance(ms);
    return decideTopology({ members, memory, failover, now: clock.now() });
  }

  it('waits while the primary has been unreachable for less than downAfterMilliseconds', async () => {
    const decision = await primaryDownFor(4_999, [100, 90, 80]);
    expect(decision.actions).toEqual([]);
    expect(decision.requeueAfterMs).toBe(1);
    expect(conditionOf(decision, 'Ready')).toMatchObject({ status: 'False', reason: 'PrimaryUnavailable' });
    expect(conditionOf(decision, 'FailoverInProgress')).toMatchObject({ status: 'False' });
  });

  it('counts the time a frozen primary was given to answer, and asks to look again so that the next wait ends at the deadline', () => {
    const frozen = (): MemberObservation[] => {
      const members = healthy([100, 90, 80]);
      members[0] = { ...member(0, undefined, 'primary'), unansweredForMs: 1_000 };
      return members;
    };
    // Asked at 0, silent until 1,000: down 1,000 ms; the next ask should start at 4,000 to end at 5,000.
    const first = decideTopology({ members: frozen(), memory: { primary: 'cache-0', unreachableSince: {} }, failover: FAILOVER, now: 0 });
    expect(first.memory.unreachableSince).toEqual({ 'cache-0': 0 });
    expect(first.requeueAfterMs).toBe(3_000);
    expect(conditionOf(first, 'Ready')).toMatchObject({ status: 'False', reason: 'PrimaryUnavailable' });
    expect(first.conditions.find((c) => c.type === 'Ready')?.message).toContain('has not answered for 1000 ms');
    // Asked at 4,000 and silent until 5,000: downAfterMilliseconds is up, the best replica is promoted.
    const second = decideTopology({ members: frozen(), memory: first.memory, failover: FAILOVER, now: 4_000 });
    expect(second.primary).toBe('cache-1');
    expect(second.failoverStarted).toBe(true);
    // A refused connection (no wait) proves silence only until it was refused.
    const refused = decideTopology({ members: frozen().map((m) => (m.pod === 'cache-0' ? { ...m, unansweredForMs: 2 } : m)), memory: first.memory, failover: FAILOVER, now: 4_000 });
    expect(refused.actions).toEqual([]);
    expect(refused.requeueAfterMs).toBe(996);
  });

  it('promotes the replica with the highest offset after downAfterMilliseconds, repoints the other, moves labels', async () => {
    const decision = await primaryDownFor(5_000, [100, 80, 95]);
    expect(decision.primary).toBe('cache-2');
    expect(decision.actions).toEqual([
      { kind: 'setRole', pod: 'cache-0', role: 'replica' },
      { kind: 'promote', pod: 'cache-2' },
      { kind: 'setRole', pod: 'cache-2', role: 'primary' },
      { kind: 'replicaOf', pod: 'cache-1', primary: 'cache-2', address: { host: ip(2), port: PORT } },
    ]);
    expect(decision.failoverStarted).toBe(true);
    expect(decision.memory.failover).toEqual({ from: 'cache-0', to: 'cache-2', startedAt: 6_000 });
    expect(conditionOf(decision, 'FailoverInProgress')).toMatchObject({ status: 'True', reason: 'FailoverStarted' });
    expect(decision.events).toContainEqual(expect.objectContaining({ type: 'Warning', reason: 'FailoverStarted' }));
  });

  it('breaks an offset tie by the lowest ordinal', async () => {
    expect((await primaryDownFor(5_000, [100, 90, 90])).primary).toBe('cache-1');
  });

  it('never promotes an empty replica over one with data, whatever the ordinals', async () => {
    const clock = new VirtualClock();
    const members = [
      member(0, undefined, 'primary'),
      member(1, replicaInfo({ of: 0, offset: 0, keys: 0, linkUp: false }), 'replica'),
      member(2, replicaInfo({ of: 0, offset: 0, keys: 3, linkUp: false }), 'replica'),
      member(3, replicaInfo({ of: 0, offset: 0, keys: 0, linkUp: false }), 'replica'),
    ];
    const memory = decideTopology({ members, memory: { primary: 'cache-0', unreachableSince: {} }, failover: FAILOVER, now: clock.now() }).memory;
    await clock.advance(5_000);
    const decision = decideTopology({ members, memory, failover: FAILOVER, now: clock.now() });
    expect(decision.primary).toBe('cache-2');
  });

  it('never promotes a never-synchronised replica (offset 0) over one with a replicated offset', async () => {
    expect((await primaryDownFor(5_000, [100, 0, 1])).primary).toBe('cache-2');
  });

  it('only reports when failover is disabled', async () => {
    const decision = await primaryDownFor(60_000, [100, 90, 80], { enabled: false, downAfterMilliseconds: 5_000 });
    expect(decision.actions).toEqual([]);
    expect(decision.failoverStarted).toBe(false);
    expect(conditionOf(decision, 'Ready')).toMatchObject({ status: 'False', reason: 'PrimaryUnavailable' });
    expect(conditionOf(decision, 'Ready')?.reason).toBe('PrimaryUnavailable');
  });

  it('reports PrimaryUnavailable and plans nothing when every member is down', async () => {
    const clock = new VirtualClock();
    const members = [member(0, undefined, 'primary'), member(1, undefined, 'replica'), member(2, undefined, 'replica')];
    let memory: TopologyMemory = { primary: 'cache-0', unreachableSince: {} };
    memory = decideTopology({ members, memory, failover: FAILOVER, now: clock.now() }).memory;
    await clock.advance(60_000);
    const decision = decideTopology({ members, memory, failover: FAILOVER, now: clock.now() });
    expect(decision.actions).toEqual([]);
    expect(decision.primary).toBeUndefined();
    expect(decision.memory.primary).toBe('cache-0');
    expect(conditionOf(decision, 'Ready')).toMatchObject({ status: 'False', reason: 'PrimaryUnavailable' });
    expect(conditionOf(decision, 'Degraded')).toMatchObject({ status: 'True', reason: 'PrimaryUnavailable' });
  });

  it('restarts the wait when the primary answers in between', async () => {
    const clock = new VirtualClock();
    const down = healthy();
    down[0] = member(0, undefined, 'primary');
    let memory = decideTopology({ members: down, memory: INITIAL_MEMORY, failover: FAILOVER, now: clock.now() }).memory;
    await clock.advance(3_000);
    memory = decideTopology({ members: healthy(), memory, failover: FAILOVER, now: clock.now() }).memory;
    expect(memory.unreachableSince).toEqual({});
    await clock.advance(3_000);
    memory = decideTopology({ members: down, memory, failover: FAILOVER, now: clock.now() }).memory;
    await clock.advance(3_000);
    expect(decideTopology({ members: down, memory, failover: FAILOVER, now: clock.now() }).actions).toEqual([]);
  });

  it('keeps FailoverInProgress until the new topology is verified, then completes it', () => {
    const memory: TopologyMemory = { primary: 'cache-2', unreachableSince: { 'cache-0': 0 }, failover: { from: 'cache-0', to: 'cache-2', startedAt: 5_000 } };
    const syncing = [
      member(0, undefined, 'replica'),
      member(1, replicaInfo({ of: 2, linkUp: false }), 'replica'),
      member(2, primaryInfo(), 'primary'),
    ];
    const pending = decideTopology({ members: syncing, memory, failover: FAILOVER, now: 6_000 });
    expect(pending.actions).toEqual([]);
    expect(conditionOf(pending, 'FailoverInProgress')).toMatchObject({ status: 'True' });
    expect(pending.memory.failover).toBeDefined();

    const linked = [syncing[0]!, member(1, replicaInfo({ of: 2 }), 'replica'), syncing[2]!];
    const done = decideTopology({ members: linked, memory: pending.memory, failover: FAILOVER, now: 7_000 });
    expect(conditionOf(done, 'FailoverInProgress')).toMatchObject({ status: 'False', reason: 'FailoverCompleted' });
    expect(done.memory.failover).toBeUndefined();
    expect(done.events).toContainEqual(expect.objectContaining({ reason: 'FailoverCompleted' }));
  });

  it('abandons a failover whose promotion never happened when the old primary answers again', () => {
    const memory: TopologyMemory = { primary: 'cache-2', unreachableSince: { 'cache-0': 0 }, failover: { from: 'cache-0', to: 'cache-2', startedAt: 5_000 } };
    const decision = decideTopology({ members: healthy(), memory, failover: FAILOVER, now: 6_000 });
    expect(decision.primary).toBe('cache-0');
    expect(decision.actions).toEqual([]);
    expect(decision.memory).toEqual({ primary: 'cache-0', unreachableSince: {} });
    expect(decision.events).toContainEqual(expect.objectContaining({ reason: 'PrimaryAdopted' }));
    expect(decision.events).toContainEqual(expect.objectContaining({ reason: 'FailoverAbandoned' }));
    expect(conditionOf(decision, 'FailoverInProgress')).toMatchObject({ status: 'False' });
    expect(conditionOf(decision, 'Ready')).toMatchObject({ status: 'True' });
  });

  it('retries the promotion when the plan stopped before REPLICAOF NO ONE', () => {
    const memory: TopologyMemory = { primary: 'cache-2', unreachableSince: { 'cache-0': 0 }, failover: { from: 'cache-0', to: 'cache-2', startedAt: 5_000 } };
    const members = [
      member(0, undefined, 'replica'),
      member(1, replicaInfo({ of: 0, linkUp: false }), 'replica'),
      member(2, replicaInfo({ of: 0, linkUp: false }), 'replica'),
    ];
    const decision = decideTopology({ members, memory, failover: FAILOVER, now: 6_000 });
    expect(decision.actions).toEqual([
      { kind: 'promote', pod: 'cache-2' },
      { kind: 'setRole', pod: 'cache-2', role: 'primary' },
      { kind: 'replicaOf', pod: 'cache-1', primary: 'cache-2', address: { host: ip(2), port: PORT } },
    ]);
  });
});

describe('decideTopology: an old primary comes back', () => {
  const memory: TopologyMemory = { primary: 'cache-2', unreachableSince: { 'cache-0': 0 }, failover: { from: 'cache-0', to: 'cache-2', startedAt: 5_000 } };

  it('demotes it with REPLICAOF the new primary and never labels it primary', () => {
    const members = [
      member(0, primaryInfo({ offset: 0, keys: 0 }), 'replica'),
      member(1, replicaInfo({ of: 2 }), 'replica'),
      member(2, primaryInfo(), 'primary'),
    ];
    const decision = decideTopology({ members, memory, failover: FAILOVER, now: 9_000 });
    expect(decision.primary).toBe('cache-2');
    expect(decision.actions).toEqual([{ kind: 'replicaOf', pod: 'cache-0', primary: 'cache-2', address: { host: ip(2), port: PORT } }]);
    expect(decision.events).toContainEqual(expect.objectContaining({ reason: 'PrimaryDemoted' }));
    expect(decision.memory.unreachableSince).toEqual({});
    expect(conditionOf(decision, 'FailoverInProgress')).toMatchObject({ status: 'True' });
  });

  it('keeps the new primary even when the old one returns with a higher offset, and takes its primary label first', () => {
    const members = [
      member(0, primaryInfo({ offset: 5_000, keys: 50 }), 'primary'),
      member(1, replicaInfo({ of: 2 }), 'replica'),
      member(2, primaryInfo({ offset: 200 })),
    ];
    const decision = decideTopology({ members, memory, failover: FAILOVER, now: 9_000 });
    expect(decision.primary).toBe('cache-2');
    expect(decision.actions[0]).toEqual({ kind: 'setRole', pod: 'cache-0', role: 'replica' });
    expect(decision.actions).toContainEqual({ kind: 'replicaOf', pod: 'cache-0', primary: 'cache-2', address: { host: ip(2), port: PORT } });
    expect(labelsThrough(members, decision.actions).get('cache-2')).toBe('primary');
  });
});

describe('decideTopology: split brain', () => {
  it('keeps the labelled primary and demotes the other primary', () => {
    const members = healthy([100, 100, 100]);
    members[1] = member(1, primaryInfo({ offset: 400, keys: 9 }), 'replica');
    const decision = decideTopology({ members, memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 });
    expect(decision.primary).toBe('cache-0');
    expect(decision.actions).toEqual([{ kind: 'replicaOf', pod: 'cache-1', primary: 'cache-0', address: { host: ip(0), port: PORT } }]);
    expect(decision.events).toContainEqual(expect.objectContaining({ type: 'Warning', reason: 'PrimaryDemoted' }));
  });

  it('without a labelled or remembered primary keeps the one with the highest offset', () => {
    const members = [
      member(0, primaryInfo({ offset: 100 })),
      member(1, primaryInfo({ offset: 300 })),
      member(2, replicaInfo({ of: 0 })),
    ];
    const decision = decideTopology({ members, memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 });
    expect(decision.primary).toBe('cache-1');
    expect(decision.actions.filter((a) => a.kind === 'replicaOf').map((a) => a.pod)).toEqual(['cache-0', 'cache-2']);
  });

  it('with two Pods labelled primary unlabels the loser before anything else', () => {
    const members = [
      member(0, primaryInfo({ offset: 100 }), 'primary'),
      member(1, primaryInfo({ offset: 300 }), 'primary'),
      member(2, replicaInfo({ of: 1 }), 'replica'),
    ];
    const decision = decideTopology({ members, memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 });
    expect(decision.primary).toBe('cache-1');
    expect(decision.actions[0]).toEqual({ kind: 'setRole', pod: 'cache-0', role: 'replica' });
    expect(decision.actions[1]).toEqual({ kind: 'replicaOf', pod: 'cache-0', primary: 'cache-1', address: { host: ip(1), port: PORT } });
  });

  it('prefers the remembered primary over a stale label', () => {
    const members = [member(0, primaryInfo(), 'primary'), member(1, primaryInfo(), 'replica')];
    const decision = decideTopology({ members, memory: { primary: 'cache-1', unreachableSince: {} }, failover: FAILOVER, now: 0 });
    expect(decision.primary).toBe('cache-1');
    expect(decision.actions).toEqual([
      { kind: 'setRole', pod: 'cache-0', role: 'replica' },
      { kind: 'setRole', pod: 'cache-1', role: 'primary' },
      { kind: 'replicaOf', pod: 'cache-0', primary: 'cache-1', address: { host: ip(1), port: PORT } },
    ]);
  });
});

describe('decideTopology: a primary that restarted empty', () => {
  it('fails over at once to the replica still holding keys', () => {
    const members = [
      member(0, primaryInfo({ offset: 0, keys: 0 }), 'primary'),
      member(1, replicaInfo({ of: 0, offset: 500, keys: 10, linkUp: false }), 'replica'),
      member(2, replicaInfo({ of: 0, offset: 400, keys: 10, linkUp: false }), 'replica'),
    ];
    const decision = decideTopology({ members, memory: { primary: 'cache-0', unreachableSince: {} }, failover: FAILOVER, now: 0 });
    expect(decision.primary).toBe('cache-1');
    expect(decision.failoverStarted).toBe(true);
    expect(decision.actions).toEqual([
      { kind: 'setRole', pod: 'cache-0', role: 'replica' },
      { kind: 'promote', pod: 'cache-1' },
      { kind: 'setRole', pod: 'cache-1', role: 'primary' },
      { kind: 'replicaOf', pod: 'cache-0', primary: 'cache-1', address: { host: ip(1), port: PORT } },
      { kind: 'replicaOf', pod: 'cache-2', primary: 'cache-1', address: { host: ip(1), port: PORT } },
    ]);
  });

  it('is left alone (reported) when failover is disabled', () => {
    const members = [member(0, primaryInfo({ offset: 0, keys: 0 }), 'primary'), member(1, replicaInfo({ of: 0, keys: 10, linkUp: false }), 'replica')];
    const decision = decideTopology({ members, memory: INITIAL_MEMORY, failover: { enabled: false, downAfterMilliseconds: 5_000 }, now: 0 });
    expect(decision.actions).toEqual([]);
    expect(conditionOf(decision, 'Ready')).toMatchObject({ status: 'False', reason: 'PrimaryUnavailable' });
  });
});

describe('decideTopology: a primary that restarted with the data on its volume', () => {
  // The kubelet restarts a killed container at once the first time, and with a claim the member loads its last
  // snapshot: it answers again within downAfterMilliseconds, with keys, but older than what it acknowledged.
  const withRunId = (info: MemberInfo, runId: string): MemberInfo => ({ ...info, runId });
  const linkedBefore = (): MemberObservation[] => [
    member(0, withRunId(primaryInfo({ offset: 900, keys: 21 }), 'run-1'), 'primary'),
    member(1, replicaInfo({ of: 0, offset: 850, keys: 20 }), 'replica'),
    member(2, replicaInfo({ of: 0, offset: 900, keys: 21 }), 'replica'),
  ];
  // Back from a snapshot: another run_id, an older offset; the replicas' links are down, their offsets and keys
  // are still what they replicated (until the full resynchronisation the primary offers them loads).
  const restarted = (): MemberObservation[] => [
    member(0, withRunId(primaryInfo({ offset: 300, keys: 5 }), 'run-2'), 'primary'),
    member(1, replicaInfo({ of: 0, offset: 850, keys: 20, linkUp: false }), 'replica'),
    member(2, replicaInfo({ of: 0, offset: 900, keys: 21, linkUp: false }), 'replica'),
  ];

  it('remembers the run_id and the linked replicas with their offsets, and keeps them while the primary does not answer', () => {
    const memory = decideTopology({ members: linkedBefore(), memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 }).memory;
    expect(memory).toMatchObject({ primary: 'cache-0', primaryRunId: 'run-1', linkedReplicas: ['cache-1', 'cache-2'] });
    const down = [member(0, undefined, 'primary'), ...linkedBefore().slice(1)];
    expect(decideTopology({ members: down, memory, failover: FAILOVER, now: 1_000 }).memory).toMatchObject({ primaryRunId: 'run-1', linkedReplicas: ['cache-1', 'cache-2'] });
  });

  it('fails over at once to the linked replica with the highest offset when the run_id changed', () => {
    const memory = decideTopology({ members: linkedBefore(), memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 }).memory;
    const decision = decideTopology({ members: restarted(), memory, failover: FAILOVER, now: 1_500 });
    expect(decision.primary).toBe('cache-2');
    expect(decision.failoverStarted).toBe(true);
    expect(decision.actions).toEqual([
      { kind: 'setRole', pod: 'cache-0', role: 'replica' },
      { kind: 'promote', pod: 'cache-2' },
      { kind: 'setRole', pod: 'cache-2', role: 'primary' },
      { kind: 'replicaOf', pod: 'cache-0', primary: 'cache-2', address: { host: ip(2), port: PORT } },
      { kind: 'replicaOf', pod: 'cache-1', primary: 'cache-2', address: { host: ip(2), port: PORT } },
    ]);
    expect(decision.events).toContainEqual(
      expect.objectContaining({ reason: 'FailoverStarted', message: expect.stringContaining('cache-0 restarted with the data on its volume (offset 300, 5 keys)') as unknown }),
    );
    expect(decision.memory).not.toHaveProperty('primaryRunId');
  });

  it('keeps the primary when no replica was linked to it, when none answers with keys, or when it did not restart', () => {
    const unlinked = { primary: 'cache-0', unreachableSince: {}, primaryRunId: 'run-1', linkedReplicas: [] };
    expect(decideTopology({ members: restarted(), memory: unlinked, failover: FAILOVER, now: 0 }).primary).toBe('cache-0');
    const memory = decideTopology({ members: linkedBefore(), memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 }).memory;
    const emptied = [restarted()[0]!, member(1, replicaInfo({ of: 0, offset: 1, keys: 0, linkUp: false }), 'replica'), member(2, undefined, 'replica')];
    expect(decideTopology({ members: emptied, memory, failover: FAILOVER, now: 0 }).failoverStarted).toBe(false);
    const same = decideTopology({ members: linkedBefore(), memory, failover: FAILOVER, now: 2_000 });
    expect(same.primary).toBe('cache-0');
    expect(same.actions).toEqual([]);
  });

  it('keeps the primary without a remembered run_id (after an operator restart) and with failover disabled', () => {
    expect(decideTopology({ members: restarted(), memory: { primary: 'cache-0', unreachableSince: {} }, failover: FAILOVER, now: 0 }).primary).toBe('cache-0');
    const memory = decideTopology({ members: linkedBefore(), memory: INITIAL_MEMORY, failover: FAILOVER, now: 0 }).memory;
    const disabled = decideTopology({ members: restarted(), memory, failover: { enabled: false, downAfterMilliseconds: 5_000 }, now: 0 });
    expect(disabled.primary).toBe('cache-0');
    expect(disabled.failoverStarted).toBe(false);
  });
});

describe('decideTopology: invariants', () => {
  const shapes: MemberInfo[] = [
    primaryInfo({ offset: 0, keys: 0 }),
    primaryInfo({ offset: 300 }),
    replicaInfo({ of: 0 }),
    replicaInfo({ of: 1, linkUp: false, offset: 50 }),
    replicaInfo({ of: 2, offset: 0, keys: 0 }),
  ];
  const labels: (RoleLabel | undefined)[] = [undefined, 'primary', 'replica'];

  it('never labels two Pods primary at any point of any plan, and leaves exactly one primary label', () => {
    let plans = 0;
    for (let seed = 0; seed < 3 ** 3 * 6 ** 3; seed++) {
      let n = seed;
      const members: MemberObservation[] = [];
      for (let o = 0; o < 3; o++) {
        const label = labels[n % 3];
        n = Math.floor(n / 3);
        const shape = n % 6;
        n = Math.floor(n / 6);
        members.push(member(o, shapes[shape], label));
      }
      if (members.filter((m) => m.label === 'primary').length > 1) continue;
      const decision = decideTopology({ members, memory: { primary: 'cache-0', unreachableSince: { 'cache-0': 0 } }, failover: FAILOVER, now: 10_000 });
      const after = labelsThrough(members, decision.actions);
      if (decision.actions.length > 0) {
        plans++;
        expect([...after.values()].filter((l) => l === 'primary')).toHaveLength(1);
        expect(after.get(decision.primary ?? '')).toBe('primary');
      }
    }
    expect(plans).toBeGreaterThan(100);
  });
});
