import { describe, expect, it } from 'vitest';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import type { ClusterInfo } from '../kafka/admin.ts';
import { KafkaReasons } from '../kafka/reasons.ts';
import { clusterIdChanged, connectionHealth } from './cluster-identity.ts';

const info: ClusterInfo = { clusterId: 'new-id', controllerId: 1, brokers: [{ id: 1, host: '10.0.0.1', port: 9092 }, { id: 2, host: '10.0.0.2', port: 9092, rack: 'a' }] };
const fields = { clusterId: 'new-id', controllerId: 1, brokers: [{ id: 1, host: '10.0.0.1', port: 9092 }, { id: 2, host: '10.0.0.2', port: 9092, rack: 'a' }] };

function connection(clusterId?: string, generation = 1): KafkaConnection {
  return {
    apiVersion: 'kafka.domain-operators.io/v1alpha1',
    kind: 'KafkaConnection',
    metadata: { name: 'main', uid: 'c1', generation },
    spec: { bootstrapServers: ['kafka:9092'] },
    ...(clusterId !== undefined && { status: { clusterId } }),
  };
}

describe('connectionHealth', () => {
  it('is Connected for the first cluster id seen and for the same id again, with the cluster as status fields', () => {
    for (const previous of [undefined, 'new-id']) {
      expect(connectionHealth(info, previous)).toEqual({ ready: true, message: 'connected to cluster new-id (2 brokers)', fields });
    }
  });

  it('is ClusterReplaced, a Warning naming the old and the new id, when the id changed', () => {
    const health = connectionHealth(info, 'old-id');
    expect(health).toMatchObject({ ready: true, reason: KafkaReasons.clusterReplaced, eventType: 'Warning', fields });
    expect(health.ready && health.message).toContain('the cluster id changed from old-id to new-id');
    expect(health.ready && health.note).toBeUndefined();
  });
});

describe('clusterIdChanged', () => {
  it('passes an update from one cluster id to another', () => {
    expect(clusterIdChanged({ type: 'update', oldObject: connection('a'), object: connection('b') })).toBe(true);
  });

  it('lets everything else through to the runtime\u2019s connection watch: the first id, the same id, a spec change, creates and deletes', () => {
    expect(clusterIdChanged({ type: 'update', oldObject: connection(), object: connection('a') })).toBe(false);
    expect(clusterIdChanged({ type: 'update', oldObject: connection('a'), object: connection('a', 2) })).toBe(false);
    expect(clusterIdChanged({ type: 'update', oldObject: connection('a'), object: connection() })).toBe(false);
    expect(clusterIdChanged({ type: 'create', object: connection('a') })).toBe(false);
    expect(clusterIdChanged({ type: 'delete', object: connection('a') })).toBe(false);
  });
});
