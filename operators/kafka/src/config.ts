import { parseManagerOptions } from '@domain-operators/reconcile';
import type { ManagerOptions } from '@domain-operators/reconcile';

/** The API group of this operator's custom resources. */
export const API_GROUP = 'kafka.domain-operators.io';

/**
 * The ConfigMap, in the operator's own namespace, that holds the KafkaTopics' claims of creates in flight (the
 * claims ledger, ADR 0007); the chart's Role grants `get` and `update` on this name only.
 */
export const CLAIMS_LEDGER_NAME = 'kafka-operator-create-claims';

/** This operator's whole configuration, resolved once at start from flags and environment. */
export type KafkaOperatorConfig = ManagerOptions;

/**
 * The one place this operator reads flags and environment. Pure over its arguments; throws a
 * `ConfigError` naming the flag for any value it cannot use.
 */
export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): KafkaOperatorConfig {
  return parseManagerOptions(argv, env, { leaseName: `kafka-operator.${API_GROUP}` });
}
