import type { ManagedSystem } from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/index.ts';

/**
 * Kafka as the runtime's managed-resource parts see it: KafkaTopics and KafkaUsers carry the finalizer
 * `kafka.domain-operators.io/finalizer` and reach Kafka through a `KafkaConnection`.
 */
export const KAFKA_SYSTEM: ManagedSystem = { group: GROUP, connectionKind: 'KafkaConnection', system: 'Kafka' };
