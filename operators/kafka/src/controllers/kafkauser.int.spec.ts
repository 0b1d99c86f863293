// KafkaUser scenarios against the real apiserver and the real broker: generated credentials that really log in,
// ACLs that really allow and deny, quotas, rotation, another principal's ACL untouched, deletion removing everything.
import type { Client } from '@domain-operators/reconcile';
import { coreTypes, secretValue } from '@domain-operators/reconcile';
import { AclOperations, AclPermissionTypes, ResourcePatternTypes, ResourceTypes } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaConnections, kafkaUsers } from '../api/v1alpha1/index.ts';
import type { KafkaUser } from '../api/v1alpha1/index.ts';
import type { RunningOperator } from '../test-support.int.ts';
import { adminCluster, createConnection, deleteIfExists, eventually, freshNamespace, installCrds, KafkaChecker, runOperator, suffix } from '../test-support.int.ts';

let client: Client;
let operator: RunningOperator;
let checker: KafkaChecker;
let namespace: string;
const id = suffix();
const connection = `int-users-${id}`;
let topic: string;
const otherPrincipal = `User:int-other-${id}`;

beforeAll(async () => {
  const cluster = await adminCluster();
  client = cluster.client;
  await installCrds(client);
  namespace = await freshNamespace(client, 'users');
  topic = `${namespace}.events`;
  await createConnection(client, cluster.kafka, namespace, connection, { namePrefix: '{namespace}.' });
  checker = new KafkaChecker(cluster.kafka);
  await checker.createTopic(topic, 1);
  operator = runOperator(cluster.kubeConfig, client);
}, 600_000);

