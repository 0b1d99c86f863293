import { KafkaReasons } from './reasons.ts';
import type { ConfigOp, ObservedConfigEntry, ObservedPartition, ObservedTopic, PartitionReassignment, ReassignmentInProgress } from './admin.ts';

/**
 * Pure planning of a topic update: what to send to Kafka to bring an existing topic to its spec. The reconciler
 * applies a plan's steps in order (partitions, configs, reassignment) and plans again on the next pass; a plan never
 * needs to be applied all at once to be safe.
 */

/** The desired state of an existing topic, names already resolved (see `tenancy.ts`). */
export interface DesiredTopic {
  readonly partitions: number;
  readonly replicationFactor: number;
  /** The full set of topic overrides. */
  readonly config: Readonly<Record<string, string>>;
}

/** What the planner needs to know about the cluster and the topic. */
export interface ObservedTopicState {
  readonly topic: ObservedTopic;
  readonly configs: readonly ObservedConfigEntry[];
  /** Ids of the brokers available for replicas. */
  readonly brokers: readonly number[];
  /** True while a reassignment of this topic is in progress: replicas then include those being added and removed. */
  readonly reassignmentInProgress: boolean;
}

/** A plan that must not be applied: nothing changes until the spec (or the cluster) does. */
export interface RefusedTopicPlan {
  readonly kind: 'refused';
  /** `PartitionDecreaseNotSupported` or `InvalidReplicationFactor`. */
  readonly reason: typeof KafkaReasons.partitionDecreaseNotSupported | typeof KafkaReasons.invalidReplicationFactor;
  readonly message: string;
}

/** The changes that bring the topic to its spec; all empty when `upToDate`. */
export interface TopicChangePlan {
  readonly kind: 'changes';
  /** New total partition count, when partitions must be added. */
  readonly partitionCount?: number;
  /** Incremental config ops, sorted by key. */
  readonly configOps: readonly ConfigOp[];
  /** Target replica lists for a replication factor change, one per existing partition that changes. */
  readonly reassignment: readonly PartitionReassignment[];
  /** True while a reassignment runs: the replication factor is not compared until it ends. */
  readonly reassignmentInProgress: boolean;
  readonly upToDate: boolean;
  /** One human line per difference, for Events and conditions; sensitive values are redacted. */
  readonly diff: readonly string[];
}

/** The outcome of {@link planTopic}. */
export type TopicPlan = RefusedTopicPlan | TopicChangePlan;

/**
 * Compares the spec with the observed topic and returns the changes, or a refusal:
 * - fewer partitions than observed → `PartitionDecreaseNotSupported`, and nothing else is planned;
 * - a replication factor change to more replicas than there are brokers → `InvalidReplicationFactor`, nothing else
 *   planned (an unchanged factor is never refused, so a broker that is briefly down refuses nothing);
 * - configs: `set` for each spec key whose value differs or is not a topic override yet; `delete` for each topic
 *   override (source `DYNAMIC_TOPIC_CONFIG`) missing from the spec, so it returns to the broker default; defaults
 *   and broker-level values are never deleted;
 * - replication factor: a reassignment of every existing partition whose replica count differs, computed by
 *   {@link planReplicas}; skipped while a reassignment is in progress. Partitions added by this plan get the
 *   topic's current factor and are reassigned by a later plan.
 * Pure and deterministic.
 */
