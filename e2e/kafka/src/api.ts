// The kafka operator's API as its users see it (issue #6, ADR 0009), written out here rather than imported: e2e
// suites may not import the operator app, and an independent statement of the contract is the point of the check
// (a field renamed in the operator's schema fails these suites instead of silently following along).
import { resourceType } from '@domain-operators/reconcile';
import type { Condition, CustomResourceObject } from '@domain-operators/reconcile';

/** `kafka.domain-operators.io/v1alpha1`. */
export const API_VERSION = 'kafka.domain-operators.io/v1alpha1';

const GROUP = 'kafka.domain-operators.io';
const VERSION = 'v1alpha1';

/** The user-level quota fields of a KafkaUser, a connection's defaults and its ceiling. */
export interface UserQuotas {
  producerByteRate?: number;
  consumerByteRate?: number;
  requestPercentage?: number;
  controllerMutationRate?: number;
}

/** One per-client-id quota entry of a KafkaUser. */
export interface ClientIdQuotas {
  clientId: string;
  producerByteRate?: number;
  consumerByteRate?: number;
  requestPercentage?: number;
}

/** What the suites write and read of a KafkaConnection. */
export type KafkaConnection = CustomResourceObject<
  {
    bootstrapServers: string[];
    sasl?: {
      mechanism: 'SCRAM-SHA-512' | 'SCRAM-SHA-256' | 'PLAIN';
      secretRef: { namespace: string; name: string; usernameKey: string; passwordKey: string };
    };
    tenancy?: { namespaceSelector?: { matchLabels?: Record<string, string> }; namePrefix?: string; defaultUserQuotas?: UserQuotas; maxUserQuotas?: UserQuotas };
  },
  { conditions?: Condition[]; clusterId?: string; controllerId?: number; brokers?: unknown[]; observedGeneration?: number }
>;

/** What the suites write and read of a KafkaTopic. */
export type KafkaTopic = CustomResourceObject<
  {
    connectionRef: { name: string };
    topicName?: string;
    partitions: number;
    replicationFactor: number;
    config?: Record<string, string>;
    deletionPolicy?: 'Retain' | 'Delete';
  },
  {
    conditions?: Condition[];
    observedGeneration?: number;
    ownership?: 'CreatePending' | 'Created' | 'Adopted';
    topicName?: string;
    clusterId?: string;
    topicId?: string;
    partitions?: number;
    replicationFactor?: number;
    replicasChange?: { targetReplicas: number; state: string; message: string };
  }
>;

/** One ACL rule of a KafkaUser. */
export interface AclRule {
  resource: { type: 'topic' | 'group' | 'cluster' | 'transactionalId'; name?: string; patternType?: 'literal' | 'prefixed' };
  operations: string[];
  host?: string;
  permission?: 'allow' | 'deny';
}

/** What the suites write and read of a KafkaUser. */
export type KafkaUser = CustomResourceObject<
  {
    connectionRef: { name: string };
    username?: string;
    authentication: { type: 'scram-sha-512' | 'scram-sha-256'; passwordSecretRef?: { name: string; key?: string } };
    acls?: AclRule[];
    quotas?: UserQuotas & { clients?: ClientIdQuotas[] };
  },
  {
    conditions?: Condition[];
    observedGeneration?: number;
    username?: string;
    secretName?: string;
    ownership?: string;
    credential?: { mechanism: string; salt: string; fingerprint: string; clusterId?: string };
  }
>;

/** The KafkaConnection kind (cluster-scoped). */
export const kafkaConnections = {
  apiVersion: API_VERSION,
  type: resourceType<KafkaConnection>({ group: GROUP, version: VERSION, kind: 'KafkaConnection', plural: 'kafkaconnections', namespaced: false }),
} as const;

/** The KafkaTopic kind. */
export const kafkaTopics = {
  apiVersion: API_VERSION,
  type: resourceType<KafkaTopic>({ group: GROUP, version: VERSION, kind: 'KafkaTopic', plural: 'kafkatopics', namespaced: true }),
} as const;

/** The KafkaUser kind. */
export const kafkaUsers = {
  apiVersion: API_VERSION,
  type: resourceType<KafkaUser>({ group: GROUP, version: VERSION, kind: 'KafkaUser', plural: 'kafkausers', namespaced: true }),
} as const;
