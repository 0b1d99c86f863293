/** Public API of the kafka operator: its configuration, API group and custom resource kinds (for e2e suites). */
export { API_GROUP, loadConfig } from './config.ts';
export type { KafkaOperatorConfig } from './config.ts';
export { customResources, kafkaConnections, kafkaTopics, kafkaUsers } from './api/v1alpha1/index.ts';
export type { KafkaConnection, KafkaTopic, KafkaUser } from './api/v1alpha1/index.ts';
