import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AclOperations,
  AclPermissionTypes,
  Admin,
  alterUserScramCredentialsV0,
  Connection,
  Consumer,
  findErrorBy,
  Producer,
  ResourcePatternTypes,
  ResourceTypes,
  ScramMechanisms,
  stringDeserializers,
  stringSerializers,
  type Acl,
  type SASLOptions,
} from '@platformatic/kafka';
import type { KafkaInfo, SaslUser } from '../env-file.ts';

/** Kafka's TOPIC_AUTHORIZATION_FAILED error code. */
const TOPIC_AUTHORIZATION_FAILED = 29;

/**
 * End-to-end check of a running testenv broker with the client the operator uses (@platformatic/kafka):
 * the super user logs in with SCRAM and creates a topic; a fresh SCRAM user (created through the
 * AlterUserScramCredentials protocol API) is denied on that topic until an ALLOW ACL exists, then
 * produces; an explicit DENY ACL then refuses it again; the super user consumes both accepted records. Everything it creates is deleted at the end, also
 * on failure. Resolves when all holds; rejects with an error naming the step otherwise. Takes about a
 * second on a warm broker.
 */
export async function kafkaSmokeCheck(info: KafkaInfo): Promise<void> {
  const bootstrapBrokers = [...info.bootstrapServers];
  const adminSasl = toSasl(info.superUser);
  const suffix = randomBytes(4).toString('hex');
  const topic = `testenv-smoke-${suffix}`;
  const user: SaslUser = { username: `smoke-${suffix}`, password: randomBytes(18).toString('base64url'), mechanism: 'SCRAM-SHA-512' };
  const acls = topicAcls(topic, user.username);

  const admin = new Admin({ clientId: 'testenv-smoke', bootstrapBrokers, sasl: adminSasl });
  const scram = new Connection('testenv-smoke-scram', { sasl: adminSasl });
  try {
    await step('create topic', () => admin.createTopics({ topics: [topic], partitions: 1, replicas: 1 }));
    await step('create SCRAM user', async () => {
      const [host, port] = splitHostPort(bootstrapBrokers[0] ?? '');
      await scram.connect(host, port);
      await upsertScramCredential(scram, user);
    });
    await step('user without ACL is denied', async () => {
      const denied = await retryUntil(() => produceAs(bootstrapBrokers, user, topic, 'denied').then(
        () => 'allowed',
        (err: unknown) => (findErrorBy(asError(err), 'apiCode', TOPIC_AUTHORIZATION_FAILED) === null ? 'other' : 'denied'),
      ), (outcome) => outcome === 'denied');
      if (denied !== 'denied') throw new Error(`expected TOPIC_AUTHORIZATION_FAILED, got: ${denied}`);
    });
    await step('create ACLs', () => admin.createAcls({ creations: acls }));
    await step('user with ACL produces', () => retryUntil(() => produceAs(bootstrapBrokers, user, topic, 'allowed').then(() => true, () => false), Boolean));
    await step('an explicit DENY ACL wins over the ALLOW', async () => {
      await admin.createAcls({ creations: acls.filter((acl) => acl.operation === AclOperations.WRITE).map((acl) => ({ ...acl, permissionType: AclPermissionTypes.DENY })) });
      const outcome = await retryUntil(() => produceAs(bootstrapBrokers, user, topic, 'after-deny').then(
        () => 'allowed',
        (err: unknown) => (findErrorBy(asError(err), 'apiCode', TOPIC_AUTHORIZATION_FAILED) === null ? 'other' : 'denied'),
      ), (value) => value === 'denied');
      if (outcome !== 'denied') throw new Error(`expected TOPIC_AUTHORIZATION_FAILED after the DENY ACL, got: ${outcome}`);
    });
    await step('super user produces', () => produceAs(bootstrapBrokers, info.superUser, topic, 'admin'));
    await step('super user consumes', async () => {
      const values = await consumeAll(bootstrapBrokers, adminSasl, topic, 2);
      if (values.join(',') !== 'allowed,admin') throw new Error(`unexpected records: ${values.join(',')}`);
    });
  } finally {
    await cleanup(admin, scram, topic, user.username);
  }
}

async function step<T>(name: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    throw new Error(`kafka smoke check: ${name}: ${describeError(asError(err))}`, { cause: err });
  }
}

