import { describe, expect, it } from 'vitest';
import type { ConfigSourceName, ObservedConfigEntry, ObservedTopic } from './admin.ts';
import { currentReplicationFactor, planConfig, planReplicas, planTopic, type DesiredTopic, type ObservedTopicState, type TopicChangePlan, type TopicPlan } from './topic-plan.ts';

function entry(name: string, value: string | null, source: ConfigSourceName = 'DYNAMIC_TOPIC_CONFIG', sensitive = false): ObservedConfigEntry {
  return { name, value, source, sensitive, readOnly: false };
}

function topic(replicas: number[][]): ObservedTopic {
  return { name: 'team-a.orders', topicId: 'id-1', partitions: replicas.map((r, partition) => ({ partition, replicas: r, leader: r[0] ?? -1 })) };
}

function observed(overrides: Partial<ObservedTopicState> = {}): ObservedTopicState {
  return {
    topic: topic([[1], [1], [1]]),
    configs: [entry('retention.ms', '3600000'), entry('cleanup.policy', 'delete', 'DEFAULT_CONFIG'), entry('segment.bytes', '1073741824', 'STATIC_BROKER_CONFIG')],
    brokers: [1],
    reassignmentInProgress: false,
    ...overrides,
  };
}

const desired: DesiredTopic = { partitions: 3, replicationFactor: 1, config: { 'retention.ms': '3600000' } };

function changes(plan: TopicPlan): TopicChangePlan {
  if (plan.kind !== 'changes') throw new Error(`refused: ${plan.message}`);
  return plan;
}

describe('planTopic', () => {
  it('is up to date when everything matches', () => {
    const plan = changes(planTopic(desired, observed()));
    expect(plan).toEqual({ kind: 'changes', configOps: [], reassignment: [], reassignmentInProgress: false, upToDate: true, diff: [] });
  });

  it('adds partitions', () => {
    const plan = changes(planTopic({ ...desired, partitions: 6 }, observed()));
    expect(plan.partitionCount).toBe(6);
    expect(plan.upToDate).toBe(false);
    expect(plan.diff).toEqual(['partitions: 3 → 6']);
  });

  it('refuses a partition decrease and plans nothing else', () => {
    const plan = planTopic({ partitions: 2, replicationFactor: 1, config: { 'retention.ms': '1' } }, observed());
    expect(plan).toEqual({
      kind: 'refused',
      reason: 'PartitionDecreaseNotSupported',
      message: 'partitions can only grow: topic team-a.orders has 3 partitions, the spec asks for 2',
    });
  });

  it('sets changed and new keys, deletes removed overrides, never deletes defaults or broker values', () => {
    const plan = changes(planTopic({ ...desired, config: { 'cleanup.policy': 'compact' } }, observed()));
    expect(plan.configOps).toEqual([
      { op: 'set', name: 'cleanup.policy', value: 'compact' },
      { op: 'delete', name: 'retention.ms' },
    ]);
    expect(plan.diff).toEqual(['config cleanup.policy: delete (default) → compact', 'config retention.ms: 3600000 → (broker default)']);
  });

  it('sets a key whose value equals the default but is not yet an override (the spec is the full set of overrides)', () => {
    expect(planConfig({ 'cleanup.policy': 'delete' }, observed().configs)).toEqual([
      { op: 'set', name: 'cleanup.policy', value: 'delete' },
      { op: 'delete', name: 'retention.ms' },
    ]);
  });

  it('redacts sensitive values in the diff and always re-sets a sensitive override', () => {
    const configs = [entry('secret.thing', null, 'DYNAMIC_TOPIC_CONFIG', true)];
    const plan = changes(planTopic({ ...desired, config: { 'secret.thing': 's3cr3t' } }, observed({ configs })));
    expect(plan.configOps).toEqual([{ op: 'set', name: 'secret.thing', value: 's3cr3t' }]);
    expect(plan.diff.join('\n')).not.toContain('s3cr3t');
    expect(plan.diff).toEqual(['config secret.thing: (redacted) → (redacted)']);
  });

  it('plans a reassignment for a replication factor increase, spread deterministically', () => {
    const plan = changes(planTopic({ ...desired, replicationFactor: 2 }, observed({ brokers: [3, 1, 2] })));
    expect(plan.reassignment).toEqual([
      { partition: 0, replicas: [1, 2] },
      { partition: 1, replicas: [1, 2] },
      { partition: 2, replicas: [1, 3] },
    ]);
    expect(plan.diff).toEqual(['replicationFactor: 1 → 2 (reassigning 3 partitions)']);
    expect(planTopic({ ...desired, replicationFactor: 2 }, observed({ brokers: [3, 1, 2] }))).toEqual(plan);
  });

  it('plans a reassignment for a decrease, keeping the preferred leader', () => {
    const plan = changes(planTopic({ ...desired, partitions: 2, replicationFactor: 1 }, observed({ topic: topic([[2, 3], [3, 1]]), brokers: [1, 2, 3] })));
    expect(plan.reassignment).toEqual([
      { partition: 0, replicas: [2] },
      { partition: 1, replicas: [3] },
    ]);
  });

  it('refuses a replication factor above the broker count (single broker: 1 → 2) and plans nothing else', () => {
    const plan = planTopic({ partitions: 9, replicationFactor: 2, config: {} }, observed());
    expect(plan).toEqual({
      kind: 'refused',
      reason: 'InvalidReplicationFactor',
      message: 'replicationFactor 2 needs at least 2 brokers; the cluster has 1 (ids 1)',
    });
  });

  it('does not refuse an unchanged factor while a broker is missing', () => {
    const plan = changes(planTopic({ ...desired, replicationFactor: 2 }, observed({ topic: topic([[1, 2]]), brokers: [1] , configs: [entry('retention.ms', '3600000')] })));
    expect(plan.reassignment).toEqual([]);
  });

  it('does not compare the factor while a reassignment is in progress', () => {
    const plan = changes(planTopic(desired, observed({ topic: topic([[1, 2], [1, 2], [1, 2]]), brokers: [1, 2], reassignmentInProgress: true })));
    expect(plan.reassignment).toEqual([]);
    expect(plan.upToDate).toBe(false);
    expect(plan.diff).toEqual(['replicationFactor: reassignment in progress']);
  });
});

