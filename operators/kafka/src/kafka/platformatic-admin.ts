import { pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import {
  AclOperations,
  AclPermissionTypes,
  alterClientQuotasV1,
  alterPartitionReassignmentsV1,
  alterUserScramCredentialsV0,
  ClientQuotaEntityTypes,
  ClientQuotaMatchTypes,
  ConfigResourceTypes,
  ConfigSources,
  createAclsV3,
  createPartitionsV3,
  createTopicsV7,
  deleteAclsV3,
  deleteTopicsV6,
  DescribeClusterEndpointTypes,
  describeAclsV3,
  describeClientQuotasV1,
  describeClusterV1,
  describeConfigsV4,
  describeUserScramCredentialsV0,
  IncrementalAlterConfigOperationTypes,
  incrementalAlterConfigsV1,
  listPartitionReassignmentsV0,
  metadataV12,
  ResourcePatternTypes,
  ResourceTypes,
  ResponseError,
  ScramMechanisms,
  type Acl,
  type AclFilter,
  type Connection,
} from '@platformatic/kafka';
import type {
  AclBinding,
  ClusterInfo,
  ConfigOp,
  ConfigSourceName,
  CreatedTopic,
  KafkaAdmin,
  NewTopic,
  ObservedConfigEntry,
  ObservedTopic,
  Outcome,
  PartitionReassignment,
  QuotaChange,
  QuotaKey,
  QuotaValues,
  ReassignmentInProgress,
  ScramMechanism,
} from './admin.ts';
import { ReconnectingConnection, type KafkaConnectionOptions } from './connection.ts';
import { errorForCode } from './errors.ts';
import type { AclOperationName, AclPatternType, AclPermission, AclResourceType } from './admin.ts';

/** Counts the requests the adapter sends, by Kafka API name (`Metadata`, `CreateTopics`, …). Must not throw. */
export interface RequestCounter {
  count(api: string): void;
}

/** Dependencies of a {@link PlatformaticKafkaAdmin}. */
export interface PlatformaticKafkaAdminDeps {
  /** Told of every admin request sent (not of the connection handshake). */
  readonly requestCounter?: RequestCounter;
}

/** Options of a {@link PlatformaticKafkaAdmin}: where and how to connect, plus SCRAM hashing cost. */
export interface PlatformaticKafkaAdminOptions extends KafkaConnectionOptions {
  /** PBKDF2 iterations for SCRAM credentials; Kafka accepts 4096–16384 (default 8192). */
  readonly scramIterations?: number;
}

const UNKNOWN_TOPIC_OR_PARTITION = 3;
const RESOURCE_NOT_FOUND = 91;

const pbkdf2Async = promisify(pbkdf2);

/**
 * {@link KafkaAdmin} over `@platformatic/kafka`'s protocol API functions, on one {@link ReconnectingConnection}.
 * Raw protocol calls (rather than the library's `Admin`) answer per item, so one topic's error in a batch of 100
 * reaches only its caller, and every request is counted exactly. Requests use API versions Kafka 3.7+ and 4.x serve.
 * No I/O until the first call.
 */
export class PlatformaticKafkaAdmin implements KafkaAdmin {
  readonly #connection: ReconnectingConnection;
  readonly #counter: RequestCounter | undefined;
  readonly #timeoutMs: number;
  readonly #iterations: number;

  constructor(deps: PlatformaticKafkaAdminDeps, options: PlatformaticKafkaAdminOptions) {
    this.#connection = new ReconnectingConnection(options);
    this.#counter = deps.requestCounter;
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#iterations = options.scramIterations ?? 8192;
  }

  async clusterInfo(): Promise<ClusterInfo> {
    const r = await this.#send('DescribeCluster', 'describe cluster', (c) => describeClusterV1.api.async(c, false, DescribeClusterEndpointTypes.BROKERS));
    return {
      clusterId: r.clusterId,
      controllerId: r.controllerId,
      brokers: r.brokers
        .map((b) => ({ id: b.brokerId, host: b.host, port: b.port, ...(typeof b.rack === 'string' ? { rack: b.rack } : {}) }))
        .sort((a, b) => a.id - b.id),
    };
  }

  async describeTopics(names: readonly string[]): Promise<ReadonlyMap<string, Outcome<ObservedTopic | undefined>>> {
    if (names.length === 0) return new Map();
    const r = await this.#send('Metadata', 'describe topics', (c) => partial(metadataV12.api.async(c, [...names], false, false)));
    const out = new Map<string, Outcome<ObservedTopic | undefined>>();
    for (const t of r.topics) {
      if (typeof t.name !== 'string') continue;
      if (t.errorCode === UNKNOWN_TOPIC_OR_PARTITION) out.set(t.name, { ok: true, value: undefined });
      else if (t.errorCode !== 0) out.set(t.name, { ok: false, error: errorForCode(t.errorCode, null, `describe topic ${t.name}`) });
      else {
        const partitions = t.partitions
          .map((p) => ({ partition: p.partitionIndex, replicas: p.replicaNodes, leader: p.leaderId }))
          .sort((a, b) => a.partition - b.partition);
        out.set(t.name, { ok: true, value: { name: t.name, topicId: t.topicId, partitions } });
      }
    }
    return out;
  }

  async describeTopicConfigs(names: readonly string[]): Promise<ReadonlyMap<string, Outcome<readonly ObservedConfigEntry[] | undefined>>> {
    if (names.length === 0) return new Map();
    const resources = names.map((resourceName) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName }));
    const r = await this.#send('DescribeConfigs', 'describe topic configs', (c) => partial(describeConfigsV4.api.async(c, resources, false, false)));
    const out = new Map<string, Outcome<readonly ObservedConfigEntry[] | undefined>>();
    for (const res of r.results) {
      if (res.errorCode === UNKNOWN_TOPIC_OR_PARTITION) out.set(res.resourceName, { ok: true, value: undefined });
      else if (res.errorCode !== 0) out.set(res.resourceName, { ok: false, error: errorForCode(res.errorCode, res.errorMessage, `describe configs of topic ${res.resourceName}`) });
      else {
        const entries = res.configs.map((e) => ({ name: e.name, value: e.value ?? null, source: sourceName(e.configSource), sensitive: e.isSensitive, readOnly: e.readOnly }));
        out.set(res.resourceName, { ok: true, value: entries });
      }
    }
    return out;
  }

  async createTopics(topics: readonly NewTopic[]): Promise<ReadonlyMap<string, Outcome<CreatedTopic>>> {
    if (topics.length === 0) return new Map();
    const request = topics.map((t) => ({
      name: t.name,
      numPartitions: t.partitions,
      replicationFactor: t.replicationFactor,
      assignments: [],
      configs: Object.entries(t.config).map(([name, value]) => ({ name, value })),
    }));
    const r = await this.#send('CreateTopics', 'create topics', (c) => partial(createTopicsV7.api.async(c, request, this.#timeoutMs, false)));
    return new Map(
      r.topics.map((t): [string, Outcome<CreatedTopic>] => [
        t.name,
        t.errorCode === 0 ? { ok: true, value: { topicId: t.topicId } } : { ok: false, error: errorForCode(t.errorCode, t.errorMessage, `create topic ${t.name}`) },
      ]),
    );
  }

  async createPartitions(topic: string, totalCount: number): Promise<void> {
    const action = `grow topic ${topic} to ${totalCount} partitions`;
    const r = await this.#send('CreatePartitions', action, (c) => partial(createPartitionsV3.api.async(c, [{ name: topic, count: totalCount, assignments: null }], this.#timeoutMs, false)));
    for (const res of r.results) check(res.errorCode, res.errorMessage, action);
  }

  async alterTopicConfigs(topic: string, ops: readonly ConfigOp[]): Promise<void> {
    if (ops.length === 0) return;
    const action = `change configs of topic ${topic}`;
    const configs = ops.map((op) =>
      op.op === 'set'
        ? { name: op.name, configOperation: IncrementalAlterConfigOperationTypes.SET, value: op.value }
        : { name: op.name, configOperation: IncrementalAlterConfigOperationTypes.DELETE },
    );
    const r = await this.#send('IncrementalAlterConfigs', action, (c) =>
      partial(incrementalAlterConfigsV1.api.async(c, [{ resourceType: ConfigResourceTypes.TOPIC, resourceName: topic, configs }], false)),
    );
    for (const res of r.responses) check(res.errorCode, res.errorMessage, action);
  }

  async deleteTopic(topic: string): Promise<void> {
    const action = `delete topic ${topic}`;
    const r = await this.#send('DeleteTopics', action, (c) => partial(deleteTopicsV6.api.async(c, [{ name: topic }], this.#timeoutMs)));
    for (const res of r.responses) if (res.errorCode !== UNKNOWN_TOPIC_OR_PARTITION) check(res.errorCode, res.errorMessage, action);
  }

  async reassignPartitions(topic: string, partitions: readonly PartitionReassignment[]): Promise<void> {
    if (partitions.length === 0) return;
    const action = `reassign partitions of topic ${topic}`;
    const request = [{ name: topic, partitions: partitions.map((p) => ({ partitionIndex: p.partition, replicas: [...p.replicas] })) }];
    const r = await this.#send('AlterPartitionReassignments', action, (c) => partial(alterPartitionReassignmentsV1.api.async(c, this.#timeoutMs, true, request)));
    check(r.errorCode, r.errorMessage, action);
    for (const t of r.responses) for (const p of t.partitions) check(p.errorCode, p.errorMessage, `${action} (partition ${p.partitionIndex})`);
  }

  async listReassignments(topics?: readonly string[]): Promise<readonly ReassignmentInProgress[]> {
    const r = await this.#send('ListPartitionReassignments', 'list partition reassignments', (c) => partial(listPartitionReassignmentsV0.api.async(c, this.#timeoutMs, null)));
    check(r.errorCode, r.errorMessage, 'list partition reassignments');
    const wanted = topics === undefined ? undefined : new Set(topics);
    return r.topics
      .filter((t) => wanted === undefined || wanted.has(t.name))
      .flatMap((t) =>
        t.partitions.map((p) => ({ topic: t.name, partition: p.partitionIndex, replicas: p.replicas, addingReplicas: p.addingReplicas, removingReplicas: p.removingReplicas })),
      );
  }

  async describeScramCredentials(username: string): Promise<readonly ScramMechanism[]> {
    const action = `describe SCRAM credentials of ${username}`;
    const r = await this.#send('DescribeUserScramCredentials', action, (c) => partial(describeUserScramCredentialsV0.api.async(c, [{ name: username }])));
    check(r.errorCode, r.errorMessage, action);
    const mechanisms: ScramMechanism[] = [];
    for (const res of r.results) {
      if (res.errorCode === RESOURCE_NOT_FOUND) continue;
      check(res.errorCode, res.errorMessage, action);
      for (const info of res.credentialInfos) {
        if (info.mechanism === ScramMechanisms.SCRAM_SHA_512) mechanisms.push('SCRAM-SHA-512');
        if (info.mechanism === ScramMechanisms.SCRAM_SHA_256) mechanisms.push('SCRAM-SHA-256');
      }
    }
    return mechanisms.sort();
  }

  async upsertScramCredential(username: string, mechanism: ScramMechanism, password: string): Promise<void> {
    const sha512 = mechanism === 'SCRAM-SHA-512';
    const salt = randomBytes(32);
    // SCRAM's Hi() is PBKDF2 with the mechanism's hash; Kafka stores only the salted password's derived keys.
    const saltedPassword = await pbkdf2Async(password, salt, this.#iterations, sha512 ? 64 : 32, sha512 ? 'sha512' : 'sha256');
    const upsertion = { name: username, mechanism: scramCode(mechanism), iterations: this.#iterations, salt, saltedPassword };
    // Kafka refuses a request naming one user twice (DUPLICATE_RESOURCE): one request per (user, mechanism).
    await this.#alterScram(`set ${mechanism} credential of ${username}`, [], [upsertion], false);
  }

  async deleteScramCredential(username: string, mechanism: ScramMechanism): Promise<void> {
    await this.#alterScram(`delete ${mechanism} credential of ${username}`, [{ name: username, mechanism: scramCode(mechanism) }], [], true);
  }

  async describeAcls(principal: string): Promise<readonly AclBinding[]> {
    const filter: AclFilter = {
      resourceType: ResourceTypes.ANY,
      resourceName: null,
      resourcePatternType: ResourcePatternTypes.ANY,
      principal,
      host: null,
      operation: AclOperations.ANY,
      permissionType: AclPermissionTypes.ANY,
    };
    const action = `describe ACLs of ${principal}`;
    const r = await this.#send('DescribeAcls', action, (c) => partial(describeAclsV3.api.async(c, filter)));
    check(r.errorCode, r.errorMessage, action);
    const bindings: AclBinding[] = [];
    for (const res of r.resources) {
      for (const acl of res.acls) {
        const binding = fromKafkaAcl({ ...res, ...acl });
        // Only exact matches: a filter on a principal must not bring in anyone else's bindings.
        if (binding?.principal === principal) bindings.push(binding);
      }
    }
    return bindings;
  }

  async createAcls(bindings: readonly AclBinding[]): Promise<void> {
    if (bindings.length === 0) return;
    const action = `create ACLs for ${[...new Set(bindings.map((b) => b.principal))].join(', ')}`;
    const r = await this.#send('CreateAcls', action, (c) => partial(createAclsV3.api.async(c, bindings.map(toKafkaAcl))));
    for (const res of r.results) check(res.errorCode, res.errorMessage, action);
  }

  async deleteAcls(bindings: readonly AclBinding[]): Promise<void> {
    if (bindings.length === 0) return;
    const action = `delete ACLs of ${[...new Set(bindings.map((b) => b.principal))].join(', ')}`;
    // Every field exact (no ANY, no null): a filter removes exactly the binding it names.
    const r = await this.#send('DeleteAcls', action, (c) => partial(deleteAclsV3.api.async(c, bindings.map(toKafkaAcl))));
    for (const res of r.filterResults) check(res.errorCode, res.errorMessage, action);
  }

  async describeUserQuotas(username: string): Promise<QuotaValues> {
    const action = `describe quotas of user ${username}`;
    const components = [{ entityType: ClientQuotaEntityTypes.USER, matchType: ClientQuotaMatchTypes.EXACT, match: username }];
    const r = await this.#send('DescribeClientQuotas', action, (c) => partial(describeClientQuotasV1.api.async(c, components, true)));
    check(r.errorCode, r.errorMessage, action);
    const values: Partial<Record<QuotaKey, number>> = {};
    for (const entry of r.entries ?? []) {
      const exact = entry.entity.length === 1 && entry.entity[0]?.entityType === ClientQuotaEntityTypes.USER && entry.entity[0].entityName === username;
      if (!exact) continue;
      for (const { key, value } of entry.values) if (isQuotaKey(key)) values[key] = value;
    }
    return values;
  }

  async alterUserQuotas(username: string, change: QuotaChange): Promise<void> {
    const ops = [
      ...Object.entries(change.set).map(([key, value]) => ({ key: key as QuotaKey, value, remove: false as const })),
      ...change.remove.map((key) => ({ key, remove: true as const })),
    ];
    if (ops.length === 0) return;
    const action = `change quotas of user ${username}`;
    const entries = [{ entities: [{ entityType: ClientQuotaEntityTypes.USER, entityName: username }], ops }];
    const r = await this.#send('AlterClientQuotas', action, (c) => partial(alterClientQuotasV1.api.async(c, entries, false)));
    for (const e of r.entries) check(e.errorCode, e.errorMessage, action);
  }

  async describeClientIdQuotas(username: string): Promise<ReadonlyMap<string, QuotaValues>> {
    const action = `describe client-id quotas of user ${username}`;
    // ANY is the protocol's SPECIFIED: every named client id, never the default entity.
    const components = [
      { entityType: ClientQuotaEntityTypes.USER, matchType: ClientQuotaMatchTypes.EXACT, match: username },
      { entityType: ClientQuotaEntityTypes.CLIENT_ID, matchType: ClientQuotaMatchTypes.ANY },
    ];
    const r = await this.#send('DescribeClientQuotas', action, (c) => partial(describeClientQuotasV1.api.async(c, components, true)));
    check(r.errorCode, r.errorMessage, action);
    const byClient = new Map<string, Partial<Record<QuotaKey, number>>>();
    for (const entry of r.entries ?? []) {
      const user = entry.entity.find((e) => e.entityType === ClientQuotaEntityTypes.USER);
      const client = entry.entity.find((e) => e.entityType === ClientQuotaEntityTypes.CLIENT_ID);
      if (entry.entity.length !== 2 || user?.entityName !== username || client?.entityName == null) continue;
      const values = byClient.get(client.entityName) ?? {};
      for (const { key, value } of entry.values) if (isQuotaKey(key)) values[key] = value;
      byClient.set(client.entityName, values);
    }
    return byClient;
  }

  async alterClientIdQuotas(username: string, changes: ReadonlyMap<string, QuotaChange>): Promise<void> {
    const entries = [...changes].flatMap(([clientId, change]) => {
      const ops = [
        ...Object.entries(change.set).map(([key, value]) => ({ key: key as QuotaKey, value, remove: false as const })),
        ...change.remove.map((key) => ({ key, remove: true as const })),
      ];
      const entities = [
        { entityType: ClientQuotaEntityTypes.USER, entityName: username },
        { entityType: ClientQuotaEntityTypes.CLIENT_ID, entityName: clientId },
      ];
      return ops.length === 0 ? [] : [{ entities, ops }];
    });
    if (entries.length === 0) return;
    const action = `change client-id quotas of user ${username}`;
    const r = await this.#send('AlterClientQuotas', action, (c) => partial(alterClientQuotasV1.api.async(c, entries, false)));
    for (const e of r.entries) check(e.errorCode, e.errorMessage, action);
  }

  async close(): Promise<void> {
    await this.#connection.close();
  }

  async #alterScram(
    action: string,
    deletions: Parameters<typeof alterUserScramCredentialsV0.api.async>[1],
    upsertions: Parameters<typeof alterUserScramCredentialsV0.api.async>[2],
    absentIsOk: boolean,
  ): Promise<void> {
    const r = await this.#send('AlterUserScramCredentials', action, (c) => partial(alterUserScramCredentialsV0.api.async(c, deletions, upsertions)));
    for (const res of r.results) if (!(absentIsOk && res.errorCode === RESOURCE_NOT_FOUND)) check(res.errorCode, res.errorMessage, action);
  }

  #send<T>(api: string, action: string, call: (connection: Connection) => Promise<T>): Promise<T> {
    return this.#connection.use(action, (connection) => {
      this.#counter?.count(api);
      return call(connection);
    });
  }
}

