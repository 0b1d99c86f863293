/** Public API of the opensearch operator: its configuration and API group. */
export { API_GROUP, loadConfig } from './config.ts';
export type { OpensearchOperatorConfig } from './config.ts';
