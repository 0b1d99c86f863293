// The chart's CRDs, as installed for the operator, reject invalid specs at admission with messages a person
// understands: nothing invalid ever reaches the operator.
import { adminClient, deleteNamespace, freshNamespace, randomSuffix, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { kafkaConnections, kafkaTopics, kafkaUsers } from './api.ts';
import type { Client } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, topicResource, userResource } from './fixtures.ts';

let client: Client;
let operator: OperatorProcess | undefined;
let namespace: string;
const id = randomSuffix();

beforeAll(async () => {
  client = await adminClient();
  operator = await startOperator({ system: 'kafka' });
  namespace = await freshNamespace({}, 'e2e-admission');
});

afterAll(async () => {
  await operator?.stop();
  await cleanUp(client, [namespace], []);
  await deleteNamespace(namespace);
});

/** The apiserver's message rejecting `write`; fails the test when the write is accepted. */
async function rejection(write: () => Promise<unknown>): Promise<string> {
  try {
    await write();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected the apiserver to reject the object');
}

// Invalid objects are built as plain JSON on purpose: the TypeScript types would not let them be written.
const topicJson = (name: string, spec: Record<string, unknown>): never =>
  ({ ...topicResource(namespace, name, 'main'), spec: { connectionRef: { name: 'main' }, replicationFactor: 1, ...spec } }) as never;
const userJson = (name: string, acls: unknown[]): never => ({ ...userResource(namespace, name, 'main'), spec: { ...userResource(namespace, name, 'main').spec, acls } }) as never;

describe('admission of invalid specs', () => {
  it('rejects negative partitions, an unknown deletion policy and a replication factor of 0', async () => {
    expect(await rejection(() => client.create(kafkaTopics.type, topicJson('neg', { partitions: -1 })))).toContain('spec.partitions in body should be greater than or equal to 1');
    expect(await rejection(() => client.create(kafkaTopics.type, topicJson('policy', { deletionPolicy: 'Keep' })))).toContain('Unsupported value: "Keep": supported values: "Retain", "Delete"');
    expect(await rejection(() => client.create(kafkaTopics.type, topicJson('rf0', { replicationFactor: 0 })))).toContain('spec.replicationFactor in body should be greater than or equal to 1');
    expect(await rejection(() => client.create(kafkaTopics.type, topicJson('badname', { topicName: 'no spaces' })))).toContain('topicName may contain only letters, digits');
  });

  it('rejects a bad ACL operation name, a missing resource name and an unknown authentication type', async () => {
    expect(await rejection(() => client.create(kafkaUsers.type, userJson('op', [{ resource: { type: 'topic', name: 'x' }, operations: ['Reed'] }])))).toMatch(
      /Unsupported value: "Reed": supported values: "Read", "Write"/,
    );
    expect(await rejection(() => client.create(kafkaUsers.type, userJson('noname', [{ resource: { type: 'group' }, operations: ['Read'] }])))).toContain(
      'resource.name is required for topic, group and transactionalId',
    );
    const md5 = { ...userResource(namespace, 'md5', 'main'), spec: { connectionRef: { name: 'main' }, authentication: { type: 'md5' } } } as never;
    expect(await rejection(() => client.create(kafkaUsers.type, md5))).toContain('Unsupported value: "md5"');
  });

  it('rejects a tenancy prefix without a separator after {namespace}', async () => {
    const connection = {
      apiVersion: kafkaConnections.apiVersion,
      kind: 'KafkaConnection',
      metadata: { name: `e2e-bad-prefix-${id}` },
      spec: { bootstrapServers: ['k:9092'], tenancy: { namePrefix: '{namespace}-' } },
    } as never;
    expect(await rejection(() => client.create(kafkaConnections.type, connection))).toContain('namePrefix must contain {namespace} exactly once, followed by a separator');
  });

  it('keeps topicName and connectionRef immutable and partitions growing only', async () => {
    await client.create(kafkaTopics.type, topicResource(namespace, 'fixed', 'main', { topicName: `fixed-${id}`, partitions: 3 }));
    const request = { namespace, name: 'fixed' };
    expect(await rejection(() => client.patch(kafkaTopics.type, request, { type: 'merge', body: { spec: { topicName: 'other' } } }))).toContain('topicName is immutable');
    expect(await rejection(() => client.patch(kafkaTopics.type, request, { type: 'merge', body: { spec: { partitions: 2 } } }))).toContain('partitions can only grow');
    expect(await rejection(() => client.patch(kafkaTopics.type, request, { type: 'merge', body: { spec: { connectionRef: { name: 'other' } } } }))).toContain(
      'connectionRef is immutable',
    );
  });
});
