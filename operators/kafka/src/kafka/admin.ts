import type { KafkaAclRule } from '../api/v1alpha1/index.ts';

/**
 * The Kafka operator's view of a Kafka cluster: the small interfaces its reconcilers call, and the plain data they
 * exchange. The implementation over `@platformatic/kafka` is `PlatformaticKafkaAdmin`; tests of the planners and the
 * batcher use fakes of these interfaces. Every method may reject with a `KafkaAdminError` (retry) or a
 * `TerminalError` (the input will never work until the spec changes); see `errors.ts`.
 */

/** One broker as the cluster reports it. */
export interface BrokerInfo {
  readonly id: number;
  readonly host: string;
  readonly port: number;
  readonly rack?: string;
}

/** What a KafkaConnection's status shows. `controllerId` is whatever the broker answers (in KRaft, a broker id). */
export interface ClusterInfo {
  readonly clusterId: string;
  readonly controllerId: number;
  readonly brokers: readonly BrokerInfo[];
}

/** Where a topic config value comes from (Kafka's `ConfigSource` names). Only `DYNAMIC_TOPIC_CONFIG` is a topic override. */
export type ConfigSourceName =
  | 'UNKNOWN'
  | 'DYNAMIC_TOPIC_CONFIG'
  | 'DYNAMIC_BROKER_CONFIG'
  | 'DYNAMIC_DEFAULT_BROKER_CONFIG'
  | 'STATIC_BROKER_CONFIG'
  | 'DEFAULT_CONFIG'
  | 'DYNAMIC_BROKER_LOGGER_CONFIG'
  | 'CLIENT_METRICS_CONFIG'
  | 'GROUP_CONFIG';

/** One config entry of a topic as DescribeConfigs returns it. Sensitive values come back as `null`. */
export interface ObservedConfigEntry {
  readonly name: string;
  readonly value: string | null;
  readonly source: ConfigSourceName;
  readonly sensitive: boolean;
  readonly readOnly: boolean;
}

/** One partition of an existing topic. `replicas[0]` is the preferred leader. */
export interface ObservedPartition {
  readonly partition: number;
  readonly replicas: readonly number[];
  readonly leader: number;
}

/** An existing topic as Metadata returns it, partitions sorted by index. */
export interface ObservedTopic {
  readonly name: string;
  readonly topicId: string;
  readonly partitions: readonly ObservedPartition[];
}

/** A topic to create. `config` holds the topic-level overrides. */
export interface NewTopic {
  readonly name: string;
  readonly partitions: number;
  readonly replicationFactor: number;
  readonly config: Readonly<Record<string, string>>;
}

/** The result of a created topic. */
export interface CreatedTopic {
  readonly topicId: string;
}

/** One incremental config change: `set` a topic override, or `delete` it (the key returns to the broker default). */
export type ConfigOp = { readonly op: 'set'; readonly name: string; readonly value: string } | { readonly op: 'delete'; readonly name: string };

/** The target replica list of one partition. */
export interface PartitionReassignment {
  readonly partition: number;
  readonly replicas: readonly number[];
}

/** A partition reassignment the controller is still carrying out. */
export interface ReassignmentInProgress {
  readonly topic: string;
  readonly partition: number;
  readonly replicas: readonly number[];
  readonly addingReplicas: readonly number[];
  readonly removingReplicas: readonly number[];
}

/** Per-item outcome of a bulk call: each caller of a batch gets its own value or error. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: Error };

/**
 * The bulk topic calls the `TopicBatcher` groups: each takes many topics in one request and answers per topic.
 * A rejected promise means the whole request failed (every item gets that error).
 */
export interface TopicBulkAdmin {
  /** Metadata of each named topic; `undefined` for a topic that does not exist. Read-only. */
  describeTopics(names: readonly string[]): Promise<ReadonlyMap<string, Outcome<ObservedTopic | undefined>>>;
  /** Every config entry of each named topic, with its source; `undefined` for a topic that does not exist. Read-only. */
  describeTopicConfigs(names: readonly string[]): Promise<ReadonlyMap<string, Outcome<readonly ObservedConfigEntry[] | undefined>>>;
  /** Creates the topics; an existing topic is an error with reason `AlreadyExists`. Names must be distinct. */
  createTopics(topics: readonly NewTopic[]): Promise<ReadonlyMap<string, Outcome<CreatedTopic>>>;
}

