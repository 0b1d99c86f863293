/**
 * What a RedisReplication reconcile reports and when it looks again, from one topology decision. Pure.
 */
import type { ConditionUpdate } from '@domain-operators/reconcile';
import { MEMBER_REASONS } from '../redis/errors.ts';
import type { TopologyDecision } from '../redis/topology.ts';
import { CONDITION_TYPES, TOPOLOGY_REASONS } from '../redis/topology.ts';
import type { MemberInfo } from '../redis/info.ts';
import type { MemberRefusal } from './member-refusal.ts';

/** `Ready` reasons this module sets over the topology's (the refusal reasons are in `member-refusal.ts`). */
export const REPLICATION_REASONS = {
  invalidConfig: MEMBER_REASONS.invalidConfig,
  membersPending: 'MembersPending',
  /** Members still run an older Pod template: a change of image, resources or static config is not applied yet. */
  rolloutInProgress: 'RolloutInProgress',
  /** Members above `spec.replicas` still exist: a scale-down is not applied yet. */
  scalingDown: 'ScalingDown',
  /** `spec.restore` is pending: the first member is fetching, verifying or loading the RDB; nothing else is done yet. */
  restoring: 'Restoring',
  /**
   * Members answer the operator but their Pods are not Ready yet (the kubelet's probe: still loading, or not
   * answering it): the Services, which route by Pod readiness, do not send clients to them yet.
   */
  membersNotReady: 'MembersNotReady',
  /**
   * Write fencing is on (`spec.failover.minReplicasToWrite`) and the primary has fewer good replicas (linked, acking
   * within `minReplicasMaxLagSeconds`) than it needs: it answers writes with `NOREPLICAS`.
   */
  writesFenced: 'WritesFenced',
} as const;

/** Write fencing as the primary applies it: how many good replicas it needs and how many it has. */
export interface FencingFacts {
  /** `spec.failover.minReplicasToWrite` (> 0: fencing is on). */
  readonly required: number;
  /** `spec.failover.minReplicasMaxLagSeconds`. */
  readonly maxLagSeconds: number;
  /** Replicas the primary lists as `online` with `lag` at most `maxLagSeconds`; undefined when the primary did not answer. */
  readonly good: number | undefined;
}

/**
 * The replicas that count for Redis' `min-replicas-to-write` in what a primary reported: those listed `state=online`
 * with `lag` (seconds since their last acknowledgement) at most `maxLagSeconds`, and never more than Redis' own
 * `min_slaves_good_slaves` when it reports one. Redis refreshes that count once a second, so right after replicas
 * resume the list already shows them acking while Redis still refuses writes; the smaller of the two is what a write
 * meets. Pure.
 */
export function goodReplicas(info: MemberInfo | undefined, maxLagSeconds: number): number | undefined {
  if (info?.replication.role !== 'primary') return undefined;
  const listed = info.replication.replicas.filter((r) => r.state === 'online' && r.lag <= maxLagSeconds).length;
  return Math.min(listed, info.replication.goodReplicas ?? listed);
}

/** Longest condition message taken from the apiserver (as the external-resource reconciler cuts its messages). */
const MAX_MESSAGE = 1024;

/** Facts of one reconcile besides the decision. */
export interface ReplicationFacts {
  /** Member Pods within `spec.replicas`. */
  readonly members: number;
  readonly desired: number;
  /** Live config refused by Redis (messages without secrets). */
  readonly problems: readonly string[];
  /** Missing members whose creation the apiserver refused (see `memberRefusal`). */
  readonly refusal?: MemberRefusal;
  /** Members within `spec.replicas` not on the StatefulSet's update revision yet (see `outdatedMembers`); default none. */
  readonly outdated?: readonly string[];
  /** Member Pods above `spec.replicas` that still exist; default none. */
  readonly surplus?: readonly string[];
  /** Member Pods within `spec.replicas` whose Pod is not Ready (see `MembersNotReady`); default none. */
  readonly unready?: readonly string[];
  /** Write fencing and the primary's good replicas, when fencing is on (see `WritesFenced`); default off. */
  readonly fencing?: FencingFacts;
}

/**
 * The decision's conditions, with `Ready` made False when Redis refused live config (`InvalidConfig`), when the
 * apiserver refused to create missing members (`QuotaExceeded` or `MemberCreateFailed`, with its message: this wins
 * over the topology's own `Ready` reason, since it is why the topology is short; `Degraded` and
 * `FailoverInProgress` still tell the topology), when members are still missing (`MembersPending`), when members
 * still run an older Pod template (`RolloutInProgress`), when members above `spec.replicas` still exist
 * (`ScalingDown`), when member Pods are not Ready yet (`MembersNotReady`: a client that waited for `Ready` must
 * reach every member through the Services, which route by Pod readiness) or when write fencing is on and the primary
 * has fewer good replicas than it needs (`WritesFenced`: it would answer the first write with NOREPLICAS). So `Ready=True` at a generation means
 * that generation is applied on every member: `Ready=True` with `observedGeneration` at a new generation is never
 * written while its members do not have it yet. Pure.
 */
