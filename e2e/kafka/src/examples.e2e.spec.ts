// examples/kafka applied for real, as a user applies it (`kubectl apply -f examples/kafka/`, file order, through the
// Kubernetes API), with the kafka operator running as its chart's ServiceAccount, and checked in Kafka with an
// independent client. Only two kinds of change are made to the examples: names, so that this run touches nobody
// else's objects (every namespace gets a random suffix, the connection `main` a random name, and the tenant names
// in the namespace's prefix follow: forTestRun), and what is specific to where Kafka runs (the connection's
// bootstrap servers and SASL mechanism, the login Secret's username and password), from the Kafka under test.
// Tenancy labels and prefix, ACLs, quotas, partitions and configs stay as the examples have them.
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import { adminClient, eventually, ExampleRun, kstatusNow, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, requestFor as request } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KafkaConnection, KafkaTopic, KafkaUser } from './api.ts';
import { cleanUp, kafkaUnderTest } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';
import { becomes } from './access.ts';
import type { UserLogin } from './kafka-checker.ts';

const suffix = randomSuffix();
const run = new ExampleRun('kafka', suffix);
const { examples, resources, namespaces } = run;

/**
 * The examples with what is specific to where Kafka runs taken from `kafka`: each KafkaConnection's bootstrap
 * servers and SASL mechanism, and the username and password (under the keys the connection names) of the login
 * Secret it references. Throws when the examples have no connection with such a Secret. Pure.
 */
function atKafkaUnderTest(objects: readonly KubernetesObject[], kafka: KafkaInfo): KubernetesObject[] {
  const connections = objects.filter((object): object is KafkaConnection => object.kind === 'KafkaConnection');
  const logins = new Map(connections.flatMap((c) => (c.spec.sasl === undefined ? [] : [[`${c.spec.sasl.secretRef.namespace}/${c.spec.sasl.secretRef.name}`, c.spec.sasl.secretRef] as const])));
  const secrets = objects.filter((object) => object.kind === 'Secret' && logins.has(`${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`));
  if (connections.length === 0 || secrets.length !== logins.size) throw new Error('examples/kafka: expected a KafkaConnection and the login Secret it references');
  return objects.map((object) => {
    if (object.kind === 'KafkaConnection') {
      const connection = structuredClone(object) as KafkaConnection;
      connection.spec.bootstrapServers = [...kafka.bootstrapServers];
      if (connection.spec.sasl !== undefined) connection.spec.sasl.mechanism = kafka.superUser.mechanism;
      return connection;
    }
    const ref = object.kind === 'Secret' ? logins.get(`${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`) : undefined;
    if (ref === undefined) return object;
    const secret = structuredClone(object) as V1Secret;
    secret.stringData = { ...secret.stringData, [ref.usernameKey]: kafka.superUser.username, [ref.passwordKey]: kafka.superUser.password };
    return secret;
  });
}

let client: Client;
let kafka: KafkaInfo;
let checker: KafkaChecker;
let operator: OperatorProcess | undefined;
const connectionNames = resources.filter((object) => object.kind === 'KafkaConnection').map((object) => object.metadata?.name ?? '');
const typeOf = (object: KubernetesObject) => run.typeOf(object);
const only = (kind: string): KubernetesObject => run.only(kind);
const gone = (object: KubernetesObject): Promise<boolean> => run.gone(client, object);