describe('planReplicas', () => {
  it('is a no-op list for an unchanged factor', () => {
    expect(planReplicas(0, [1], 1, [1])).toEqual([1]);
  });
  it('replaces a replica on a broker that is gone', () => {
    expect(planReplicas(0, [9, 1], 2, [1, 2])).toEqual([1, 2]);
  });
  it('spreads new replicas of consecutive partitions over different brokers', () => {
    const brokers = [1, 2, 3, 4];
    expect([0, 1, 2, 3].map((p) => planReplicas(p, [], 2, brokers))).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 1],
    ]);
  });
});

describe('currentReplicationFactor', () => {
  const partition = (index: number, replicas: number[]) => ({ partition: index, replicas, leader: replicas[0] ?? -1 });
  const moving = (index: number, replicas: number[], addingReplicas: number[], removingReplicas: number[] = []) => ({
    topic: 't',
    partition: index,
    replicas,
    addingReplicas,
    removingReplicas,
  });

  it('is the smallest replica count when nothing moves', () => {
    expect(currentReplicationFactor([partition(0, [1, 2]), partition(1, [2])], [])).toBe(1);
    expect(currentReplicationFactor([], [])).toBe(0);
  });

  it('does not count replicas still being added, which Metadata already lists', () => {
    const partitions = [partition(0, [1, 2]), partition(1, [2, 1])];
    expect(currentReplicationFactor(partitions, [moving(0, [1, 2], [2]), moving(1, [2, 1], [1])])).toBe(1);
    // One partition done, one still catching up: the topic has one replica where it counts.
    expect(currentReplicationFactor(partitions, [moving(1, [2, 1], [1])])).toBe(1);
  });

  it('still counts replicas being removed: they serve until the reassignment ends', () => {
    expect(currentReplicationFactor([partition(0, [1, 2])], [moving(0, [1, 2], [], [2])])).toBe(2);
  });
});
