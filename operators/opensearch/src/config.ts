import { ConfigError, parseDuration, parseManagerOptions } from '@domain-operators/reconcile';
import type { ManagerOptions } from '@domain-operators/reconcile';

/** The API group of this operator's custom resources. */
export const API_GROUP = 'opensearch.domain-operators.io';

/** This operator's whole configuration, resolved once at start from flags and environment. */
export interface OpensearchOperatorConfig extends ManagerOptions {
  readonly opensearch: {
    /** Per-request timeout of the OpenSearch clients (`OPENSEARCH_REQUEST_TIMEOUT`, Go duration, default 30s). */
    readonly requestTimeoutMs: number;
  };
}

/**
 * The one place this operator reads flags and environment. Pure over its arguments; throws a
 * `ConfigError` naming the flag or variable for any value it cannot use.
 */
export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): OpensearchOperatorConfig {
  const manager = parseManagerOptions(argv, env, { leaseName: `opensearch-operator.${API_GROUP}` });
  const timeout = env['OPENSEARCH_REQUEST_TIMEOUT'];
  const requestTimeoutMs = timeout === undefined || timeout === '' ? 30_000 : parseDuration(timeout);
  if (requestTimeoutMs === undefined || requestTimeoutMs <= 0) throw new ConfigError(`OPENSEARCH_REQUEST_TIMEOUT: ${timeout ?? ''} is not a positive duration such as 30s`);
  return { ...manager, opensearch: { requestTimeoutMs } };
}