function stringData(secret: V1Secret, key: string): string | undefined {
  const value = secret.data?.[key];
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

beforeAll(async () => {
  client = await adminClient();
  kafka = await kafkaUnderTest();
  checker = new KafkaChecker(kafka);
  operator = await startOperator({ system: 'kafka' });
  run.useCrds(operator.installation.rendered);
  await run.apply(client, atKafkaUnderTest(examples, kafka));
});

/**
 * Deletes the example's custom resources while the operator runs, so that its finalizers remove the user and the
 * topic from Kafka (the example topic is Retain: switched to Delete first). Never rejects.
 */
async function deleteThroughOperator(): Promise<void> {
  const namespaced = resources.filter((object) => object.metadata?.namespace !== undefined);
  try {
    for (const object of namespaced.filter((o) => o.kind === 'KafkaTopic')) {
      await client.patch(typeOf(object), request(object), { type: 'merge', body: { spec: { deletionPolicy: 'Delete' } } }).catch(() => undefined);
    }
    for (const object of namespaced) await client.delete(typeOf(object), request(object)).catch(() => undefined);
    await eventually(async () => ((await Promise.all(namespaced.map(gone))).every(Boolean) ? true : undefined), { timeoutMs: 60_000, what: 'the example resources deleted' });
  } catch (err) {
    console.warn(`examples/kafka clean-up through the operator: ${String(err)}`);
  }
}

afterAll(async () => {
  if (operator !== undefined) {
    await deleteThroughOperator();
    await operator.stop();
  }
  // Whatever a failed step left behind.
  const topic = only('KafkaTopic') as KafkaTopic;
  const user = only('KafkaUser') as KafkaUser;
  await checker.deleteTopics([`${topic.metadata.namespace}.${topic.metadata.name}`]).catch(() => undefined);
  await checker.deleteAclsOf(`User:${user.metadata.namespace}.${user.metadata.name}`).catch(() => undefined);
  await checker.close();
  await cleanUp(client, namespaces, connectionNames);
});

describe('examples/kafka applied for real', () => {
  it('has every custom resource Ready=True at its current generation', async () => {
    expect(resources.map((object) => object.kind).sort()).toEqual(['KafkaConnection', 'KafkaTopic', 'KafkaUser']);
    await Promise.all(resources.map((object) => waitForCondition(client, typeOf(object), request(object), 'Ready', 'True', 60_000)));
  });


  it('kstatus, as Flux and kpt run it, calls every example Current once Ready', async () => {
    const reading = await kstatusNow(client, resources, typeOf, 'Current');
    expect(reading.others).toEqual([]);
    expect(reading.all).toHaveLength(resources.length);
  });
  it('KafkaConnection: reports the cluster id Kafka itself reports', async () => {
    const connection = only('KafkaConnection') as KafkaConnection;
    const ready = await waitForCondition(client, typeOf(connection), request(connection), 'Ready', 'True', 60_000);
    const metadata = await checker.admin.metadata({ topics: [], forceUpdate: true });
    expect((ready as KafkaConnection).status?.clusterId).toBe(metadata.id);
  });

  it("KafkaTopic: the topic exists in Kafka under the namespace's prefix, with the example's partitions, replication factor and config", async () => {
    const topic = only('KafkaTopic') as KafkaTopic;
    const ready = (await waitForCondition(client, typeOf(topic), request(topic), 'Ready', 'True', 60_000)) as KafkaTopic;
    const name = `${topic.metadata.namespace}.${topic.metadata.name}`;
    expect(ready.status?.topicName).toBe(name);
    expect(await checker.topic(name)).toEqual({ partitions: topic.spec.partitions, replicationFactor: topic.spec.replicationFactor });
    expect(await checker.overridesOf(name)).toEqual(topic.spec.config);
  });

  it('KafkaUser: its generated credentials log in, its ACLs allow produce and consume in its groups but not in another group, Kafka reports its quotas and those of its client id', async () => {
    const user = only('KafkaUser') as KafkaUser;
    const topic = only('KafkaTopic') as KafkaTopic;
    const namespace = user.metadata.namespace ?? '';
    const ready = (await waitForCondition(client, typeOf(user), request(user), 'Ready', 'True', 60_000)) as KafkaUser;
    const secret = await client.get(coreTypes.secret, { namespace, name: ready.status?.secretName ?? `${user.metadata.name}-kafka-credentials` });
    const login: UserLogin = { username: stringData(secret, 'username') ?? '', password: stringData(secret, 'password') ?? '', mechanism: 'SCRAM-SHA-512' };
    expect(login.username).toBe(`${namespace}.${user.metadata.name}`);
    expect(login.password).not.toBe('');
    // The ACLs name the example topic and a group prefix in the namespace's prefix (renamed with the namespace).
    const topicName = `${topic.metadata.namespace}.${topic.metadata.name}`;
    expect(user.spec.acls?.find((acl) => acl.resource.type === 'topic')?.resource.name).toBe(topicName);
    const groupPrefix = user.spec.acls?.find((acl) => acl.resource.type === 'group' && acl.resource.patternType === 'prefixed')?.resource.name ?? '';
    expect(groupPrefix.startsWith(`${namespace}.`)).toBe(true);

    await becomes(() => checker.produceAs(login, topicName), 'allowed', 'produce with the generated login');
    await becomes(() => checker.consumeAs(login, topicName, `${groupPrefix}-e2e`), 'allowed', 'consume in a group under the allowed prefix');
    expect(await checker.consumeAs(login, topicName, `ex-other-${suffix}`)).toBe('denied');
    expect(await checker.produceAs({ ...login, password: `${login.password}-wrong` }, topicName)).toBe('login-failed');
    expect(await checker.userQuotas(login.username)).toEqual({ producer_byte_rate: user.spec.quotas?.producerByteRate, consumer_byte_rate: user.spec.quotas?.consumerByteRate });
    const batch = user.spec.quotas?.clients?.[0];
    expect(batch?.clientId).toBe('orders-batch');
    expect(await checker.clientIdQuotas(login.username)).toEqual({ 'orders-batch': { producer_byte_rate: batch?.producerByteRate } });
  });
});