/** The message of `err` and of the errors it aggregates (the client nests the broker's error codes there). */
function describeError(err: Error, depth = 0): string {
  const inner: unknown[] = err instanceof AggregateError ? err.errors : err.cause === undefined ? [] : [err.cause];
  const nested = depth < 4 ? [...new Set(inner.map((e) => describeError(asError(e), depth + 1)))] : [];
  return nested.length === 0 ? err.message : `${err.message} (${nested.join('; ')})`;
}

/**
 * Stores `user`'s SCRAM credential. The broker rejects a request naming one user twice
 * (DUPLICATE_RESOURCE), so each mechanism needs its own request.
 */
async function upsertScramCredential(connection: Connection, user: SaslUser): Promise<void> {
  const sha512 = user.mechanism === 'SCRAM-SHA-512';
  const salt = randomBytes(32);
  const iterations = 8192;
  const saltedPassword = pbkdf2Sync(user.password, salt, iterations, sha512 ? 64 : 32, sha512 ? 'sha512' : 'sha256');
  const mechanism = sha512 ? ScramMechanisms.SCRAM_SHA_512 : ScramMechanisms.SCRAM_SHA_256;
  await alterUserScramCredentialsV0.api.async(connection, [], [{ name: user.username, mechanism, iterations, salt, saltedPassword }]);
}

async function produceAs(bootstrapBrokers: string[], user: SaslUser, topic: string, value: string): Promise<void> {
  const producer = new Producer({ clientId: 'testenv-smoke', bootstrapBrokers, sasl: toSasl(user), serializers: stringSerializers, retries: 0 });
  try {
    await producer.send({ messages: [{ topic, value }] });
  } finally {
    await producer.close();
  }
}

async function consumeAll(bootstrapBrokers: string[], sasl: SASLOptions, topic: string, count: number): Promise<string[]> {
  const consumer = new Consumer({ clientId: 'testenv-smoke', groupId: `${topic}-reader`, bootstrapBrokers, sasl, deserializers: stringDeserializers });
  try {
    const stream = await consumer.consume({ topics: [topic], mode: 'earliest', maxWaitTime: 200 });
    const values: string[] = [];
    const timer = setTimeout(() => void stream.close(), 15_000);
    for await (const message of stream) {
      values.push(message.value);
      if (values.length >= count) break;
    }
    clearTimeout(timer);
    await stream.close();
    return values;
  } finally {
    await consumer.close(true);
  }
}

/** Deletes what the check created; best effort, so a failed step's error is the one reported. */
async function cleanup(admin: Admin, scram: Connection, topic: string, username: string): Promise<void> {
  const filter = {
    resourceType: ResourceTypes.ANY,
    resourceName: null,
    resourcePatternType: ResourcePatternTypes.ANY,
    principal: `User:${username}`,
    host: null,
    operation: AclOperations.ANY,
    permissionType: AclPermissionTypes.ANY,
  };
  await admin.deleteAcls({ filters: [filter] }).catch(() => undefined);
  if (scram.isConnected()) {
    await alterUserScramCredentialsV0.api.async(scram, [{ name: username, mechanism: ScramMechanisms.SCRAM_SHA_512 }], []).catch(() => undefined);
  }
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await scram.close().catch(() => undefined);
  await admin.close().catch(() => undefined);
}

function topicAcls(topic: string, username: string): Acl[] {
  return [AclOperations.WRITE, AclOperations.DESCRIBE].map((operation) => ({
    resourceType: ResourceTypes.TOPIC,
    resourceName: topic,
    resourcePatternType: ResourcePatternTypes.LITERAL,
    principal: `User:${username}`,
    host: '*',
    operation,
    permissionType: AclPermissionTypes.ALLOW,
  }));
}

/** Credentials and ACLs reach the broker through the metadata log, so a fresh change may need a moment. */
async function retryUntil<T>(attempt: () => Promise<T>, done: (value: T) => boolean, tries = 20): Promise<T> {
  let value = await attempt();
  for (let i = 1; i < tries && !done(value); i++) {
    await sleep(250);
    value = await attempt();
  }
  return value;
}

function toSasl(user: SaslUser): SASLOptions {
  return { mechanism: user.mechanism, username: user.username, password: user.password };
}

function splitHostPort(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), Number(address.slice(at + 1))];
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