afterAll(async () => {
  await operator.stop();
  await checker.admin.deleteAcls({ filters: [{ resourceType: ResourceTypes.ANY, resourceName: null, resourcePatternType: ResourcePatternTypes.ANY, principal: otherPrincipal, host: null, operation: AclOperations.ANY, permissionType: AclPermissionTypes.ANY }] });
  await checker.deleteTopics([topic]);
  await checker.close();
  await deleteIfExists(client, kafkaConnections.type, undefined, connection);
  for (const u of await client.listAll(kafkaUsers.type, { namespace })) {
    await client.patch(kafkaUsers.type, { namespace, name: u.metadata.name ?? '' }, { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
  }
  await deleteIfExists(client, coreTypes.namespace, undefined, namespace);
});

async function credentials(name: string): Promise<{ username: string; password: string }> {
  return eventually(
    async () => {
      const s = await client.get(coreTypes.secret, { namespace, name: `${name}-kafka-credentials` });
      const username = secretValue(s, 'username');
      const password = secretValue(s, 'password');
      return username !== undefined && password !== undefined ? { username, password } : undefined;
    },
    30_000,
    'generated credentials',
  );
}

async function synced(name: string): Promise<KafkaUser> {
  return eventually(
    async () => {
      const u = await client.get(kafkaUsers.type, { namespace, name });
      const c = u.status?.conditions?.find((x) => x.type === 'Synced');
      return c?.status === 'True' && c.observedGeneration === u.metadata.generation ? u : undefined;
    },
    60_000,
    `KafkaUser ${name} synced`,
  );
}

describe('KafkaUser against the real broker', () => {
  it('generates credentials that log in, applies ACLs and quotas, rotates the password, and leaves another principal alone', async () => {
    await checker.admin.createAcls({
      creations: [{ resourceType: ResourceTypes.TOPIC, resourceName: topic, resourcePatternType: ResourcePatternTypes.LITERAL, principal: otherPrincipal, host: '*', operation: AclOperations.READ, permissionType: AclPermissionTypes.ALLOW }],
    });
    const user: KafkaUser = {
      apiVersion: kafkaUsers.apiVersion,
      kind: 'KafkaUser',
      metadata: { name: 'app', namespace },
      spec: {
        connectionRef: { name: connection },
        authentication: { type: 'scram-sha-512' },
        acls: [{ resource: { type: 'topic', name: topic, patternType: 'literal' }, operations: ['Write', 'Describe'], host: '*', permission: 'allow' }],
        quotas: { producerByteRate: 1048576, requestPercentage: 50 },
      },
    };
    await client.create(kafkaUsers.type, user);
    const synced1 = await synced('app');
    const { username, password } = await credentials('app');
    expect(username).toBe(`${namespace}.app`);
    expect(JSON.stringify(synced1.status)).not.toContain(password);
    await eventually(async () => (await checker.produceAs(username, password, 'SCRAM-SHA-512', topic)) === 'allowed', 20_000, 'produce allowed');
    expect(await checker.userQuotas(username)).toEqual({ producer_byte_rate: 1048576, request_percentage: 50 });

    // Deny wins: the user's own deny rule stops produce.
    await client.patch(kafkaUsers.type, { namespace, name: 'app' }, {
      type: 'merge',
      body: { spec: { acls: [...(user.spec.acls ?? []), { resource: { type: 'topic', name: topic, patternType: 'literal' }, operations: ['Write'], host: '*', permission: 'deny' }] } },
    });
    await synced('app');
    await eventually(async () => (await checker.produceAs(username, password, 'SCRAM-SHA-512', topic)) === 'denied', 20_000, 'produce denied');

    // Rotation: a new password in the Secret is applied; the old one stops working.
    const rotated = 'rotated-' + suffix() + suffix();
    await client.patch(coreTypes.secret, { namespace, name: 'app-kafka-credentials' }, { type: 'merge', body: { stringData: { password: rotated } } });
    await eventually(async () => (await checker.produceAs(username, rotated, 'SCRAM-SHA-512', topic)) === 'denied', 30_000, 'new password logs in');
    expect(await checker.produceAs(username, password, 'SCRAM-SHA-512', topic)).toBe('login-failed');
    const secret = await client.get(coreTypes.secret, { namespace, name: 'app-kafka-credentials' });
    expect(secretValue(secret, 'sasl.jaas.config')).toContain(`password="${rotated}"`);

    // Deletion removes credentials, ACLs and quotas, never another principal's ACL.
    await client.delete(kafkaUsers.type, { namespace, name: 'app' });
    await eventually(async () => (await checker.produceAs(username, rotated, 'SCRAM-SHA-512', topic)) === 'login-failed', 30_000, 'credentials removed');
    await eventually(async () => Object.keys(await checker.userQuotas(username)).length === 0, 30_000, 'quotas removed');
    const acls = await checker.admin.describeAcls({ filter: { resourceType: ResourceTypes.ANY, resourceName: null, resourcePatternType: ResourcePatternTypes.ANY, principal: null, host: null, operation: AclOperations.ANY, permissionType: AclPermissionTypes.ANY } });
    const principals = acls.flatMap((r) => r.acls.map((a) => a.principal));
    expect(principals).toContain(otherPrincipal);
    expect(principals).not.toContain(`User:${username}`);
  });

  it('refuses ACLs outside the namespace prefix with TenancyViolation, creating nothing (not even the Secret)', async () => {
    await client.create(kafkaUsers.type, {
      apiVersion: kafkaUsers.apiVersion,
      kind: 'KafkaUser',
      metadata: { name: 'thief', namespace },
      spec: {
        connectionRef: { name: connection },
        authentication: { type: 'scram-sha-512' },
        acls: [{ resource: { type: 'topic', name: '*', patternType: 'literal' }, operations: ['Read'], host: '*', permission: 'allow' }],
      },
    });
    const message = await eventually(
      async () => {
        const c = (await client.get(kafkaUsers.type, { namespace, name: 'thief' })).status?.conditions?.find((x) => x.type === 'Synced');
        return c?.reason === 'TenancyViolation' ? c.message : undefined;
      },
      30_000,
      'TenancyViolation',
    );
    expect(message).toContain('"*" means every resource');
    await expect(client.get(coreTypes.secret, { namespace, name: 'thief-kafka-credentials' })).rejects.toMatchObject({ status: 404 });
  });
});