export function replicationConditions(decision: Pick<TopologyDecision, 'conditions'>, facts: ReplicationFacts): ConditionUpdate[] {
  const conditions: ConditionUpdate[] = decision.conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));
  const i = conditions.findIndex((c) => c.type === CONDITION_TYPES.ready);
  const ready = conditions[i]?.status === 'True';
  const notReady = (reason: string, message: string): void => {
    const update: ConditionUpdate = { type: CONDITION_TYPES.ready, status: 'False', reason, message };
    if (i < 0) conditions.push(update);
    else conditions[i] = update;
  };
  const short = facts.members < facts.desired;
  const outdated = facts.outdated ?? [];
  const surplus = facts.surplus ?? [];
  const unready = facts.unready ?? [];
  if (facts.problems.length > 0) notReady(REPLICATION_REASONS.invalidConfig, facts.problems.join('; '));
  else if (short && facts.refusal !== undefined) notReady(facts.refusal.reason, refusalMessage(facts.refusal, facts));
  else if (ready && short) notReady(REPLICATION_REASONS.membersPending, `${facts.members} of ${facts.desired} members exist`);
  else if (ready && outdated.length > 0) notReady(REPLICATION_REASONS.rolloutInProgress, `${outdated.length} of ${facts.desired} members do not run the current Pod template yet: ${outdated.join(', ')}`);
  else if (ready && surplus.length > 0) notReady(REPLICATION_REASONS.scalingDown, `${surplus.join(', ')} above spec.replicas (${facts.desired}) still exist`);
  else if (ready && unready.length > 0) notReady(REPLICATION_REASONS.membersNotReady, `${unready.join(', ')} not Ready yet: their readiness probe (PING as the replication user) has not had PONG, they are loading or not answering it`);
  else if (ready && facts.fencing !== undefined && (facts.fencing.good ?? 0) < facts.fencing.required) notReady(REPLICATION_REASONS.writesFenced, fencedMessage(facts.fencing));
  return conditions;
}

/** Why the primary refuses writes, in Redis' terms and the spec's. Pure. */
function fencedMessage(fencing: FencingFacts): string {
  const seen = fencing.good === undefined ? 'the primary did not report its replicas' : `the primary has ${fencing.good} good replica(s)`;
  return `${seen}, and spec.failover.minReplicasToWrite is ${fencing.required} (a good replica is linked and acknowledged within minReplicasMaxLagSeconds, ${fencing.maxLagSeconds} s): writes are refused with NOREPLICAS until enough replicas are linked`;
}

/**
 * `2 of 3 members exist; cache-2 cannot be created: pods "cache-2" is forbidden: exceeded quota: …`: the count,
 * the refused members and the apiserver's message as the StatefulSet controller recorded it (it names quantities
 * and object names, never a secret), cut to 1 KB. Pure.
 */
export function refusalMessage(refusal: MemberRefusal, counts: Pick<ReplicationFacts, 'members' | 'desired'>): string {
  const message = `${counts.members} of ${counts.desired} members exist; ${refusal.pods.join(', ')} cannot be created: ${refusal.message}`;
  return message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE - 1)}…`;
}

/** Requeue delays of a RedisReplication. */
export interface RequeueOptions {
  /** While the primary does not answer: a restarted, empty primary must be caught before its replicas resync from it. Default 250 ms. */
  readonly urgentRequeueMs?: number;
  /** While anything converges, fails over or does not answer. Default 1000 ms. */
  readonly activeRequeueMs?: number;
  /**
   * At steady state, where a reconcile only polls the members and writes nothing. Default 1000 ms (as often as
   * Sentinel pings): it bounds how late a frozen primary is first seen silent, on top of `downAfterMilliseconds`.
   */
  readonly steadyRequeueMs?: number;
  /** While a restore's source is not usable yet (its RedisBackup has not Succeeded). Default 5000 ms. */
  readonly restoreRequeueMs?: number;
}

/** Member counts of one reconcile. */
export interface MemberCounts {
  readonly members: number;
  readonly observed: number;
  readonly unreachable: number;
  readonly desired: number;
}

/** When to reconcile again after `decision`. Pure. */
export function requeueDelayMs(decision: Pick<TopologyDecision, 'conditions' | 'requeueAfterMs' | 'primaryAskMs' | 'memory' | 'actions'>, counts: MemberCounts, options: RequeueOptions = {}): number {
  const urgent = options.urgentRequeueMs ?? 250;
  const active = options.activeRequeueMs ?? 1_000;
  const steady = options.steadyRequeueMs ?? 1_000;
  const primaryDown = decision.requeueAfterMs !== undefined || decision.conditions.some((c) => c.reason === TOPOLOGY_REASONS.primaryUnavailable);
  if (primaryDown) {
    const wait = decision.requeueAfterMs;
    // The last ask before the deadline waits exactly, so that its own wait for the answer ends at the deadline
    // (an urgent poll would end after it and add up to a whole ask); never longer than one urgent cycle of asks.
    if (wait !== undefined && wait < urgent + (decision.primaryAskMs ?? 0)) return wait;
    return Math.min(urgent, wait ?? urgent);
  }
  const busy = decision.memory.failover !== undefined || decision.actions.length > 0 || counts.unreachable > 0;
  const ready = decision.conditions.some((c) => c.type === CONDITION_TYPES.ready && c.status === 'True');
  return busy || !ready || counts.members !== counts.desired || counts.observed !== counts.desired ? active : steady;
}
