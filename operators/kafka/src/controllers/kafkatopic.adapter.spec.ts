import { isTerminalError, silentLogger, TerminalError } from '@domain-operators/reconcile';
import type { ExternalContext, Recorder } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { KafkaConnection, KafkaTopic } from '../api/v1alpha1/index.ts';
import type { ClusterClients } from './kafka-client-pool.ts';
import { KafkaTopicAdapter } from './kafkatopic.adapter.ts';
import type { DesiredKafkaTopic, ObservedKafkaTopic } from './kafkatopic.adapter.ts';

const desired: DesiredKafkaTopic = { connection: 'main', topicName: 'orders', partitions: 4, replicationFactor: 1, config: {} };
const grow: ObservedKafkaTopic = {
  plan: { kind: 'changes', partitionCount: 4, configOps: [], reassignment: [], reassignmentInProgress: false, upToDate: false, diff: ['partitions: 2 → 4'] },
};
const context: ExternalContext<KafkaTopic> = {
  request: { namespace: 'team', name: 'orders' },
  reconcileId: 'r1',
  log: silentLogger,
  signal: new AbortController().signal,
  externalName: 'main/orders',
  object: {
    apiVersion: 'kafka.domain-operators.io/v1alpha1',
    kind: 'KafkaTopic',
    metadata: { name: 'orders', namespace: 'team', uid: 'u1' },
    spec: { connectionRef: { name: 'main' }, partitions: 4, replicationFactor: 1, deletionPolicy: 'Retain' },
  },
};
const events: Recorder = { record: () => undefined };

/** An adapter whose CreatePartitions fails with `error`. */
function adapterFailingGrowWith(error: Error): KafkaTopicAdapter {
  // Only `admin.createPartitions` is reached by a plan that only grows partitions.
  const clients = { admin: { createPartitions: () => Promise.reject(error) } } as unknown as ClusterClients;
  return new KafkaTopicAdapter({ resolver: { connection: () => ({}) as KafkaConnection, clients: () => Promise.resolve(clients) }, events });
}

describe('KafkaTopicAdapter.update', () => {
  it('retries "already has N partitions" (a stale observation), instead of waiting for a spec change', async () => {
    const adapter = adapterFailingGrowWith(new TerminalError('grow topic orders to 4 partitions: Topic already has 4 partition(s). (INVALID_PARTITIONS)', 'InvalidPartitions'));
    const err: unknown = await adapter.update(desired, grow, context).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(isTerminalError(err)).toBe(false);
    expect((err as Error).message).toContain('observed partition count was stale');
  });

  it('keeps other terminal errors terminal', async () => {
    const adapter = adapterFailingGrowWith(new TerminalError('not allowed', 'PolicyViolation'));
    const err: unknown = await adapter.update(desired, grow, context).catch((e: unknown) => e);
    expect(isTerminalError(err)).toBe(true);
  });
});

describe('KafkaTopicAdapter.observe', () => {
  /** An adapter over a topic of two partitions with one replica each on broker 1; records each clusterInfo call. */
  function adapterOverOneReplica(brokers: number[]) {
    const freshCalls: boolean[] = [];
    const clients = {
      topics: {
        describeTopic: () => Promise.resolve({ name: 'orders', topicId: 'id', partitions: [0, 1].map((partition) => ({ partition, replicas: [1], leader: 1 })) }),
        describeTopicConfigs: () => Promise.resolve([]),
      },
      admin: { listReassignments: () => Promise.resolve([]) },
      clusterInfo: (fresh = false) => {
        freshCalls.push(fresh);
        return Promise.resolve({ clusterId: 'c', controllerId: 1, brokers: brokers.map((id) => ({ id, host: 'h', port: 1 })) });
      },
    } as unknown as ClusterClients;
    const adapter = new KafkaTopicAdapter({ resolver: { connection: () => ({}) as KafkaConnection, clients: () => Promise.resolve(clients) }, events });
    return { adapter, freshCalls };
  }

  it('uses the cached broker list while the replica counts match the spec', async () => {
    const { adapter, freshCalls } = adapterOverOneReplica([1]);
    const observed = await adapter.observe({ ...desired, partitions: 2 }, context);
    expect(observed).toMatchObject({ exists: true, upToDate: true });
    expect(freshCalls).toEqual([false]);
  });

  it('asks Kafka for the brokers serving now before planning a replication factor change, and refuses one it cannot hold', async () => {
    const { adapter, freshCalls } = adapterOverOneReplica([1]);
    const observed = await adapter.observe({ ...desired, partitions: 2, replicationFactor: 2 }, context);
    expect(freshCalls).toEqual([true]);
    expect(observed).toMatchObject({ exists: true, upToDate: false, observed: { plan: { kind: 'refused', reason: 'InvalidReplicationFactor' } } });
  });
});

describe('KafkaTopicAdapter.forget', () => {
  it('drops the reassignment mark and the facts of a resource that is gone', async () => {
    const clients = {
      topics: {
        describeTopic: () => Promise.resolve({ name: 'orders', topicId: 'id', partitions: [{ partition: 0, replicas: [1], leader: 1 }] }),
        describeTopicConfigs: () => Promise.resolve([]),
      },
      admin: { listReassignments: () => Promise.resolve([]), reassignPartitions: () => Promise.resolve() },
      clusterInfo: () => Promise.resolve({ clusterId: 'c', controllerId: 1, brokers: [1, 2].map((id) => ({ id, host: 'h', port: 1 })) }),
    } as unknown as ClusterClients;
    const adapter = new KafkaTopicAdapter({ resolver: { connection: () => ({}) as KafkaConnection, clients: () => Promise.resolve(clients) }, events });
    const wanted = { ...desired, partitions: 1, replicationFactor: 2 };
    const observation = await adapter.observe(wanted, context);
    if (!observation.exists) throw new Error('the topic should exist');
    await adapter.update(wanted, observation.observed, context);
    expect(adapter.isReassigning('u1')).toBe(true);

    adapter.forget('u1');
    expect(adapter.isReassigning('u1')).toBe(false);
    expect(adapter.takeStatusFields(context.object)).toBeUndefined();
  });
});
