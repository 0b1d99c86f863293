// Kafka as an outsider sees it: @platformatic/kafka's own Admin, Producer and Consumer classes with the testenv
// super user (or a user's own login), independent of the operator's adapter layer. The e2e suites check Kafka only
// through this.
import type { KafkaInfo } from '@domain-operators/testenv';
import {
  AclOperations,
  AclPermissionTypes,
  Admin,
  ClientQuotaEntityTypes,
  ClientQuotaMatchTypes,
  ConfigResourceTypes,
  ConfigSources,
  Consumer,
  ProduceAcks,
  Producer,
  ResourcePatternTypes,
  ResourceTypes,
  stringDeserializers,
  stringSerializers,
} from '@platformatic/kafka';

/** A topic as Kafka describes it. */
export interface TopicShape {
  readonly partitions: number;
  readonly replicationFactor: number;
}

/** A topic as Kafka describes it, with its id (a new id means the topic was deleted and created again). */
export interface TopicDescription extends TopicShape {
  readonly id: string;
}

/** What happened when a user tried to produce or consume. */
export type AccessOutcome = 'allowed' | 'denied' | 'login-failed' | `other: ${string}`;

/** A SCRAM login of a Kafka user. */
export interface UserLogin {
  readonly username: string;
  readonly password: string;
  readonly mechanism: 'SCRAM-SHA-512' | 'SCRAM-SHA-256';
}

const TOPIC_AUTHORIZATION_FAILED = 29;
const GROUP_AUTHORIZATION_FAILED = 30;

/** `err` and every error nested in it (`errors` of an aggregate, `cause`), depth first. Pure. */
function errorChain(err: unknown, seen = new Set<unknown>()): Record<string, unknown>[] {
  if (typeof err !== 'object' || err === null || seen.has(err)) return [];
  seen.add(err);
  const record = err as Record<string, unknown>;
  const nested = Array.isArray(record['errors']) ? (record['errors'] as unknown[]) : [];
  return [record, ...nested.flatMap((e) => errorChain(e, seen)), ...errorChain(record['cause'], seen)];
}

/**
 * Classifies an error of a produce or consume attempt, looking through nested errors: an authorization code →
 * `denied`; a failed SASL login → `login-failed`; anything else → `other: <message>`. Pure.
 */
export function accessOutcomeOf(err: unknown): AccessOutcome {
  const chain = errorChain(err);
  if (chain.some((e) => e['apiCode'] === TOPIC_AUTHORIZATION_FAILED || e['apiCode'] === GROUP_AUTHORIZATION_FAILED)) return 'denied';
  if (chain.some((e) => e['code'] === 'PLT_KFK_AUTHENTICATION' || e['apiId'] === 'SASL_AUTHENTICATION_FAILED')) return 'login-failed';
  return `other: ${err instanceof Error ? err.message : String(err)}`;
}

/**
 * Kafka through @platformatic/kafka's own clients, as the testenv super user. Not safe to share across suites (each
 * holds its own connections); call {@link close} when done. Reads are live (`forceUpdate`), never cached.
 */
export class KafkaChecker {
  readonly #kafka: KafkaInfo;
  readonly #admin: Admin;

  /** No I/O: connections open on first use. */
  constructor(kafka: KafkaInfo) {
    this.#kafka = kafka;
    this.#admin = new Admin({ clientId: 'e2e-kafka-checker', bootstrapBrokers: [...kafka.bootstrapServers], sasl: { ...kafka.superUser } });
  }

  /** The admin client itself, for set-up a test does by hand (an ACL of another principal, a drifted config). */
  get admin(): Admin {
    return this.#admin;
  }