/**
 * The parsed response even when it carries error codes: the library throws a `ResponseError` holding the whole
 * response for any non-zero code, but the callers read codes item by item.
 */
async function partial<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (err) {
    const response = err instanceof ResponseError ? (err as { response?: unknown }).response : undefined;
    if (response !== undefined && response !== null) return response as T;
    throw err;
  }
}

function check(code: number, message: string | null | undefined, action: string): void {
  if (code !== 0) throw errorForCode(code, message, action);
}

const SOURCE_NAMES = new Map<number, ConfigSourceName>(
  (Object.entries(ConfigSources) as [string, number][]).filter(([name]) => name !== 'TOPIC_CONFIG').map(([name, code]) => [code, name as ConfigSourceName]),
);

function sourceName(code: number): ConfigSourceName {
  return SOURCE_NAMES.get(code) ?? 'UNKNOWN';
}

function scramCode(mechanism: ScramMechanism): number {
  return mechanism === 'SCRAM-SHA-512' ? ScramMechanisms.SCRAM_SHA_512 : ScramMechanisms.SCRAM_SHA_256;
}

const QUOTA_KEYS: ReadonlySet<string> = new Set<QuotaKey>(['producer_byte_rate', 'consumer_byte_rate', 'request_percentage', 'controller_mutation_rate']);

