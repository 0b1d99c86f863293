/** Public API of the kafka operator: its configuration and API group. */
export { API_GROUP, loadConfig } from './config.ts';
export type { KafkaOperatorConfig } from './config.ts';