export function planTopic(desired: DesiredTopic, observed: ObservedTopicState): TopicPlan {
  const current = observed.topic.partitions.length;
  if (desired.partitions < current) {
    return {
      kind: 'refused',
      reason: KafkaReasons.partitionDecreaseNotSupported,
      message: `partitions can only grow: topic ${observed.topic.name} has ${current} partitions, the spec asks for ${desired.partitions}`,
    };
  }
  const brokers = [...new Set(observed.brokers)].sort((a, b) => a - b);
  const rfChange = !observed.reassignmentInProgress && observed.topic.partitions.some((p) => p.replicas.length !== desired.replicationFactor);
  if (rfChange && desired.replicationFactor > brokers.length) {
    return {
      kind: 'refused',
      reason: KafkaReasons.invalidReplicationFactor,
      message: `replicationFactor ${desired.replicationFactor} needs at least ${desired.replicationFactor} brokers; the cluster has ${brokers.length} (ids ${brokers.join(', ')})`,
    };
  }
  const diff: string[] = [];
  const partitionCount = desired.partitions > current ? desired.partitions : undefined;
  if (partitionCount !== undefined) diff.push(`partitions: ${current} → ${partitionCount}`);

  const configOps = planConfig(desired.config, observed.configs);
  diff.push(...configOps.map((op) => describeConfigOp(op, observed.configs)));

  let reassignment: PartitionReassignment[] = [];
  if (!observed.reassignmentInProgress) {
    reassignment = observed.topic.partitions
      .filter((p) => p.replicas.length !== desired.replicationFactor)
      .map((p) => ({ partition: p.partition, replicas: planReplicas(p.partition, p.replicas, desired.replicationFactor, brokers) }));
    const factors = [...new Set(observed.topic.partitions.map((p) => p.replicas.length))].sort((a, b) => a - b);
    if (reassignment.length > 0) diff.push(`replicationFactor: ${factors.join('/')} → ${desired.replicationFactor} (reassigning ${reassignment.length} partitions)`);
  } else {
    diff.push('replicationFactor: reassignment in progress');
  }
  const upToDate = partitionCount === undefined && configOps.length === 0 && reassignment.length === 0 && !observed.reassignmentInProgress;
  return {
    kind: 'changes',
    ...(partitionCount === undefined ? {} : { partitionCount }),
    configOps,
    reassignment,
    reassignmentInProgress: observed.reassignmentInProgress,
    upToDate,
    diff,
  };
}

/**
 * The config ops that make the topic overrides equal `desired`: SET where the value differs or is not yet a topic
 * override, DELETE for overrides (`DYNAMIC_TOPIC_CONFIG`) absent from `desired`. Sorted by key. Pure.
 */
export function planConfig(desired: Readonly<Record<string, string>>, observed: readonly ObservedConfigEntry[]): ConfigOp[] {
  const byName = new Map(observed.map((entry) => [entry.name, entry]));
  const ops: ConfigOp[] = [];
  for (const [name, value] of Object.entries(desired)) {
    const entry = byName.get(name);
    // A sensitive override reads back as null, so it cannot be compared: set it again (SET is idempotent).
    if (entry?.source !== 'DYNAMIC_TOPIC_CONFIG' || entry.value !== value || entry.sensitive) ops.push({ op: 'set', name, value });
  }
  for (const entry of observed) {
    if (entry.source === 'DYNAMIC_TOPIC_CONFIG' && !Object.hasOwn(desired, entry.name)) ops.push({ op: 'delete', name: entry.name });
  }
  return ops.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The replica list of `partition` for a replication factor of `factor`, deterministic for the same inputs:
 * shrinking keeps the first `factor` current replicas (the preferred leader stays first); growing keeps every
 * current replica and adds brokers in round-robin order starting at `partition mod brokers`, so the new replicas
 * of consecutive partitions land on different brokers. Current replicas on brokers that are gone are replaced.
 * `brokers` must hold at least `factor` ids. Pure.
 */
export function planReplicas(partition: number, current: readonly number[], factor: number, brokers: readonly number[]): number[] {
  const sorted = [...new Set(brokers)].sort((a, b) => a - b);
  const live = new Set(sorted);
  const kept = current.filter((id) => live.has(id)).slice(0, factor);
  const chosen = new Set(kept);
  for (let i = 0; chosen.size < factor && i < sorted.length; i++) {
    const candidate = sorted[(partition + i) % sorted.length];
    if (candidate !== undefined) chosen.add(candidate);
  }
  return [...chosen];
}

function describeConfigOp(op: ConfigOp, observed: readonly ObservedConfigEntry[]): string {
  const entry = observed.find((e) => e.name === op.name);
  const sensitive = entry?.sensitive === true;
  const shown = (value: string | null | undefined): string => (sensitive ? '(redacted)' : (value ?? '(none)'));
  const before = entry === undefined ? '(none)' : entry.source === 'DYNAMIC_TOPIC_CONFIG' ? shown(entry.value) : `${shown(entry.value)} (default)`;
  return op.op === 'set' ? `config ${op.name}: ${before} → ${shown(op.value)}` : `config ${op.name}: ${before} → (broker default)`;
}

/**
 * The replication factor a topic has now: the smallest replica count of its partitions, not counting replicas still
 * being added by a reassignment (Metadata lists them among the replicas before they have caught up). 0 for no
 * partitions. Pure.
 */
export function currentReplicationFactor(partitions: readonly ObservedPartition[], reassignments: readonly ReassignmentInProgress[]): number {
  if (partitions.length === 0) return 0;
  const adding = new Map(reassignments.map((r) => [r.partition, r.addingReplicas.length]));
  return Math.min(...partitions.map((p) => p.replicas.length - (adding.get(p.partition) ?? 0)));
}
