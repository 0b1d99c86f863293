import type { LabelSelector } from '@domain-operators/reconcile';

/**
 * Domain types of the Kafka operator's spec (issue #6), as plain interfaces. The TypeBox schemas of
 * `src/api/v1alpha1/` will later produce the same shapes; the adapter and the planners depend only on these.
 */

/** What happens in Kafka when a KafkaTopic is deleted: `Retain` (default) leaves the topic, `Delete` removes it. */
export type DeletionPolicy = 'Retain' | 'Delete';

/** The desired state of one Kafka topic (`KafkaTopic.spec` minus the connection reference). */
export interface KafkaTopicSpec {
  /** Name of the topic in Kafka; defaults to `prefix + metadata.name` (see `tenancy.ts`). Immutable. */
  readonly topicName?: string;
  /** Number of partitions, ≥ 1; can only grow. */
  readonly partitions: number;
  /** Replicas per partition, ≥ 1; a change is carried out by partition reassignment. */
  readonly replicationFactor: number;
  /** The full set of topic-level config overrides; a key absent here returns to the broker default. */
  readonly config?: Readonly<Record<string, string>>;
  /** Defaults to `Retain`. */
  readonly deletionPolicy?: DeletionPolicy;
}

/** SASL/SCRAM mechanism of a KafkaUser, in the spec's spelling. */
export type ScramAuthenticationType = 'scram-sha-512' | 'scram-sha-256';

/** Kinds of Kafka resources an ACL can name (the spec's spelling). */
export type AclResourceType = 'topic' | 'group' | 'cluster' | 'transactionalId';

/** How an ACL resource name matches: exactly, or as a prefix of names. */
export type AclPatternType = 'literal' | 'prefixed';

/** Whether an ACL grants or refuses the operations. A DENY wins over any ALLOW in Kafka. */
export type AclPermission = 'allow' | 'deny';

/** Kafka's ACL operation names (as `kafka-acls.sh` and Strimzi spell them). */
export type AclOperationName =
  | 'All'
  | 'Read'
  | 'Write'
  | 'Create'
  | 'Delete'
  | 'Alter'
  | 'Describe'
  | 'ClusterAction'
  | 'DescribeConfigs'
  | 'AlterConfigs'
  | 'IdempotentWrite'
  | 'CreateTokens'
  | 'DescribeTokens'
  | 'TwoPhaseCommit';

/** The resource an ACL rule applies to. For `cluster` the name is always `kafka-cluster`. */
export interface AclResource {
  readonly type: AclResourceType;
  readonly name: string;
  /** Defaults to `literal`. */
  readonly patternType?: AclPatternType;
}

/** One ACL rule of a KafkaUser: several operations on one resource, expanded to one Kafka binding each. */
export interface KafkaAclRule {
  readonly resource: AclResource;
  readonly operations: readonly AclOperationName[];
  /** Client host the rule applies to; defaults to `*` (any host). */
  readonly host?: string;
  /** Defaults to `allow`. */
  readonly permission?: AclPermission;
}

/** Client quotas of a user (`user=<username>` entity). Absent fields mean "no quota set by us". */
export interface KafkaUserQuotas {
  /** Bytes per second a user's producers may send (per broker). */
  readonly producerByteRate?: number;
  /** Bytes per second a user's consumers may fetch (per broker). */
  readonly consumerByteRate?: number;
  /** Percentage of request handler and network thread time (per broker). */
  readonly requestPercentage?: number;
  /** Partition mutations per second (create topics, create partitions, delete topics). */
  readonly controllerMutationRate?: number;
  /** Quotas of one client id of the user (entity `user=<username>,client-id=<clientId>`), one entry per client id. */
  readonly clients?: readonly KafkaClientIdQuotas[];
}

/** The byte-rate and request quotas of one client id of a user; the keys Kafka applies per (user, client-id). */
export interface KafkaClientIdQuotas {
  /** The `client.id` the client sets; unique within a user. */
  readonly clientId: string;
  readonly producerByteRate?: number;
  readonly consumerByteRate?: number;
  readonly requestPercentage?: number;
}

/** The user-level quota fields, without per-client-id entries: what a connection's defaults and ceiling hold. */
export type KafkaUserLevelQuotas = Omit<KafkaUserQuotas, 'clients'>;

/** Authentication of a KafkaUser. */
export interface KafkaUserAuthentication {
  readonly type: ScramAuthenticationType;
  /** Secret holding the password; without it the operator generates one (handled by the reconciler). */
  readonly passwordSecretRef?: { readonly name: string; readonly key: string };
}

/** The desired state of one Kafka user (`KafkaUser.spec` minus the connection reference). */
export interface KafkaUserSpec {
  /** SCRAM username; defaults to `prefix + metadata.name`. Immutable. */
  readonly username?: string;
  readonly authentication: KafkaUserAuthentication;
  readonly acls?: readonly KafkaAclRule[];
  readonly quotas?: KafkaUserQuotas;
}

/** A Kubernetes label selector: the runtime's, shared by every operator's connection tenancy. */
export type { LabelSelector };

/** The tenancy rule of a KafkaConnection. */
export interface KafkaTenancy {
  /** Namespaces allowed to use the connection; absent means every namespace. */
  readonly namespaceSelector?: LabelSelector;
  /** Template of the prefix of every name created in Kafka for a namespace, e.g. `"{namespace}."`; absent = no rule. */
  readonly namePrefix?: string;
  /** The quotas of every KafkaUser that sets none; absent = such a user gets no quota. */
  readonly defaultUserQuotas?: KafkaUserLevelQuotas;
  /** The most a KafkaUser may set, per key; a key named here is never left unlimited (see `quota-policy.ts`). */
  readonly maxUserQuotas?: KafkaUserLevelQuotas;
}
