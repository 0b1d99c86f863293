import { randomBytes } from 'node:crypto';
import { ensureTestEnv, type KafkaInfo } from '@domain-operators/testenv';
import { Admin, ClientQuotaEntityTypes, ClientQuotaMatchTypes, findErrorBy, Producer, stringSerializers } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AclBinding } from './admin.ts';
import { PlatformaticKafkaAdmin } from './platformatic-admin.ts';
import { desiredAclBindings, desiredClientIdQuotas, desiredQuotas, planAcls, planClientIdQuotas, planQuotas, planScram, principalOf } from './user-plan.ts';

const TOPIC_AUTHORIZATION_FAILED = 29;
const suffix = randomBytes(4).toString('hex');
const topic = `kop-int-users-${suffix}`;
const username = `kop-int-user-${suffix}`;
const otherPrincipal = principalOf(`kop-int-other-${suffix}`);
const password = randomBytes(18).toString('base64url');
let kafka: KafkaInfo;
let admin: PlatformaticKafkaAdmin;

const otherBinding: AclBinding = {
  resourceType: 'topic',
  resourceName: topic,
  patternType: 'literal',
  principal: otherPrincipal,
  host: '*',
  operation: 'Read',
  permission: 'allow',
};

beforeAll(async () => {
  kafka = (await ensureTestEnv(['kafka'])).kafka;
  admin = new PlatformaticKafkaAdmin({}, { bootstrapServers: kafka.bootstrapServers, sasl: kafka.superUser, clientId: 'kafka-operator-int' });
  await admin.createTopics([{ name: topic, partitions: 1, replicationFactor: 1, config: {} }]);
});

afterAll(async () => {
  await admin.deleteAcls([...(await admin.describeAcls(principalOf(username))), ...(await admin.describeAcls(otherPrincipal))]);
  await admin.deleteScramCredential(username, 'SCRAM-SHA-512');
  await admin.alterUserQuotas(username, { set: {}, remove: ['producer_byte_rate', 'consumer_byte_rate', 'request_percentage', 'controller_mutation_rate'] });
  await admin.deleteTopic(topic);
  await admin.close();
});

/** Produces one record as the test user: `allowed`, `denied` (TOPIC_AUTHORIZATION_FAILED) or `other: …`. */
async function produceAsUser(): Promise<string> {
  const producer = new Producer({
    clientId: 'kafka-operator-int-user',
    bootstrapBrokers: [...kafka.bootstrapServers],
    sasl: { mechanism: 'SCRAM-SHA-512', username, password },
    serializers: stringSerializers,
    retries: 0,
  });
  try {
    await producer.send({ messages: [{ topic, value: 'hello' }] });
    return 'allowed';
  } catch (err) {
    return findErrorBy(err as Error, 'apiCode', TOPIC_AUTHORIZATION_FAILED) === null ? `other: ${(err as Error).message}` : 'denied';
  } finally {
    await producer.close();
  }
}

/** ACLs and credentials reach the broker through the metadata log: poll. */
async function expectProduce(outcome: 'allowed' | 'denied'): Promise<void> {
  await expect.poll(produceAsUser, { timeout: 15_000, interval: 250 }).toBe(outcome);
}

async function syncAcls(rules: Parameters<typeof desiredAclBindings>[1]): Promise<void> {
  const plan = planAcls(username, desiredAclBindings(username, rules), await admin.describeAcls(principalOf(username)));
  await admin.deleteAcls(plan.delete);
  await admin.createAcls(plan.create);
}

