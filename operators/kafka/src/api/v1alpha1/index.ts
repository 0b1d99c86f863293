import type { CustomResourceKind } from '@domain-operators/reconcile';
import { kafkaConnections } from './kafkaconnection.ts';
import { kafkaTopics } from './kafkatopic.ts';
import { kafkaUsers } from './kafkauser.ts';

export { GROUP, VERSION } from './common.ts';
export { kafkaConnections } from './kafkaconnection.ts';
export type { KafkaConnection, KafkaConnectionSpec, KafkaTenancy } from './kafkaconnection.ts';
export { kafkaTopics } from './kafkatopic.ts';
export type { KafkaTopic, KafkaTopicSpec, KafkaTopicStatus } from './kafkatopic.ts';
export { ACL_OPERATIONS, kafkaUsers } from './kafkauser.ts';
export type { KafkaAclRule, KafkaUser, KafkaUserLevelQuotas, KafkaUserQuotas, KafkaUserSpec, KafkaUserStatus, ScramAuthenticationType } from './kafkauser.ts';
export type { KafkaClientIdQuotas } from './quotas.ts';

/** Every kind of `kafka.domain-operators.io/v1alpha1`: what the CRD writer reads (`nx run kafka-operator:crds`). */
export const customResources: readonly CustomResourceKind[] = [kafkaConnections, kafkaTopics, kafkaUsers];
