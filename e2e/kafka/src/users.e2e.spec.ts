// KafkaUser end to end: generated credentials that really log in, ACLs that really allow and deny produce and
// consume, quotas that show in DescribeClientQuotas, password rotation, another principal's hand-made ACL left
// alone, deletion that removes everything of the user, and tenancy refusals that create nothing.
import type { V1Secret } from '@kubernetes/client-node';
import { adminClient, eventually, freshNamespace, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { kafkaTopics, kafkaUsers } from './api.ts';
import type { KafkaUser } from './api.ts';
import { coreTypes, isNotFound } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import type { KafkaInfo } from '@domain-operators/testenv';
import { AclOperations, AclPermissionTypes, ResourcePatternTypes, ResourceTypes } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, createConnection, kafkaUnderTest, topicResource, userResource, waitForReason } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';
import { becomes } from './access.ts';
import type { UserLogin } from './kafka-checker.ts';

let client: Client;
let kafka: KafkaInfo;
let checker: KafkaChecker;
let operator: OperatorProcess | undefined;
let namespace: string;
let topic: string;
const id = randomSuffix();
const connection = `e2e-users-${id}`;
const otherPrincipal = `User:e2e-other-${id}`;

beforeAll(async () => {
  client = await adminClient();
  kafka = await kafkaUnderTest();
  checker = new KafkaChecker(kafka);
  namespace = await freshNamespace({}, 'e2e-users');
  topic = `${namespace}.events`;
  await createConnection(client, kafka, { name: connection, secretNamespace: namespace, tenancy: { namePrefix: '{namespace}.' } });
  operator = await startOperator({ system: 'kafka' });
  // The topic the user works on is itself a KafkaTopic; one record in it to consume.
  await client.create(kafkaTopics.type, topicResource(namespace, 'events', connection, { deletionPolicy: 'Delete' }));
  await waitForCondition(client, kafkaTopics.type, { namespace, name: 'events' }, 'Ready', 'True', 60_000);
  expect(await checker.produceAs(kafka.superUser, topic)).toBe('allowed');
});

afterAll(async () => {
  await operator?.stop();
  await checker.deleteAclsOf(otherPrincipal);
  await checker.deleteTopics([topic]);
  await checker.close();
  await cleanUp(client, [namespace], [connection]);
});

function running(): OperatorProcess {
  if (operator === undefined) throw new Error('the operator did not start');
  return operator;
}