/** Topic changes that concern one topic each (rare enough not to batch). */
export interface TopicAdmin {
  /** Grows the topic to `totalCount` partitions; the broker places the new replicas. */
  createPartitions(topic: string, totalCount: number): Promise<void>;
  /** Applies SET/DELETE ops atomically for this topic; keys not named are untouched. */
  alterTopicConfigs(topic: string, ops: readonly ConfigOp[]): Promise<void>;
  /** Deletes the topic; resolves also when it does not exist (idempotent). */
  deleteTopic(topic: string): Promise<void>;
  /** Starts reassigning the partitions to the given replica lists; returns before data has moved. */
  reassignPartitions(topic: string, partitions: readonly PartitionReassignment[]): Promise<void>;
  /** Reassignments in progress, of the named topics (all topics when omitted). */
  listReassignments(topics?: readonly string[]): Promise<readonly ReassignmentInProgress[]>;
}

/** The SCRAM mechanisms Kafka stores credentials for. */
export type ScramMechanism = 'SCRAM-SHA-512' | 'SCRAM-SHA-256';

/** Kinds of Kafka resources an ACL names (the spec's spelling). */
export type AclResourceType = KafkaAclRule['resource']['type'];
/** How an ACL resource name matches: exactly, or as a prefix of names. */
export type AclPatternType = KafkaAclRule['resource']['patternType'];
/** Whether an ACL grants or refuses its operation; a DENY wins over any ALLOW in Kafka. */
export type AclPermission = KafkaAclRule['permission'];
/**
 * Kafka's ACL operation names (as `kafka-acls.sh` spells them): those a spec may name, and the three a broker can hold
 * that a spec never sets (bindings other tools wrote are decoded with them, never dropped as unknown).
 */
export type AclOperationName = KafkaAclRule['operations'][number] | 'CreateTokens' | 'DescribeTokens' | 'TwoPhaseCommit';

/** One ACL binding in Kafka, exactly as stored (one operation each). */
export interface AclBinding {
  readonly resourceType: AclResourceType;
  readonly resourceName: string;
  readonly patternType: AclPatternType;
  /** `User:<username>`. */
  readonly principal: string;
  readonly host: string;
  readonly operation: AclOperationName;
  readonly permission: AclPermission;
}

/** Kafka's client quota keys a KafkaUser manages. */
export type QuotaKey = 'producer_byte_rate' | 'consumer_byte_rate' | 'request_percentage' | 'controller_mutation_rate';

/** Quota values by key; absent keys are unset. */
export type QuotaValues = Readonly<Partial<Record<QuotaKey, number>>>;

/** A change of a user's quotas: keys to set and keys to remove. */
export interface QuotaChange {
  readonly set: QuotaValues;
  readonly remove: readonly QuotaKey[];
}

/** SCRAM credentials, ACLs and client quotas of users. */
export interface UserAdmin {
  /** The mechanisms `username` has credentials for (empty when none). Read-only. */
  describeScramCredentials(username: string): Promise<readonly ScramMechanism[]>;
  /** Creates or replaces the credential of `username` for `mechanism` (salt and PBKDF2 computed here). Idempotent. */
  upsertScramCredential(username: string, mechanism: ScramMechanism, password: string): Promise<void>;
  /** Deletes the credential; resolves also when there is none (idempotent). */
  deleteScramCredential(username: string, mechanism: ScramMechanism): Promise<void>;
  /** The ACL bindings whose principal is exactly `principal`; bindings this domain cannot name are left out. */
  describeAcls(principal: string): Promise<readonly AclBinding[]>;
  /** Creates the bindings (creating an existing one is a no-op in Kafka). */
  createAcls(bindings: readonly AclBinding[]): Promise<void>;
  /** Deletes exactly these bindings (one exact filter each, never a wildcard). */
  deleteAcls(bindings: readonly AclBinding[]): Promise<void>;
  /** The quotas set for the entity `user=<username>` (not defaults). Read-only. */
  describeUserQuotas(username: string): Promise<QuotaValues>;
  /** Sets and removes quota keys for `user=<username>`. */
  alterUserQuotas(username: string, change: QuotaChange): Promise<void>;
  /**
   * The quotas of every entity `user=<username>,client-id=<id>` with a named client id, by client id (never the
   * default client-id entity, never another user's). Read-only.
   */
  describeClientIdQuotas(username: string): Promise<ReadonlyMap<string, QuotaValues>>;
  /** Sets and removes quota keys of `user=<username>,client-id=<id>` for each client id named, in one request. */
  alterClientIdQuotas(username: string, changes: ReadonlyMap<string, QuotaChange>): Promise<void>;
}

/** Cluster identity for a KafkaConnection's status. */
export interface ClusterAdmin {
  /** Cluster id, controller id and brokers. Read-only; also a cheap check that the connection and login work. */
  clusterInfo(): Promise<ClusterInfo>;
}

/** Everything the Kafka operator asks of a cluster, through one authenticated connection. */
export interface KafkaAdmin extends ClusterAdmin, TopicBulkAdmin, TopicAdmin, UserAdmin {
  /** Closes the connection; later calls reconnect. Idempotent. */
  close(): Promise<void>;
}
