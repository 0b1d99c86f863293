// KafkaUser quotas end to end (issue #19), checked in Kafka with an independent admin client (DescribeClientQuotas):
// per-client-id quotas appear as entities user=<username>,client-id=<id> and go away when their entry does; a tenant
// namespace's KafkaUser that sets no quotas gets the connection's defaults; and a KafkaUser above the connection's
// ceiling is refused with TenancyViolation while nothing changes in Kafka, on create and on update.
import { adminClient, eventually, freshNamespace, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, isNotFound } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaUsers } from './api.ts';
import { cleanUp, createConnection, kafkaUnderTest, userResource, waitForReason } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';

let client: Client;
let kafka: KafkaInfo;
let checker: KafkaChecker;
let operator: OperatorProcess | undefined;
let namespace: string;
const id = randomSuffix();
const connection = `e2e-quotas-${id}`;
const tenantLabel = `e2e-quotas-${id}`;
const defaults = { producerByteRate: 1_048_576, consumerByteRate: 2_097_152 };
const ceiling = { producerByteRate: 4_194_304, consumerByteRate: 8_388_608, requestPercentage: 50 };
const users = ['clients', 'plain', 'greedy'];

beforeAll(async () => {
  client = await adminClient();
  kafka = await kafkaUnderTest();
  checker = new KafkaChecker(kafka);
  namespace = await freshNamespace({ 'kafka.domain-operators.io/tenant': tenantLabel }, 'e2e-quotas');
  await createConnection(client, kafka, {
    name: connection,
    secretNamespace: namespace,
    tenancy: { namespaceSelector: { matchLabels: { 'kafka.domain-operators.io/tenant': tenantLabel } }, namePrefix: '{namespace}.', defaultUserQuotas: defaults, maxUserQuotas: ceiling },
  });
  operator = await startOperator({ system: 'kafka' });
});

afterAll(async () => {
  // Deleted while the operator runs, so that its finalizer removes the users' quotas and credentials from Kafka.
  for (const name of users) await client.delete(kafkaUsers.type, { namespace, name }).catch(() => undefined);
  await eventually(
    async () => {
      const left = await client.listAll(kafkaUsers.type, { namespace });
      return left.length === 0 ? true : undefined;
    },
    { timeoutMs: 60_000, what: 'the KafkaUsers deleted through the operator' },
  ).catch((err: unknown) => {
    console.warn(`quotas clean-up: ${String(err)}`);
  });
  await operator?.stop();
  await checker.close();
  await cleanUp(client, [namespace], [connection]);
});

describe('KafkaUser quotas, end to end', () => {
  it('writes per-client-id quotas as entities user=<username>,client-id=<id>, and removes the entity of a removed entry', async () => {
    const username = `${namespace}.clients`;
    await client.create(
      kafkaUsers.type,
      userResource(namespace, 'clients', connection, {
        quotas: {
          producerByteRate: 1_048_576,
          clients: [
            { clientId: 'batch', producerByteRate: 262_144 },
            { clientId: 'ui', consumerByteRate: 524_288, requestPercentage: 10 },
          ],
        },
      }),
    );
    await waitForCondition(client, kafkaUsers.type, { namespace, name: 'clients' }, 'Ready', 'True', 60_000);
    expect(await checker.clientIdQuotas(username)).toEqual({ batch: { producer_byte_rate: 262_144 }, ui: { consumer_byte_rate: 524_288, request_percentage: 10 } });
    // The user sets its own quotas, so no defaults are mixed in; the keys the ceiling names and it leaves unset get the ceiling.
    expect(await checker.userQuotas(username)).toEqual({ producer_byte_rate: 1_048_576, consumer_byte_rate: 8_388_608, request_percentage: 50 });

    await client.patch(kafkaUsers.type, { namespace, name: 'clients' }, { type: 'json', operations: [{ op: 'remove', path: '/spec/quotas/clients/1' }] });
    await eventually(async () => (Object.keys(await checker.clientIdQuotas(username)).join() === 'batch' ? true : undefined), { timeoutMs: 30_000, what: 'the ui entity removed' });
    expect(await checker.clientIdQuotas(username)).toEqual({ batch: { producer_byte_rate: 262_144 } });
  });

  it("gives a tenant namespace's KafkaUser that sets no quotas the connection's defaults (and the ceiling's other keys)", async () => {
    await client.create(kafkaUsers.type, userResource(namespace, 'plain', connection));
    await waitForCondition(client, kafkaUsers.type, { namespace, name: 'plain' }, 'Ready', 'True', 60_000);
    expect(await checker.userQuotas(`${namespace}.plain`)).toEqual({ producer_byte_rate: 1_048_576, consumer_byte_rate: 2_097_152, request_percentage: 50 });
    expect(await checker.clientIdQuotas(`${namespace}.plain`)).toEqual({});
  });

  it('refuses a new KafkaUser above the ceiling with TenancyViolation, creating nothing in Kafka (no credential, no quota, no Secret)', async () => {
    const username = `${namespace}.greedy`;
    await client.create(kafkaUsers.type, userResource(namespace, 'greedy', connection, { quotas: { producerByteRate: 10_485_760 } }));
    const message = await waitForReason(client, kafkaUsers.type, { namespace, name: 'greedy' }, { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(message).toContain('quotas.producerByteRate 10485760 is above the ceiling 4194304');
    expect(await checker.userQuotas(username)).toEqual({});
    expect(await checker.clientIdQuotas(username)).toEqual({});
    expect(await checker.produceAs({ username, password: 'x', mechanism: 'SCRAM-SHA-512' }, `${namespace}.none`)).toBe('login-failed');
    await expect(client.get(coreTypes.secret, { namespace, name: 'greedy-kafka-credentials' })).rejects.toSatisfy(isNotFound);
  });

  it('refuses a change above the ceiling on an existing user and leaves its quotas in Kafka as they were', async () => {
    const username = `${namespace}.plain`;
    const before = await checker.userQuotas(username);
    await client.patch(kafkaUsers.type, { namespace, name: 'plain' }, { type: 'merge', body: { spec: { quotas: { clients: [{ clientId: 'bulk', consumerByteRate: 99_999_999 }] } } } });
    const message = await waitForReason(client, kafkaUsers.type, { namespace, name: 'plain' }, { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(message).toBe(
      'quotas.clients[0] (clientId "bulk").consumerByteRate 99999999 is above the ceiling 8388608 that the connection\'s tenancy.maxUserQuotas.consumerByteRate sets for this namespace',
    );
    expect(await checker.userQuotas(username)).toEqual(before);
    expect(await checker.clientIdQuotas(username)).toEqual({});
  });
});