function stringData(secret: V1Secret, key: string): string | undefined {
  const value = secret.data?.[key];
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

async function generatedLogin(name: string): Promise<UserLogin> {
  const secret = await client.get(coreTypes.secret, { namespace, name: `${name}-kafka-credentials` });
  const username = stringData(secret, 'username');
  const password = stringData(secret, 'password');
  if (username === undefined || password === undefined) throw new Error('the credentials Secret lacks username or password');
  return { username, password, mechanism: 'SCRAM-SHA-512' };
}

async function ready(name: string): Promise<KafkaUser> {
  return waitForCondition(client, kafkaUsers.type, { namespace, name }, 'Ready', 'True', 60_000);
}

describe('KafkaUser, end to end', () => {
  it('generates credentials that log in, with ACLs that allow produce and consume and quotas Kafka reports', async () => {
    // A hand-made ACL of another principal on the same topic: the operator must never touch it.
    await checker.admin.createAcls({
      creations: [
        { resourceType: ResourceTypes.TOPIC, resourceName: topic, resourcePatternType: ResourcePatternTypes.LITERAL, principal: otherPrincipal, host: '*', operation: AclOperations.READ, permissionType: AclPermissionTypes.ALLOW },
      ],
    });
    await client.create(
      kafkaUsers.type,
      userResource(namespace, 'app', connection, {
        acls: [
          { resource: { type: 'topic', name: topic, patternType: 'literal' }, operations: ['Write', 'Read', 'Describe'], host: '*', permission: 'allow' },
          { resource: { type: 'group', name: `${namespace}.`, patternType: 'prefixed' }, operations: ['Read'], host: '*', permission: 'allow' },
        ],
        quotas: { producerByteRate: 1048576, consumerByteRate: 2097152, requestPercentage: 50 },
      }),
    );
    const user = await ready('app');
    const login = await generatedLogin('app');
    expect(login.username).toBe(`${namespace}.app`);
    expect(user.status).toMatchObject({ username: login.username, secretName: 'app-kafka-credentials' });
    expect(JSON.stringify(user.status)).not.toContain(login.password);
    const secret = await client.get(coreTypes.secret, { namespace, name: 'app-kafka-credentials' });
    expect(stringData(secret, 'mechanism')).toBe('SCRAM-SHA-512');
    expect(stringData(secret, 'bootstrapServers')).toBe(kafka.bootstrapServers.join(','));
    expect(stringData(secret, 'sasl.jaas.config')).toContain(`username="${login.username}"`);
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'KafkaUser', name: 'app', controller: true });

    await becomes(() => checker.produceAs(login, topic), 'allowed', 'produce with the generated login');
    await becomes(() => checker.consumeAs(login, topic, `${namespace}.g1`), 'allowed', 'consume with the generated login');
    // A group outside the allowed prefix is denied.
    expect(await checker.consumeAs(login, topic, `elsewhere-${id}`)).toBe('denied');
    expect(await checker.userQuotas(login.username)).toEqual({ producer_byte_rate: 1048576, consumer_byte_rate: 2097152, request_percentage: 50 });
  });

  it('applies a rotated password from the Secret: the new one logs in, the old one no longer does', async () => {
    const old = await generatedLogin('app');
    const rotated = `rotated-${randomSuffix(12)}`;
    await client.patch(coreTypes.secret, { namespace, name: 'app-kafka-credentials' }, { type: 'merge', body: { stringData: { password: rotated } } });
    await becomes(() => checker.produceAs({ ...old, password: rotated }, topic), 'allowed', 'produce with the rotated password');
    expect(await checker.produceAs(old, topic)).toBe('login-failed');
    const secret = await client.get(coreTypes.secret, { namespace, name: 'app-kafka-credentials' });
    expect(stringData(secret, 'sasl.jaas.config')).toContain(`password="${rotated}"`);
    expect(JSON.stringify((await client.get(kafkaUsers.type, { namespace, name: 'app' })).status)).not.toContain(rotated);
  });

  it('force-rotate: a new annotation value generates a new password once; the new one logs in, the old one no longer does', async () => {
    const old = await generatedLogin('app');
    await client.patch(kafkaUsers.type, { namespace, name: 'app' }, { type: 'merge', body: { metadata: { annotations: { 'kafka.domain-operators.io/force-rotate': 'r1' } } } });
    const fresh = await eventually(
      async () => {
        const login = await generatedLogin('app');
        return login.password !== old.password ? login : undefined;
      },
      { timeoutMs: 30_000, what: 'a new generated password' },
    );
    await becomes(() => checker.produceAs(fresh, topic), 'allowed', 'produce with the force-rotated password');
    expect(await checker.produceAs(old, topic)).toBe('login-failed');
    const secret = await client.get(coreTypes.secret, { namespace, name: 'app-kafka-credentials' });
    expect(secret.metadata?.annotations?.['kafka.domain-operators.io/rotated-for']).toBe('r1');
    expect(stringData(secret, 'sasl.jaas.config')).toContain(`password="${fresh.password}"`);
    expect(JSON.stringify((await client.get(kafkaUsers.type, { namespace, name: 'app' })).status)).not.toContain(fresh.password);
  });

  it('rotates a password from a referenced Secret that carries no label of ours (noticed by the metadata-only Secret watch)', async () => {
    const first = `own-${randomSuffix(12)}`;
    await client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace, name: 'team-password' }, stringData: { password: first } });
    await client.create(
      kafkaUsers.type,
      userResource(namespace, 'referenced', connection, {
        authentication: { type: 'scram-sha-512', passwordSecretRef: { name: 'team-password', key: 'password' } },
        acls: [{ resource: { type: 'topic', name: topic, patternType: 'literal' }, operations: ['Write', 'Describe'], host: '*', permission: 'allow' }],
      }),
    );
    await ready('referenced');
    const login: UserLogin = { username: `${namespace}.referenced`, password: first, mechanism: 'SCRAM-SHA-512' };
    await becomes(() => checker.produceAs(login, topic), 'allowed', 'produce with the referenced password');
    const rotated = `rotated-${randomSuffix(12)}`;
    await client.patch(coreTypes.secret, { namespace, name: 'team-password' }, { type: 'merge', body: { stringData: { password: rotated } } });
    await becomes(() => checker.produceAs({ ...login, password: rotated }, topic), 'allowed', 'produce with the rotated referenced password');
    expect(await checker.produceAs(login, topic)).toBe('login-failed');
    const secret = await client.get(coreTypes.secret, { namespace, name: 'team-password' });
    expect(secret.metadata?.labels ?? {}).not.toHaveProperty('app.kubernetes.io/managed-by');
    await client.delete(kafkaUsers.type, { namespace, name: 'referenced' });
  });

  it('denies produce and consume once deny rules are added (deny wins over allow)', async () => {
    const login = await generatedLogin('app');
    const user = await client.get(kafkaUsers.type, { namespace, name: 'app' });
    const deny = { resource: { type: 'topic' as const, name: topic, patternType: 'literal' as const }, operations: ['Write' as const, 'Read' as const], host: '*', permission: 'deny' as const };
    await client.patch(kafkaUsers.type, { namespace, name: 'app' }, { type: 'merge', body: { spec: { acls: [...(user.spec.acls ?? []), deny] } } });
    await ready('app');
    await becomes(() => checker.produceAs(login, topic), 'denied', 'produce denied');
    await becomes(() => checker.consumeAs(login, topic, `${namespace}.g2`), 'denied', 'consume denied');
  });

  it('removes credentials, ACLs and quotas on delete, and leaves the other principal\u2019s ACL alone', async () => {
    const login = await generatedLogin('app');
    await client.delete(kafkaUsers.type, { namespace, name: 'app' });
    await becomes(() => checker.produceAs(login, topic), 'login-failed', 'login refused after delete');
    await eventually(async () => (Object.keys(await checker.userQuotas(login.username)).length === 0 ? true : undefined), { timeoutMs: 30_000, what: 'quotas removed' });
    const principals = await checker.aclPrincipals();
    expect(principals).toContain(otherPrincipal);
    expect(principals).not.toContain(`User:${login.username}`);
    // The generated Secret is owned by the KafkaUser: the garbage collector removes it.
    await eventually(
      async () => {
        try {
          await client.get(coreTypes.secret, { namespace, name: 'app-kafka-credentials' });
          return undefined;
        } catch (err) {
          return isNotFound(err) ? true : undefined;
        }
      },
      { timeoutMs: 60_000, what: 'credentials Secret garbage-collected' },
    );
  });

  it('refuses a username or an ACL outside the namespace prefix with TenancyViolation, creating nothing (not even the Secret)', async () => {
    await client.create(
      kafkaUsers.type,
      userResource(namespace, 'thief', connection, { acls: [{ resource: { type: 'topic', name: '*', patternType: 'literal' }, operations: ['Read'], host: '*', permission: 'allow' }] }),
    );
    expect(await waitForReason(client, kafkaUsers.type, { namespace, name: 'thief' }, { type: 'Synced', status: 'False', reason: 'TenancyViolation' })).toContain('"*" means every resource');
    await client.create(kafkaUsers.type, userResource(namespace, 'impostor', connection, { username: `other-team.admin-${id}` }));
    expect(await waitForReason(client, kafkaUsers.type, { namespace, name: 'impostor' }, { type: 'Synced', status: 'False', reason: 'TenancyViolation' })).toContain(
      `must start with "${namespace}."`,
    );
    for (const name of ['thief', 'impostor']) {
      await expect(client.get(coreTypes.secret, { namespace, name: `${name}-kafka-credentials` })).rejects.toMatchObject({ status: 404 });
    }
    expect(await checker.produceAs({ username: `other-team.admin-${id}`, password: 'x', mechanism: 'SCRAM-SHA-512' }, topic)).toBe('login-failed');
  });

  it('did all this as its ServiceAccount without a single authorization failure, and logged no secret', async () => {
    const log = await running().logTail(5_000);
    expect(log).not.toMatch(/forbidden/i);
    expect(log).not.toContain(kafka.superUser.password);
  });
});
