import { ExternalResourceReconciler, isTerminalError, silentLogger, TerminalError } from '@domain-operators/reconcile';
import type { ExternalAdapter, ExternalContext } from '@domain-operators/reconcile';
import { boundAdapter, FakeObjects, RecordingRecorder, withMeta } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { KafkaTopic } from '../api/v1alpha1/index.ts';
import type { ClusterClients } from './kafka-client-pool.ts';
import { KafkaTopicAdapter } from './kafkatopic.adapter.ts';
import type { DesiredKafkaTopic, ObservedKafkaTopic } from './kafkatopic.adapter.ts';

const desired: DesiredKafkaTopic = { connection: 'main', topicName: 'orders', partitions: 4, replicationFactor: 1, config: {} };
const grow: ObservedKafkaTopic = {
  plan: { kind: 'changes', partitionCount: 4, configOps: [], reassignment: [], reassignmentInProgress: false, upToDate: false, diff: ['partitions: 2 → 4'] },
};
const context: ExternalContext<KafkaTopic, ClusterClients> = {
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
  client: () => Promise.reject(new Error('no client bound')),
};

type TopicAdapter = ExternalAdapter<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic, ClusterClients>;


/** An adapter whose CreatePartitions fails with `error`. */
function adapterFailingGrowWith(error: Error): TopicAdapter {
  // Only `admin.createPartitions` is reached by a plan that only grows partitions.
  const clients = { admin: { createPartitions: () => Promise.reject(error) } } as unknown as ClusterClients;
  return boundAdapter(new KafkaTopicAdapter(), clients);
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
    const adapter = boundAdapter(new KafkaTopicAdapter(), clients);
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

/** One topic in an in-memory Kafka of two brokers: partitions (replicas on broker 1), overrides, a reassignment flag. */
class FakeTopicKafka {
  partitions = 0;
  replicas = 1;
  readonly overrides = new Map<string, string>();
  reassigning = false;
  readonly writes: string[] = [];

  clients(): ClusterClients {
    const describe = () => ({ name: 'orders', topicId: 'id-1', partitions: Array.from({ length: this.partitions }, (_, partition) => ({ partition, replicas: [1, 2].slice(0, this.replicas), leader: 1 })) });
    const clients = {
      topics: {
        describeTopic: () => Promise.resolve(this.partitions === 0 ? undefined : describe()),
        describeTopicConfigs: () => Promise.resolve(this.partitions === 0 ? undefined : [...this.overrides].map(([name, value]) => ({ name, value, source: 'DYNAMIC_TOPIC_CONFIG', sensitive: false, readOnly: false }))),
        createTopic: (topic: { partitions: number; replicationFactor: number; config: Record<string, string> }) => {
          this.writes.push('createTopic');
          this.partitions = topic.partitions;
          this.replicas = topic.replicationFactor;
          for (const [k, v] of Object.entries(topic.config)) this.overrides.set(k, v);
          return Promise.resolve({ topicId: 'id-1' });
        },
      },
      admin: {
        listReassignments: () => Promise.resolve(this.reassigning ? [{ topic: 'orders', partition: 0, replicas: [1, 2], addingReplicas: [], removingReplicas: [] }] : []),
        createPartitions: (_name: string, count: number) => {
          this.writes.push(`createPartitions ${count}`);
          this.partitions = count;
          return Promise.resolve();
        },
        alterTopicConfigs: (_name: string, ops: readonly { op: string; name: string; value?: string }[]) => {
          this.writes.push('alterTopicConfigs');
          for (const op of ops) {
            if (op.op === 'set' && op.value !== undefined) this.overrides.set(op.name, op.value);
            else this.overrides.delete(op.name);
          }
          return Promise.resolve();
        },
        reassignPartitions: () => {
          this.writes.push('reassignPartitions');
          this.reassigning = true;
          return Promise.resolve();
        },
      },
      clusterInfo: () => Promise.resolve({ clusterId: 'c', controllerId: 1, brokers: [1, 2].map((id) => ({ id, host: 'h', port: 1 })) }),
    };
    return clients as unknown as ClusterClients;
  }

  adapter(): TopicAdapter {
    const clients = this.clients();
    return boundAdapter(new KafkaTopicAdapter(), clients);
  }
}

describe('KafkaTopicAdapter reports the topic\u2019s status fields', () => {
  it('from create: the id Kafka assigned, the counts created and no reassignment', async () => {
    const kafka = new FakeTopicKafka();
    expect(await kafka.adapter().create(desired, context)).toEqual({ status: { clusterId: 'c', topicName: 'orders', topicId: 'id-1', partitions: 4, replicationFactor: 1, replicasChange: null } });
  });

  it('from observe: what Kafka holds, with a reassignment under way shown and not counted as a difference', async () => {
    const kafka = new FakeTopicKafka();
    kafka.partitions = 4;
    expect(await kafka.adapter().observe(desired, context)).toMatchObject({
      exists: true,
      upToDate: true,
      status: { clusterId: 'c', topicName: 'orders', topicId: 'id-1', partitions: 4, replicationFactor: 1, replicasChange: null },
    });
    // Metadata does not show the replica being added yet; the controller reports the reassignment.
    kafka.reassigning = true;
    expect(await kafka.adapter().observe({ ...desired, replicationFactor: 2 }, context)).toMatchObject({
      upToDate: true,
      status: { replicationFactor: 1, replicasChange: { targetReplicas: 2, state: 'Ongoing' } },
    });
  });

  it('from update: only what it changed (the new partition count, a reassignment it started), nothing for configs alone', async () => {
    const kafka = new FakeTopicKafka();
    kafka.partitions = 3;
    const adapter = kafka.adapter();
    const plan = async (wanted: DesiredKafkaTopic): Promise<ObservedKafkaTopic> => {
      const observation = await adapter.observe(wanted, context);
      if (!observation.exists) throw new Error('the topic should exist');
      return observation.observed;
    };
    const grown = { ...desired, partitions: 6, config: { 'retention.ms': '1000' } };
    expect(await adapter.update(grown, await plan(grown), context)).toEqual({ status: { partitions: 6 } });
    const reconfigured = { ...grown, config: { 'retention.ms': '2000' } };
    expect(await adapter.update(reconfigured, await plan(reconfigured), context)).toEqual({});
    const replicated = { ...reconfigured, replicationFactor: 2 };
    expect(await adapter.update(replicated, await plan(replicated), context)).toMatchObject({ status: { replicasChange: { targetReplicas: 2, state: 'Ongoing' } } });
    expect(kafka.writes).toEqual(['createPartitions 6', 'alterTopicConfigs', 'alterTopicConfigs', 'reassignPartitions']);
  });
});

describe('KafkaTopic status, one path', () => {
  function runtime(kafka: FakeTopicKafka, objects: FakeObjects<KafkaTopic>) {
    const reconciler = new ExternalResourceReconciler<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic, ClusterClients>(
      { adapter: kafka.adapter(), claims: objects.claims(() => 'main/orders'), finalizer: objects.finalizer, status: objects.statusWriter, events: new RecordingRecorder(), random: () => 0.5 },
      {
        annotationPrefix: 'kafka.domain-operators.io',
        connect: (t) => ({ externalName: 'main/orders', desired: { ...desired, partitions: t.spec.partitions, config: t.spec.config ?? {} } }),
        defaultDeletionPolicy: 'Retain',
        adoptExactMatch: true,
      },
    );
    return () => reconciler.reconcile(objects.current('u1'), context);
  }

  it('writes topicId and partitions with Ready and observedGeneration in one patch, at creation and after a change', async () => {
    const kafka = new FakeTopicKafka();
    const objects = new FakeObjects<KafkaTopic>('kafka.domain-operators.io/finalizer');
    objects.put(withMeta(context.object, { generation: 1 }));
    const reconcile = runtime(kafka, objects);
    await reconcile();
    // The CreatePending claim, then one patch with everything.
    expect(objects.statusWrites).toBe(2);
    expect(objects.current('u1').status).toMatchObject({ observedGeneration: 1, ownership: 'Created', topicId: 'id-1', partitions: 4, replicationFactor: 1 });
    expect(objects.current('u1').status).not.toHaveProperty('replicasChange');

    objects.edit('u1', (t) => ({ ...t, spec: { ...t.spec, partitions: 6, config: { 'retention.ms': '1000' } } }));
    await reconcile();
    expect(objects.statusWrites).toBe(3);
    const status = objects.current('u1').status;
    expect(status).toMatchObject({ observedGeneration: 2, partitions: 6 });
    expect(status?.conditions?.map((c) => [c.type, c.status, c.observedGeneration])).toEqual([
      ['Synced', 'True', 2],
      ['Ready', 'True', 2],
    ]);
  });
});