function isQuotaKey(key: string): key is QuotaKey {
  return QUOTA_KEYS.has(key);
}

const RESOURCE_TYPES: Readonly<Record<AclResourceType, number>> = {
  topic: ResourceTypes.TOPIC,
  group: ResourceTypes.GROUP,
  cluster: ResourceTypes.CLUSTER,
  transactionalId: ResourceTypes.TRANSACTIONAL_ID,
};

const PATTERN_TYPES: Readonly<Record<AclPatternType, number>> = { literal: ResourcePatternTypes.LITERAL, prefixed: ResourcePatternTypes.PREFIXED };

const PERMISSIONS: Readonly<Record<AclPermission, number>> = { allow: AclPermissionTypes.ALLOW, deny: AclPermissionTypes.DENY };

const OPERATIONS: Readonly<Record<AclOperationName, number>> = {
  All: AclOperations.ALL,
  Read: AclOperations.READ,
  Write: AclOperations.WRITE,
  Create: AclOperations.CREATE,
  Delete: AclOperations.DELETE,
  Alter: AclOperations.ALTER,
  Describe: AclOperations.DESCRIBE,
  ClusterAction: AclOperations.CLUSTER_ACTION,
  DescribeConfigs: AclOperations.DESCRIBE_CONFIGS,
  AlterConfigs: AclOperations.ALTER_CONFIGS,
  IdempotentWrite: AclOperations.IDEMPOTENT_WRITE,
  CreateTokens: AclOperations.CREATE_TOKENS,
  DescribeTokens: AclOperations.DESCRIBE_TOKENS,
  TwoPhaseCommit: AclOperations.TWO_PHASE_COMMIT,
};

