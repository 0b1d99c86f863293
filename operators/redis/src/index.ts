/** Public API of the redis operator: its configuration and API group. */
export { API_GROUP, loadConfig } from './config.ts';
export type { RedisOperatorConfig } from './config.ts';
