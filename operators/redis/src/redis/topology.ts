/**
 * The replication topology as a pure state machine: from what every member reports (INFO replication), the
 * role labels on the Pods and a small memory of earlier steps, {@link decideTopology} decides the one primary,
 * the ordered actions that converge the members on it, the status to report and the memory for the next step.
 *
 * Rules, in the order they apply:
 * 1. The primary is the one remembered from the last step, else the Pod labelled primary, else (a fresh set or
 *    a lost memory) the best reachable primary by {@link compareCandidates}: data before no data, then highest
 *    replication offset, then lowest ordinal. The labelled primary wins over a higher offset because it is the
 *    one the primary Service has been sending writes to.
 * 2. A primary that does not answer is waited for `downAfterMilliseconds`, measured on the caller's clock from
 *    when the first step that saw it unreachable asked it, to when the latest step gave up on it (`now` plus that
 *    step's {@link MemberObservation.unansweredForMs}: a frozen member was still silent then); the step before
 *    the deadline asks to be run again so that its own wait for an answer ends at the deadline. After that, when failover is enabled, the best reachable member
 *    by the same order is promoted. A member without data is never chosen over one with data. With nothing
 *    reachable, or failover disabled, nothing is done: the status says `PrimaryUnavailable`.
 * 3. A primary that answers but restarted empty (offset 0, no keys) while a replica still holds keys has lost
 *    its data: it is failed over at once, before the replicas resynchronise from it and lose theirs too. So is a
 *    primary that restarted with data (its `run_id` changed since it last answered): what it loaded from its volume
 *    is a snapshot older than what it acknowledged, and the replicas linked to it then hold the rest. It is failed
 *    over to the best of them (by the order of rule 1) that still answers with keys.
 * 4. Every other reachable member that is a primary (a returning old primary, split brain) is demoted with
 *    REPLICAOF the primary; a replica pointed elsewhere is repointed.
 * 5. Actions are ordered so that no plan ever labels two Pods primary: first every other Pod loses the primary
 *    label, then the primary is promoted, then labelled, then the others are demoted or repointed, and only then
 *    labelled replica.
 * 6. A failover stays in progress until a step needs no action and every reachable member replicates from the
 *    new primary with its link up.
 */
import { READY_CONDITION } from '@domain-operators/reconcile';
import type { MemberRole, RedisMemberStatus, RedisReplicationSpec } from '../api/v1alpha1/index.ts';
import { MEMBER_REASONS } from './errors.ts';
import type { MemberInfo, ReplicationInfo } from './info.ts';
import type { RoleLabel } from './manifests.ts';

/** Where a member listens. */
export interface MemberAddress {
  readonly host: string;
  readonly port: number;
}

/** One member as observed in this step. */
export interface MemberObservation {
  /** Pod name, e.g. `cache-2`. */
  readonly pod: string;
  /** The StatefulSet ordinal of the Pod. */
  readonly ordinal: number;
  /** The Pod IP and Redis port; absent while the Pod has no IP. */
  readonly address?: MemberAddress;
  /** The Pod's current role label, if any. */
  readonly label?: RoleLabel;
  /** What the member answered; absent when it could not be asked (it counts as unreachable). */
  readonly info?: MemberInfo;
  /** Why it could not be asked (no secrets), for status messages. */
  readonly error?: string;
  /**
   * Without `info`: how long after `now` the member was given to answer before the step gave up on it (the
   * deadline of a frozen member; about 0 for a refused connection). Absent counts as 0.
   */
  readonly unansweredForMs?: number;
}

/** The failover settings of `spec.failover`, with the schema's defaults applied. */
export type FailoverSettings = Pick<NonNullable<RedisReplicationSpec['failover']>, 'enabled' | 'downAfterMilliseconds'>;

/** A promotion that has not yet been verified. Times are on the caller's clock. */
export interface FailoverRecord {
  readonly from: string;
  readonly to: string;
  readonly startedAt: number;
}

