// The CRDs in the real apiserver reject invalid specs at admission with messages a person understands.
import type { Client } from '@domain-operators/reconcile';
import { coreTypes } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCluster, deleteIfExists, freshNamespace, installCrds } from '../../test-support.int.ts';
import { kafkaConnections, kafkaTopics, kafkaUsers } from './index.ts';

let client: Client;
let namespace: string;

beforeAll(async () => {
  client = (await adminCluster()).client;
  await installCrds(client);
  namespace = await freshNamespace(client, 'admission');
}, 600_000);

afterAll(async () => {
  await deleteIfExists(client, coreTypes.namespace, undefined, namespace);
});

async function rejection(create: () => Promise<unknown>): Promise<string> {
  try {
    await create();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected the apiserver to reject the object');
}

const topic = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: kafkaTopics.apiVersion,
  kind: 'KafkaTopic',
  metadata: { name, namespace },
  spec: { connectionRef: { name: 'main' }, replicationFactor: 1, ...spec },
});

describe('admission of the Kafka CRDs', () => {
  it('rejects negative partitions, unknown enum values and bad ACL operations with readable messages', async () => {
    expect(await rejection(() => client.create(kafkaTopics.type, topic('neg', { partitions: -1 }) as never))).toContain('spec.partitions: Invalid value: -1: spec.partitions in body should be greater than or equal to 1');
    expect(await rejection(() => client.create(kafkaTopics.type, topic('policy', { deletionPolicy: 'Keep' }) as never))).toContain('Unsupported value: "Keep": supported values: "Retain", "Delete"');
    const user = {
      apiVersion: kafkaUsers.apiVersion,
      kind: 'KafkaUser',
      metadata: { name: 'u', namespace },
      spec: { connectionRef: { name: 'main' }, authentication: { type: 'scram-sha-512' }, acls: [{ resource: { type: 'topic', name: 'x' }, operations: ['Reed'] }] },
    };
    expect(await rejection(() => client.create(kafkaUsers.type, user as never))).toMatch(/Unsupported value: "Reed": supported values: "Read", "Write"/);
    const noName = { ...user, spec: { ...user.spec, acls: [{ resource: { type: 'group' }, operations: ['Read'] }] } };
    expect(await rejection(() => client.create(kafkaUsers.type, noName as never))).toContain('resource.name is required for topic, group and transactionalId');
    const badPrefix = { apiVersion: kafkaConnections.apiVersion, kind: 'KafkaConnection', metadata: { name: `bad-prefix-${namespace}` }, spec: { bootstrapServers: ['k:9092'], tenancy: { namePrefix: '{namespace}-' } } };
    expect(await rejection(() => client.create(kafkaConnections.type, badPrefix as never))).toContain('namePrefix must contain {namespace} exactly once, followed by a separator');
  });

  it('refuses defaults above the ceiling, an empty or duplicate client-id entry, and a bad client id', async () => {
    const connection = (tenancy: Record<string, unknown>) => ({ apiVersion: kafkaConnections.apiVersion, kind: 'KafkaConnection', metadata: { name: `quotas-${namespace}` }, spec: { bootstrapServers: ['k:9092'], tenancy } });
    const above = connection({ defaultUserQuotas: { producerByteRate: 2048, requestPercentage: 10 }, maxUserQuotas: { producerByteRate: 1024, requestPercentage: 50 } });
    expect(await rejection(() => client.create(kafkaConnections.type, above as never))).toContain('defaultUserQuotas must not exceed maxUserQuotas for any key both set');
    const user = (quotas: Record<string, unknown>) => ({
      apiVersion: kafkaUsers.apiVersion,
      kind: 'KafkaUser',
      metadata: { name: 'q', namespace },
      spec: { connectionRef: { name: 'main' }, authentication: { type: 'scram-sha-512' }, quotas },
    });
    expect(await rejection(() => client.create(kafkaUsers.type, user({ clients: [{ clientId: 'batch' }] }) as never))).toContain('a clients entry must set at least one of producerByteRate');
    const twice = user({ clients: [{ clientId: 'batch', producerByteRate: 1 }, { clientId: 'batch', consumerByteRate: 1 }] });
    expect(await rejection(() => client.create(kafkaUsers.type, twice as never))).toContain('spec.quotas.clients[1]: Duplicate value: {"clientId":"batch"}');
    expect(await rejection(() => client.create(kafkaUsers.type, user({ clients: [{ clientId: 'a b', producerByteRate: 1 }] }) as never))).toContain('clientId may contain only letters');
    // Within the ceiling, both are admitted.
    const within = connection({ defaultUserQuotas: { producerByteRate: 1024 }, maxUserQuotas: { producerByteRate: 1024, consumerByteRate: 1 } });
    await client.create(kafkaConnections.type, within);
    await deleteIfExists(client, kafkaConnections.type, undefined, `quotas-${namespace}`);
    await client.create(kafkaUsers.type, user({ producerByteRate: 1, clients: [{ clientId: 'batch', producerByteRate: 1 }] }) as never);
  });

  it('keeps topicName immutable and partitions growing only', async () => {
    await client.create(kafkaTopics.type, topic('fixed', { topicName: 'fixed-topic', partitions: 3 }) as never);
    expect(await rejection(() => client.patch(kafkaTopics.type, { namespace, name: 'fixed' }, { type: 'merge', body: { spec: { topicName: 'other' } } }))).toContain('topicName is immutable');
    expect(await rejection(() => client.patch(kafkaTopics.type, { namespace, name: 'fixed' }, { type: 'merge', body: { spec: { partitions: 2 } } }))).toContain('partitions can only grow');
    expect(await rejection(() => client.patch(kafkaTopics.type, { namespace, name: 'fixed' }, { type: 'merge', body: { spec: { connectionRef: { name: 'other' } } } }))).toContain('connectionRef is immutable');
  });
});
