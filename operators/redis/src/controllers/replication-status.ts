/**
 * What a RedisReplication reconcile reports and when it looks again, from one topology decision. Pure.
 */
import type { ConditionUpdate } from '@domain-operators/reconcile';
import type { TopologyDecision } from '../redis/topology.ts';
import { CONDITION_TYPES } from '../redis/types.ts';

/** Facts of one reconcile besides the decision. */
export interface ReplicationFacts {
  /** Member Pods within `spec.replicas`. */
  readonly members: number;
  readonly desired: number;
  /** Live config refused by Redis (messages without secrets). */
  readonly problems: readonly string[];
}

/**
 * The decision's conditions, with `Ready` made False when Redis refused live config (`InvalidConfig`) or members
 * are still missing (`MembersPending`). Pure.
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
  if (facts.problems.length > 0) notReady('InvalidConfig', facts.problems.join('; '));
  else if (ready && facts.members < facts.desired) notReady('MembersPending', `${facts.members} of ${facts.desired} members exist`);
  return conditions;
}

/** Requeue delays of a RedisReplication. */
export interface RequeueOptions {
  /** While the primary does not answer: a restarted, empty primary must be caught before its replicas resync from it. Default 250 ms. */
  readonly urgentRequeueMs?: number;
  /** While anything converges, fails over or does not answer. Default 1000 ms. */
  readonly activeRequeueMs?: number;
  /** At steady state, where a reconcile only polls the members and writes nothing. Default 2000 ms. */
  readonly steadyRequeueMs?: number;
}

/** Member counts of one reconcile. */
export interface MemberCounts {
  readonly members: number;
  readonly observed: number;
  readonly unreachable: number;
  readonly desired: number;
}

/** When to reconcile again after `decision`. Pure. */
export function requeueDelayMs(decision: Pick<TopologyDecision, 'conditions' | 'requeueAfterMs' | 'memory' | 'actions'>, counts: MemberCounts, options: RequeueOptions = {}): number {
  const urgent = options.urgentRequeueMs ?? 250;
  const active = options.activeRequeueMs ?? 1_000;
  const steady = options.steadyRequeueMs ?? 2_000;
  const primaryDown = decision.requeueAfterMs !== undefined || decision.conditions.some((c) => c.reason === 'PrimaryUnavailable');
  if (primaryDown) return Math.min(urgent, decision.requeueAfterMs ?? urgent);
  const busy = decision.memory.failover !== undefined || decision.actions.length > 0 || counts.unreachable > 0;
  const ready = decision.conditions.some((c) => c.type === CONDITION_TYPES.ready && c.status === 'True');
  return busy || !ready || counts.members !== counts.desired || counts.observed !== counts.desired ? active : steady;
}