  /** Every topic name except internal ones. */
  async topicNames(): Promise<Set<string>> {
    return new Set(await this.#admin.listTopics({ includeInternals: false }));
  }

  /** Partitions and replication factor of `name`, or `undefined` when no such topic exists. */
  async topic(name: string): Promise<TopicShape | undefined> {
    const found = (await this.topics([name])).get(name);
    return found === undefined ? undefined : { partitions: found.partitions, replicationFactor: found.replicationFactor };
  }

  /** Id, partitions and replication factor of each existing topic of `names` (missing ones are left out). */
  async topics(names: readonly string[]): Promise<Map<string, TopicDescription>> {
    const out = new Map<string, TopicDescription>();
    const existing = await this.topicNames();
    const present = names.filter((n) => existing.has(n));
    for (let i = 0; i < present.length; i += 200) {
      const metadata = await this.#admin.metadata({ topics: present.slice(i, i + 200), forceUpdate: true });
      for (const [name, topic] of metadata.topics) {
        out.set(name, { id: topic.id, partitions: topic.partitionsCount, replicationFactor: Math.min(...topic.partitions.map((p) => p.replicas.length)) });
      }
    }
    return out;
  }

  /**
   * Each partition's replicas and in-sync replicas (both sorted), by partition order, or `undefined` when the topic
   * does not exist. Read live from Metadata.
   */
  async replicaSets(name: string): Promise<{ readonly replicas: number[]; readonly isr: number[] }[] | undefined> {
    if (!(await this.topicNames()).has(name)) return undefined;
    const topic = (await this.#admin.metadata({ topics: [name], forceUpdate: true })).topics.get(name);
    const sorted = (ids: readonly number[]): number[] => [...ids].sort((a, b) => a - b);
    return topic?.partitions.map((p) => ({ replicas: sorted(p.replicas), isr: sorted(p.isr) }));
  }

  /** The topic-level config overrides (dynamic topic configs) of each of `names`. */
  async topicOverrides(names: readonly string[]): Promise<Map<string, Record<string, string>>> {
    const out = new Map<string, Record<string, string>>();
    for (let i = 0; i < names.length; i += 100) {
      const resources = names.slice(i, i + 100).map((resourceName) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName }));
      for (const description of await this.#admin.describeConfigs({ resources })) {
        const overrides: Record<string, string> = {};
        for (const c of description.configs) if (c.configSource === ConfigSources.DYNAMIC_TOPIC_CONFIG && typeof c.value === 'string') overrides[c.name] = c.value;
        out.set(description.resourceName, overrides);
      }
    }
    return out;
  }

  /** The topic-level config overrides of one topic. */
  async overridesOf(name: string): Promise<Record<string, string>> {
    return (await this.topicOverrides([name])).get(name) ?? {};
  }

  /** The client quotas of entity `user=<username>`, keyed as Kafka names them (`producer_byte_rate`, …). */
  async userQuotas(username: string): Promise<Record<string, number>> {
    // strict: the entity user=<username> alone, not its (user, client-id) entities.
    const entries = await this.#admin.describeClientQuotas({ components: [{ entityType: ClientQuotaEntityTypes.USER, matchType: ClientQuotaMatchTypes.EXACT, match: username }], strict: true });
    const out: Record<string, number> = {};
    for (const entry of entries) for (const v of entry.values) out[v.key] = v.value;
    return out;
  }