/**
 * What one step hands to the next. Keep it in memory per RedisReplication; after an operator restart start from
 * {@link INITIAL_MEMORY} with `primary` set from `status.primary` (a lost `unreachableSince` only delays a
 * failover by at most `downAfterMilliseconds`).
 */
export interface TopologyMemory {
  /** The primary decided last. */
  readonly primary?: string;
  /** Per Pod, the clock time of the first step that found it unreachable; only unreachable Pods are listed. */
  readonly unreachableSince: Readonly<Record<string, number>>;
  readonly failover?: FailoverRecord;
  /** `run_id` of `primary` when it last answered as primary: another one means that it restarted since. */
  readonly primaryRunId?: string;
  /** The replicas linked to `primary` when it last answered (only with `primaryRunId`). */
  readonly linkedReplicas?: readonly string[];
}

/** The memory of a RedisReplication never seen before. */
export const INITIAL_MEMORY: TopologyMemory = { unreachableSince: {} };

/** Input of {@link decideTopology}. */
export interface TopologyInput {
  readonly members: readonly MemberObservation[];
  readonly memory: TopologyMemory;
  readonly failover: FailoverSettings;
  /** Now, on the same clock as the memory's times. */
  readonly now: number;
}

/** `REPLICAOF NO ONE` on `pod`. */
export interface PromoteAction {
  readonly kind: 'promote';
  readonly pod: string;
}

/** `REPLICAOF <address>` on `pod`, making it a replica of `primary`. */
export interface ReplicaOfAction {
  readonly kind: 'replicaOf';
  readonly pod: string;
  readonly primary: string;
  readonly address: MemberAddress;
}

/** Set the role label of `pod`. */
export interface SetRoleAction {
  readonly kind: 'setRole';
  readonly pod: string;
  readonly role: RoleLabel;
}

/** One step of a plan. Plans are executed in order and stopped at the first failure. */
export type TopologyAction = PromoteAction | ReplicaOfAction | SetRoleAction;