describe('PlatformaticKafkaAdmin against the real broker: users', () => {
  it('creates a SCRAM user whose produce is allowed by ACLs, denied after their removal; another principal keeps its ACL', async () => {
    const scram = planScram('SCRAM-SHA-512', password, await admin.describeScramCredentials(username), undefined);
    expect(scram.upsert).toBe(true);
    await admin.upsertScramCredential(username, 'SCRAM-SHA-512', password);
    expect(await admin.describeScramCredentials(username)).toEqual(['SCRAM-SHA-512']);

    await admin.createAcls([otherBinding]);
    await expectProduce('denied');

    await syncAcls([{ resource: { type: 'topic', name: topic, patternType: 'literal' }, operations: ['Write', 'Describe'], host: '*', permission: 'allow' }]);
    const mine = await admin.describeAcls(principalOf(username));
    expect(mine.map((b) => b.operation).sort()).toEqual(['Describe', 'Write']);
    expect(mine.every((b) => b.principal === principalOf(username))).toBe(true);
    await expectProduce('allowed');

    await syncAcls([]);
    expect(await admin.describeAcls(principalOf(username))).toEqual([]);
    await expectProduce('denied');
    expect(await admin.describeAcls(otherPrincipal)).toEqual([otherBinding]);
  });

  it('sets quotas, sees them in describe, then removes them', async () => {
    const desired = desiredQuotas({ producerByteRate: 1_048_576, requestPercentage: 50 });
    const set = planQuotas(desired, await admin.describeUserQuotas(username));
    expect(set).toEqual({ set: { producer_byte_rate: 1_048_576, request_percentage: 50 }, remove: [] });
    if (set !== null) await admin.alterUserQuotas(username, set);
    await expect.poll(() => admin.describeUserQuotas(username)).toEqual({ producer_byte_rate: 1_048_576, request_percentage: 50 });
    expect(planQuotas(desired, await admin.describeUserQuotas(username))).toBeNull();

    const remove = planQuotas({}, await admin.describeUserQuotas(username));
    expect(remove).toEqual({ set: {}, remove: ['producer_byte_rate', 'request_percentage'] });
    if (remove !== null) await admin.alterUserQuotas(username, remove);
    await expect.poll(() => admin.describeUserQuotas(username)).toEqual({});
  });

  it('sets and removes the quotas of client ids of the user, and sees neither its default client-id entity nor another user\u2019s', async () => {
    const other = `kop-int-other-${suffix}`;
    // Entities the operator must never read or touch, made with @platformatic/kafka's own Admin.
    const outsider = new Admin({ clientId: 'kafka-operator-int-outsider', bootstrapBrokers: [...kafka.bootstrapServers], sasl: { ...kafka.superUser } });
    const foreign = [
      [{ entityType: ClientQuotaEntityTypes.USER, entityName: username }, { entityType: ClientQuotaEntityTypes.CLIENT_ID, entityName: null }],
      [{ entityType: ClientQuotaEntityTypes.USER, entityName: other }, { entityType: ClientQuotaEntityTypes.CLIENT_ID, entityName: 'batch' }],
    ];
    try {
      await outsider.alterClientQuotas({ entries: foreign.map((entities) => ({ entities, ops: [{ key: 'producer_byte_rate', value: 7, remove: false }] })) });
      const desired = desiredClientIdQuotas([{ clientId: 'batch', producerByteRate: 512 }, { clientId: 'ui', consumerByteRate: 2048, requestPercentage: 10 }]);
      await admin.alterClientIdQuotas(username, planClientIdQuotas(desired, await admin.describeClientIdQuotas(username)));
      await expect.poll(() => admin.describeClientIdQuotas(username)).toEqual(desired);

      const fewer = desiredClientIdQuotas([{ clientId: 'ui', consumerByteRate: 2048 }]);
      await admin.alterClientIdQuotas(username, planClientIdQuotas(fewer, await admin.describeClientIdQuotas(username)));
      await expect.poll(() => admin.describeClientIdQuotas(username)).toEqual(fewer);
      await admin.alterClientIdQuotas(username, planClientIdQuotas(new Map(), await admin.describeClientIdQuotas(username)));
      await expect.poll(() => admin.describeClientIdQuotas(username)).toEqual(new Map());

      // The foreign entities are still there, untouched.
      const left = await outsider.describeClientQuotas({ components: [{ entityType: ClientQuotaEntityTypes.CLIENT_ID, matchType: ClientQuotaMatchTypes.ANY }], strict: false });
      const otherBatch = left.find((e) => e.entity.some((x) => x.entityName === other));
      expect(otherBatch?.values).toEqual([{ key: 'producer_byte_rate', value: 7 }]);
      const defaults = await outsider.describeClientQuotas({
        components: [
          { entityType: ClientQuotaEntityTypes.USER, matchType: ClientQuotaMatchTypes.EXACT, match: username },
          { entityType: ClientQuotaEntityTypes.CLIENT_ID, matchType: ClientQuotaMatchTypes.DEFAULT },
        ],
        strict: true,
      });
      expect(defaults.map((e) => e.values)).toEqual([[{ key: 'producer_byte_rate', value: 7 }]]);
    } finally {
      await outsider.alterClientQuotas({ entries: foreign.map((entities) => ({ entities, ops: [{ key: 'producer_byte_rate', remove: true }] })) });
      await outsider.close();
    }
  });

  it('deletes SCRAM credentials idempotently', async () => {
    const name = `kop-int-scram-${suffix}`;
    await admin.upsertScramCredential(name, 'SCRAM-SHA-256', password);
    await admin.upsertScramCredential(name, 'SCRAM-SHA-512', password);
    expect(await admin.describeScramCredentials(name)).toEqual(['SCRAM-SHA-256', 'SCRAM-SHA-512']);
    await admin.deleteScramCredential(name, 'SCRAM-SHA-256');
    await admin.deleteScramCredential(name, 'SCRAM-SHA-512');
    await admin.deleteScramCredential(name, 'SCRAM-SHA-512');
    expect(await admin.describeScramCredentials(name)).toEqual([]);
  });
});