  /**
   * The client quotas of every entity `user=<username>,client-id=<id>`, by client id (`<default>` for the user's
   * default client-id entity), keyed as Kafka names them.
   */
  async clientIdQuotas(username: string): Promise<Record<string, Record<string, number>>> {
    const entries = await this.#admin.describeClientQuotas({
      components: [{ entityType: ClientQuotaEntityTypes.USER, matchType: ClientQuotaMatchTypes.EXACT, match: username }, { entityType: ClientQuotaEntityTypes.CLIENT_ID, matchType: ClientQuotaMatchTypes.ANY }],
      strict: true,
    });
    const defaults = await this.#admin.describeClientQuotas({
      components: [{ entityType: ClientQuotaEntityTypes.USER, matchType: ClientQuotaMatchTypes.EXACT, match: username }, { entityType: ClientQuotaEntityTypes.CLIENT_ID, matchType: ClientQuotaMatchTypes.DEFAULT }],
      strict: true,
    });
    const out: Record<string, Record<string, number>> = {};
    for (const entry of [...entries, ...defaults]) {
      const clientId = entry.entity.find((e) => e.entityType === ClientQuotaEntityTypes.CLIENT_ID)?.entityName ?? '<default>';
      out[clientId] = Object.fromEntries(entry.values.map((v) => [v.key, v.value]));
    }
    return out;
  }

  /** Every ACL principal that holds at least one ACL, once each (`User:…`). */
  async aclPrincipals(): Promise<Set<string>> {
    const acls = await this.#admin.describeAcls({
      filter: { resourceType: ResourceTypes.ANY, resourceName: null, resourcePatternType: ResourcePatternTypes.ANY, principal: null, host: null, operation: AclOperations.ANY, permissionType: AclPermissionTypes.ANY },
    });
    return new Set(acls.flatMap((r) => r.acls.map((a) => a.principal)));
  }

  /** Deletes every ACL of `principal` (test clean-up of a hand-made ACL). */
  async deleteAclsOf(principal: string): Promise<void> {
    await this.#admin.deleteAcls({
      filters: [{ resourceType: ResourceTypes.ANY, resourceName: null, resourcePatternType: ResourcePatternTypes.ANY, principal, host: null, operation: AclOperations.ANY, permissionType: AclPermissionTypes.ANY }],
    });
  }

  /** Creates topics directly, `batchSize` per CreateTopics request, RF 1 (as someone other than the operator). */
  async createTopics(names: readonly string[], partitions: number, configs: Readonly<Record<string, string>> = {}, batchSize = 100): Promise<void> {
    const entries = Object.entries(configs).map(([name, value]) => ({ name, value }));
    const batches: Promise<unknown>[] = [];
    for (let i = 0; i < names.length; i += batchSize) {
      batches.push(this.#admin.createTopics({ topics: names.slice(i, i + batchSize), partitions, replicas: 1, configs: entries }));
    }
    await Promise.all(batches);
  }

  /** Deletes the topics of `names` that exist, `batchSize` per request, and waits until Kafka lists none of them. */
  async deleteTopics(names: readonly string[], batchSize = 100): Promise<void> {
    const existing = await this.topicNames();
    const present = names.filter((n) => existing.has(n));
    const batches: Promise<unknown>[] = [];
    for (let i = 0; i < present.length; i += batchSize) batches.push(this.#admin.deleteTopics({ topics: present.slice(i, i + batchSize) }));
    await Promise.all(batches);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const left = await this.topicNames();
      if (present.every((n) => !left.has(n))) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('topics still listed 60 s after DeleteTopics');
  }

  /** Produces one record to `topic` with `login` (no retries): `allowed`, `denied`, `login-failed` or `other: …`. */
  async produceAs(login: UserLogin, topic: string): Promise<AccessOutcome> {
    const producer = new Producer({
      clientId: 'e2e-kafka-user',
      bootstrapBrokers: [...this.#kafka.bootstrapServers],
      sasl: { ...login },
      serializers: stringSerializers,
      retries: 0,
    });
    try {
      await producer.send({ messages: [{ topic, value: 'hello' }] });
      return 'allowed';
    } catch (err) {
      return accessOutcomeOf(err);
    } finally {
      await producer.close().catch(() => undefined);
    }
  }

  /**
   * Reads one record of `topic` from the earliest offset in consumer group `groupId` with `login`: `allowed` once a
   * record arrives (the topic must hold one), `denied`, `login-failed` or `other: …` (also after `timeoutMs`).
   */
  async consumeAs(login: UserLogin, topic: string, groupId: string, timeoutMs = 15_000): Promise<AccessOutcome> {
    const consumer = new Consumer({
      clientId: 'e2e-kafka-user',
      groupId,
      bootstrapBrokers: [...this.#kafka.bootstrapServers],
      sasl: { ...login },
      deserializers: stringDeserializers,
      retries: 0,
      autocommit: false,
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const stream = await consumer.consume({ topics: [topic], mode: 'earliest', fallbackMode: 'earliest' });
      const first = new Promise<AccessOutcome>((resolve) => {
        stream.once('data', () => { resolve('allowed'); });
        stream.once('error', (err: unknown) => { resolve(accessOutcomeOf(err)); });
        timer = setTimeout(() => { resolve(`other: no record within ${timeoutMs} ms`); }, timeoutMs);
      });
      const outcome = await first;
      await stream.close().catch(() => undefined);
      return outcome;
    } catch (err) {
      return accessOutcomeOf(err);
    } finally {
      clearTimeout(timer);
      await consumer.close(true).catch(() => undefined);
    }
  }

  /**
   * Produces `values` to `topic` as the super user, acknowledged by every in-sync replica (`acks=all`), spread over
   * the partitions by key. Rejects when any record is not acknowledged.
   */
  async produceRecords(topic: string, values: readonly string[]): Promise<void> {
    const producer = new Producer({
      clientId: 'e2e-kafka-checker',
      bootstrapBrokers: [...this.#kafka.bootstrapServers],
      sasl: { ...this.#kafka.superUser },
      serializers: stringSerializers,
      acks: ProduceAcks.ALL,
    });
    try {
      await producer.send({ messages: values.map((value) => ({ topic, key: value, value })) });
    } finally {
      await producer.close().catch(() => undefined);
    }
  }

  /**
   * Reads `topic` from the earliest offset as the super user (a fresh consumer group) until `count` records arrived
   * or `timeoutMs` passed, and returns the values read.
   */
  async readRecords(topic: string, count: number, timeoutMs = 30_000): Promise<string[]> {
    const consumer = new Consumer({
      clientId: 'e2e-kafka-checker',
      groupId: `e2e-checker-${topic}-${Date.now()}`,
      bootstrapBrokers: [...this.#kafka.bootstrapServers],
      sasl: { ...this.#kafka.superUser },
      deserializers: stringDeserializers,
      autocommit: false,
    });
    const values: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      const stream = await consumer.consume({ topics: [topic], mode: 'earliest', fallbackMode: 'earliest' });
      await new Promise<void>((resolve) => {
        stream.on('data', (message: { value: string }) => {
          values.push(message.value);
          if (values.length >= count) resolve();
        });
        stream.once('error', () => { resolve(); });
        timer = setTimeout(resolve, timeoutMs);
      });
      await stream.close().catch(() => undefined);
      return values;
    } finally {
      clearTimeout(timer);
      await consumer.close(true).catch(() => undefined);
    }
  }

  /** Closes the admin client. Never rejects. */
  async close(): Promise<void> {
    await this.#admin.close().catch(() => undefined);
  }
}
