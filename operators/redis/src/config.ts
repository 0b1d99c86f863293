import { parseManagerOptions } from '@domain-operators/reconcile';
import type { ManagerOptions } from '@domain-operators/reconcile';

/** The API group of this operator's custom resources. */
export const API_GROUP = 'redis.domain-operators.io';

/**
 * The operator's own image, for the short-lived containers it runs beside Redis (restoring a member's data,
 * writing a backup into a volume claim): the same bundle, started with a command of its own.
 */
export interface AgentImage {
  /** The image reference, as the chart runs the operator (env `OPERATOR_IMAGE`). */
  readonly image: string;
  /** `Always`, `IfNotPresent` or `Never` (env `OPERATOR_IMAGE_PULL_POLICY`, default `IfNotPresent`). */
  readonly pullPolicy: string;
}

/** This operator's whole configuration, resolved once at start from flags and environment. */
export interface RedisOperatorConfig extends ManagerOptions {
  /** Absent when `OPERATOR_IMAGE` is not set (outside a cluster): features that need an agent container say so in status. */
  readonly agentImage: AgentImage | undefined;
}

/**
 * The one place this operator reads flags and environment. Pure over its arguments; throws a
 * `ConfigError` naming the flag for any value it cannot use.
 */
export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): RedisOperatorConfig {
  const image = env['OPERATOR_IMAGE']?.trim() ?? '';
  const pullPolicy = env['OPERATOR_IMAGE_PULL_POLICY']?.trim() ?? '';
  return {
    ...parseManagerOptions(argv, env, { leaseName: `redis-operator.${API_GROUP}` }),
    agentImage: image === '' ? undefined : { image, pullPolicy: pullPolicy === '' ? 'IfNotPresent' : pullPolicy },
  };
}