function toKafkaAcl(b: AclBinding): Acl {
  return {
    resourceType: RESOURCE_TYPES[b.resourceType] as Acl['resourceType'],
    resourceName: b.resourceName,
    resourcePatternType: PATTERN_TYPES[b.patternType] as Acl['resourcePatternType'],
    principal: b.principal,
    host: b.host,
    operation: OPERATIONS[b.operation] as Acl['operation'],
    permissionType: PERMISSIONS[b.permission] as Acl['permissionType'],
  };
}

function reverse<K extends string>(table: Readonly<Record<K, number>>): ReadonlyMap<number, K> {
  return new Map((Object.entries(table) as [K, number][]).map(([name, code]) => [code, name]));
}

const RESOURCE_TYPE_NAMES = reverse(RESOURCE_TYPES);
const PATTERN_TYPE_NAMES = reverse(PATTERN_TYPES);
const PERMISSION_NAMES = reverse(PERMISSIONS);
const OPERATION_NAMES = reverse(OPERATIONS);

/** A Kafka ACL in this domain's terms, or `undefined` for one it cannot name (e.g. a delegation-token ACL). */
function fromKafkaAcl(acl: Acl): AclBinding | undefined {
  const resourceType = RESOURCE_TYPE_NAMES.get(acl.resourceType);
  const patternType = PATTERN_TYPE_NAMES.get(acl.resourcePatternType);
  const operation = OPERATION_NAMES.get(acl.operation);
  const permission = PERMISSION_NAMES.get(acl.permissionType);
  if (resourceType === undefined || patternType === undefined || operation === undefined || permission === undefined) return undefined;
  return { resourceType, resourceName: acl.resourceName, patternType, principal: acl.principal, host: acl.host, operation, permission };
}
