import { parseManagerOptions } from '@domain-operators/reconcile';
import type { ManagerOptions } from '@domain-operators/reconcile';

/** The API group of this operator's custom resources. */
export const API_GROUP = 'redis.domain-operators.io';

/** This operator's whole configuration, resolved once at start from flags and environment. */
export type RedisOperatorConfig = ManagerOptions;

/**
 * The one place this operator reads flags and environment. Pure over its arguments; throws a
 * `ConfigError` naming the flag for any value it cannot use.
 */
export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): RedisOperatorConfig {
  return parseManagerOptions(argv, env, { leaseName: `redis-operator.${API_GROUP}` });
}