/** A condition as this step computes it; the reconciler adds times and `observedGeneration`. */
export interface TopologyCondition {
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/** A Kubernetes Event to emit about the RedisReplication. */
export interface TopologyEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** Everything one step decides. */
export interface TopologyDecision {
  /** Ordered; empty when the topology is as it should be (or nothing may be done). */
  readonly actions: readonly TopologyAction[];
  readonly memory: TopologyMemory;
  /** The primary after the actions, if there is one. */
  readonly primary?: string;
  /** In ordinal order, as observed in this step (before the actions). */
  readonly members: readonly RedisMemberStatus[];
  /** The primary when it answers plus the replicas linked to it, as observed. */
  readonly readyReplicas: number;
  /** `Ready`, `Degraded`, `FailoverInProgress`. */
  readonly conditions: readonly TopologyCondition[];
  readonly events: readonly TopologyEvent[];
  /** True when this step started a promotion (the reconciler sets `lastFailoverTime`). */
  readonly failoverStarted: boolean;
  /**
   * Set while waiting for `downAfterMilliseconds`: when to ask again so that the next wait for the primary's answer
   * ends at the deadline.
   */
  readonly requeueAfterMs?: number;
  /** With `requeueAfterMs`: how long this step waited for the primary's answer (see {@link MemberObservation.unansweredForMs}). */
  readonly primaryAskMs?: number;
}

/** The condition types of a RedisReplication that a topology step computes. */
export const CONDITION_TYPES = {
  ready: READY_CONDITION,
  degraded: 'Degraded',
  failoverInProgress: 'FailoverInProgress',
} as const;

/** Condition reasons this module reports. */
export const TOPOLOGY_REASONS = {
  converged: 'TopologyConverged',
  converging: 'TopologyConverging',
  primaryUnavailable: MEMBER_REASONS.primaryUnavailable,
  memberUnreachable: MEMBER_REASONS.unreachable,
  replicaLinkDown: 'ReplicaLinkDown',
  healthy: 'AllMembersHealthy',
  failoverStarted: 'FailoverStarted',
  failoverCompleted: 'FailoverCompleted',
  noFailover: 'NoFailover',
  noMembers: 'NoMembers',
} as const;

interface Reachable extends MemberObservation {
  readonly info: MemberInfo;
  readonly address: MemberAddress;
}

function isReachable(m: MemberObservation): m is Reachable {
  return m.info !== undefined && m.address !== undefined;
}

function offsetOf(info: MemberInfo): number {
  return info.replication.offset;
}

/** A member holds data when it has keys or has received any replication stream. */
function hasData(info: MemberInfo): boolean {
  return info.keys > 0 || offsetOf(info) > 0;
}

/**
 * Order of preference for a primary: members with data first, then the highest replication offset, then the
 * lowest ordinal. Negative when `a` is preferred. Pure.
 */
export function compareCandidates(a: Reachable, b: Reachable): number {
  const data = Number(hasData(b.info)) - Number(hasData(a.info));
  if (data !== 0) return data;
  const offset = offsetOf(b.info) - offsetOf(a.info);
  if (offset !== 0) return offset;
  return a.ordinal - b.ordinal;
}

function best(candidates: readonly Reachable[]): Reachable | undefined {
  return [...candidates].sort(compareCandidates)[0];
}

function pointsAt(replication: ReplicationInfo, address: MemberAddress): boolean {
  return replication.role === 'replica' && replication.primaryHost === address.host && replication.primaryPort === address.port;
}

function isPrimary(m: Reachable): boolean {
  return m.info.replication.role === 'primary';
}

function describe(m: Reachable): string {
  return `${m.pod} (offset ${offsetOf(m.info)}, ${m.info.keys} keys)`;
}

/** The primary before this step's decisions: remembered, else labelled, else none. */
function rememberedPrimary(members: readonly MemberObservation[], memory: TopologyMemory): MemberObservation | undefined {
  const remembered = members.find((m) => m.pod === memory.primary);
  if (remembered !== undefined) return remembered;
  const labelled = members.filter((m) => m.label === 'primary');
  if (labelled.length <= 1) return labelled[0];
  return best(labelled.filter(isReachable)) ?? labelled[0];
}

/** A fresh set or a lost memory: a reachable primary, else the (unreachable) member the replicas follow, else the best. */
function discoverPrimary(members: readonly MemberObservation[]): MemberObservation | undefined {
  const reachable = members.filter(isReachable);
  const primaries = reachable.filter(isPrimary);
  if (primaries.length > 0) return best(primaries);
  const followed = members.find((m) => m.address !== undefined && reachable.some((r) => m.address !== undefined && pointsAt(r.info.replication, m.address)));
  return followed ?? best(reachable);
}

interface Choice {
  /** The primary before this step's decision, reachable or not. */
  readonly current?: MemberObservation;
  readonly primary?: MemberObservation;
  readonly failoverFrom?: MemberObservation;
  readonly waitMs?: number;
  /** With `waitMs`: how long the primary was waited for in this step. */
  readonly askMs?: number;
  readonly events: TopologyEvent[];
  readonly unavailable?: string;
}

function choosePrimary(input: TopologyInput, unreachableSince: Readonly<Record<string, number>>): Choice {
  const { members, failover, now } = input;
  let current = rememberedPrimary(members, input.memory) ?? discoverPrimary(members);
  if (current === undefined) return { events: [], unavailable: 'no member answers' };
  const events: TopologyEvent[] = [];
  const others = members.filter((m): m is Reachable => isReachable(m) && m.pod !== current?.pod);

  if (isReachable(current) && current.info.replication.role === 'replica') {
    // Our primary follows another member that is a primary: that one holds the stream it replicated; adopt it.
    const replication = current.info.replication;
    const followed = others.find((m) => isPrimary(m) && pointsAt(replication, m.address));
    if (followed !== undefined) {
      events.push({ type: 'Warning', reason: 'PrimaryAdopted', message: `${current.pod} replicates from ${followed.pod}, which is now the primary` });
      current = followed;
    }
  }

  if (isReachable(current)) {
    const lost = restartedBehind(current, others, input.memory);
    // With failover disabled a primary restarted with data stays (as one that restarted slower would), not reported
    // unavailable for good: its replicas keep keys after they resynchronise from it.
    if (lost === undefined || (!failover.enabled && lost.withData)) return { current, primary: current, events };
    if (!failover.enabled) return { current, events, unavailable: `${lost.why}; failover is disabled` };
    events.push({ type: 'Warning', reason: 'FailoverStarted', message: `primary ${lost.why}; promoting ${describe(lost.to)}` });
    return { current, primary: lost.to, failoverFrom: current, events };
  }

  const since = unreachableSince[current.pod] ?? now;
  // Silent from when it was first asked until this step gave up waiting for it.
  const window = current.unansweredForMs ?? 0;
  const down = now + window - since;
  const why = current.error === undefined ? '' : `: ${current.error}`;
  if (!failover.enabled) return { current, events, unavailable: `primary ${current.pod} does not answer${why}; failover is disabled` };
  if (down < failover.downAfterMilliseconds) {
    // Look again so that the next wait for an answer (as long as this one) ends when downAfterMilliseconds is up.
    return { current, events, unavailable: `primary ${current.pod} has not answered for ${down} ms${why}`, waitMs: Math.max(0, failover.downAfterMilliseconds - down - window), askMs: window };
  }
  const candidate = best(others);
  if (candidate === undefined) return { current, events, unavailable: `primary ${current.pod} and every other member do not answer` };
  events.push({
    type: 'Warning',
    reason: 'FailoverStarted',
    message: `primary ${current.pod} has not answered for ${down} ms; promoting ${describe(candidate)}`,
  });
  return { current, primary: candidate, failoverFrom: current, events };
}

/**
 * Whether the answering primary `current` restarted behind what its replicas hold, and the member to promote: it
 * restarted empty while a member holds keys, or it restarted at all (another `run_id`) while a replica that was
 * linked to it before still answers with keys (the best of them: their offsets survive until a new full
 * synchronisation loads). Pure.
 */
function restartedBehind(current: Reachable, others: readonly Reachable[], memory: TopologyMemory): { why: string; to: Reachable; withData: boolean } | undefined {
  if (!isPrimary(current)) return undefined;
  const withKeys = best(others.filter((m) => m.info.keys > 0));
  if (!hasData(current.info) && withKeys !== undefined) return { why: `${current.pod} restarted without data while ${withKeys.pod} holds keys`, to: withKeys, withData: false };
  const before = memory.primary === current.pod ? memory.primaryRunId : undefined;
  if (before === undefined || current.info.runId === undefined || current.info.runId === before) return undefined;
  const linked = new Set(memory.linkedReplicas ?? []);
  const to = best(others.filter((m) => linked.has(m.pod) && m.info.keys > 0 && m.info.replication.role === 'replica'));
  if (to === undefined) return undefined;
  return {
    why: `${current.pod} restarted with the data on its volume (offset ${offsetOf(current.info)}, ${current.info.keys} keys), older than what the replicas linked to it hold`,
    to,
    withData: true,
  };
}

/** What the next step must know of the primary `chosen` answered as: its run_id and its linked replicas. */
function primaryMemory(observedPrimary: Reachable | undefined, statuses: readonly RedisMemberStatus[], memory: TopologyMemory, primaryPod: string | undefined): Pick<TopologyMemory, 'primaryRunId' | 'linkedReplicas'> {
  if (observedPrimary === undefined) {
    // Kept while the same primary does not answer, so that it is recognised as restarted when it does.
    const keep = primaryPod === memory.primary && memory.primaryRunId !== undefined;
    return keep ? { primaryRunId: memory.primaryRunId, ...(memory.linkedReplicas !== undefined && { linkedReplicas: memory.linkedReplicas }) } : {};
  }
  const runId = observedPrimary.info.runId;
  if (runId === undefined) return {};
  return { primaryRunId: runId, linkedReplicas: statuses.filter((s) => s.linkUp && s.pod !== observedPrimary.pod).map((s) => s.pod) };
}

function planActions(members: readonly MemberObservation[], primary: Reachable, formerPrimary: string | undefined, events: TopologyEvent[]): TopologyAction[] {
  const actions: TopologyAction[] = [];
  for (const m of members) {
    if (m.pod !== primary.pod && m.label === 'primary') actions.push({ kind: 'setRole', pod: m.pod, role: 'replica' });
  }
  if (!isPrimary(primary)) actions.push({ kind: 'promote', pod: primary.pod });
  if (primary.label !== 'primary') actions.push({ kind: 'setRole', pod: primary.pod, role: 'primary' });
  for (const m of members) {
    if (m.pod === primary.pod || !isReachable(m)) continue;
    const replication = m.info.replication;
    // A fresh, empty primary is simply configured; one with data (or the one a failover replaced) is news.
    if (replication.role === 'primary' && (hasData(m.info) || m.pod === formerPrimary)) {
      events.push({ type: 'Warning', reason: 'PrimaryDemoted', message: `${describe(m)} was a primary besides ${primary.pod}; demoted to its replica` });
    }
    if (!pointsAt(replication, primary.address)) actions.push({ kind: 'replicaOf', pod: m.pod, primary: primary.pod, address: primary.address });
    if (m.label !== 'replica' && m.label !== 'primary') actions.push({ kind: 'setRole', pod: m.pod, role: 'replica' });
  }
  return actions;
}

function memberStatus(m: MemberObservation, primary: Reachable | undefined): RedisMemberStatus {
  if (!isReachable(m)) return { pod: m.pod, role: 'unknown', linkUp: false };
  const replication = m.info.replication;
  const role: MemberRole = replication.role;
  if (replication.role === 'primary') return { pod: m.pod, role, linkUp: m.pod === primary?.pod };
  if (primary === undefined || !isPrimary(primary)) return { pod: m.pod, role, linkUp: false };
  const linkUp = replication.linkUp && pointsAt(replication, primary.address);
  return { pod: m.pod, role, linkUp, lagBytes: Math.max(0, offsetOf(primary.info) - replication.offset) };
}

function condition(type: string, status: boolean, reason: string, message: string): TopologyCondition {
  return { type, status: status ? 'True' : 'False', reason, message };
}

interface Health {
  readonly ready: boolean;
  readonly reason: string;
  readonly message: string;
  readonly degraded: boolean;
}

function health(statuses: readonly RedisMemberStatus[], primary: Reachable | undefined, unavailable: string | undefined, actions: number): Health {
  if (primary === undefined) {
    return { ready: false, degraded: true, reason: TOPOLOGY_REASONS.primaryUnavailable, message: unavailable ?? 'no primary' };
  }
  const unreachable = statuses.filter((s) => s.role === 'unknown').map((s) => s.pod);
  const linkDown = statuses.filter((s) => s.role !== 'unknown' && s.pod !== primary.pod && !s.linkUp).map((s) => s.pod);
  if (unreachable.length > 0) {
    return { ready: false, degraded: true, reason: TOPOLOGY_REASONS.memberUnreachable, message: `not answering: ${unreachable.join(', ')}` };
  }
  if (linkDown.length > 0 && actions === 0) {
    return { ready: false, degraded: true, reason: TOPOLOGY_REASONS.replicaLinkDown, message: `replication link to ${primary.pod} down: ${linkDown.join(', ')}` };
  }
  if (actions > 0) return { ready: false, degraded: false, reason: TOPOLOGY_REASONS.converging, message: `${actions} action(s) planned` };
  return { ready: true, degraded: false, reason: TOPOLOGY_REASONS.converged, message: `${primary.pod} is primary; ${statuses.length - 1} replica(s) linked` };
}

/**
 * One step of the topology state machine (see the module comment for the rules). Pure and deterministic: the
 * same input gives the same decision. Never plans two Pods labelled primary at any point of the plan, and
 * plans nothing while the primary is unavailable and cannot (or may not yet) be replaced.
 */
export function decideTopology(input: TopologyInput): TopologyDecision {
  const members = [...input.members].sort((a, b) => a.ordinal - b.ordinal);
  const unreachableSince: Record<string, number> = {};
  for (const m of members) {
    if (!isReachable(m)) unreachableSince[m.pod] = input.memory.unreachableSince[m.pod] ?? input.now;
  }
  const sorted: TopologyInput = { ...input, members };
  const choice = members.length === 0 ? { events: [], unavailable: 'the replication has no members' } : choosePrimary(sorted, unreachableSince);
  const events = [...choice.events];
  const chosen = choice.primary !== undefined && isReachable(choice.primary) ? choice.primary : undefined;
  let failover = input.memory.failover;
  const actions = chosen === undefined ? [] : planActions(members, chosen, choice.failoverFrom?.pod ?? failover?.from, events);

  if (choice.failoverFrom !== undefined && chosen !== undefined) {
    failover = { from: choice.failoverFrom.pod, to: chosen.pod, startedAt: input.now };
  }
  const observedPrimary = chosen !== undefined && isPrimary(chosen) ? chosen : undefined;
  const statuses = members.map((m) => memberStatus(m, observedPrimary));
  if (failover !== undefined && choice.failoverFrom === undefined && chosen !== undefined && chosen.pod !== failover.to) {
    events.push({ type: 'Warning', reason: 'FailoverAbandoned', message: `${chosen.pod} is primary; the promotion of ${failover.to} is abandoned` });
    failover = undefined;
  }
  const target = failover?.to;
  const verified =
    target !== undefined &&
    choice.failoverFrom === undefined &&
    observedPrimary?.pod === target &&
    actions.length === 0 &&
    statuses.every((s) => s.role === 'unknown' || s.pod === target || s.linkUp);
  if (verified && failover !== undefined) {
    events.push({ type: 'Normal', reason: TOPOLOGY_REASONS.failoverCompleted, message: `${failover.to} is primary and every answering replica is linked to it` });
  }
  const failoverAfter = verified ? undefined : failover;

  const h = health(statuses, chosen, choice.unavailable, actions.length);
  const inFailover = failoverAfter !== undefined;
  const conditions = [
    condition(
      CONDITION_TYPES.ready,
      h.ready && !inFailover,
      inFailover && h.ready ? TOPOLOGY_REASONS.failoverStarted : h.reason,
      h.message,
    ),
    condition(CONDITION_TYPES.degraded, h.degraded, h.degraded ? h.reason : TOPOLOGY_REASONS.healthy, h.degraded ? h.message : 'every member answers and is linked'),
    inFailover
      ? condition(CONDITION_TYPES.failoverInProgress, true, TOPOLOGY_REASONS.failoverStarted, `promoting ${failoverAfter.to} in place of ${failoverAfter.from}`)
      : condition(
          CONDITION_TYPES.failoverInProgress,
          false,
          verified ? TOPOLOGY_REASONS.failoverCompleted : TOPOLOGY_REASONS.noFailover,
          verified ? 'the new topology is verified' : 'no failover in progress',
        ),
  ];

  const primaryPod = chosen?.pod ?? choice.current?.pod ?? input.memory.primary;
  const memory: TopologyMemory = {
    unreachableSince,
    ...(primaryPod === undefined ? {} : { primary: primaryPod }),
    ...(failoverAfter === undefined ? {} : { failover: failoverAfter }),
    ...primaryMemory(observedPrimary, statuses, input.memory, primaryPod),
  };
  return {
    actions,
    memory,
    ...(chosen === undefined ? {} : { primary: chosen.pod }),
    members: statuses,
    readyReplicas: statuses.filter((s) => s.linkUp).length,
    conditions,
    events,
    failoverStarted: choice.failoverFrom !== undefined && chosen !== undefined,
    ...(choice.waitMs === undefined ? {} : { requeueAfterMs: choice.waitMs, primaryAskMs: choice.askMs ?? 0 }),
  };
}
