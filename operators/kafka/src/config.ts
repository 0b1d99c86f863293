import { KubeConfig } from '@kubernetes/client-node';
import { parseManagerOptions } from '@domain-operators/reconcile';
import type { ManagerOptions } from '@domain-operators/reconcile';

/** The API group of this operator's custom resources. */
export const API_GROUP = 'kafka.domain-operators.io';

/** This operator's whole configuration, resolved once at start from flags and environment. */
export type KafkaOperatorConfig = ManagerOptions;

/**
 * The one place this operator reads flags and environment. Pure over its arguments; throws a
 * `ConfigError` naming the flag for any value it cannot use.
 */
export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): KafkaOperatorConfig {
  return parseManagerOptions(argv, env, { leaseName: `kafka-operator.${API_GROUP}` });
}

/**
 * How the operator reaches the apiserver: the kubeconfig file named by `KUBECONFIG`; else, in a pod, the service
 * account (`KUBERNETES_SERVICE_HOST`); else client-node's default lookup (`~/.kube/config`). Reads files, not the
 * network; throws when none is usable.
 */
export function loadKubeConfig(env: Readonly<Record<string, string | undefined>>): KubeConfig {
  const kubeConfig = new KubeConfig();
  const file = env['KUBECONFIG'];
  if (file !== undefined && file !== '') kubeConfig.loadFromFile(file);
  else if (env['KUBERNETES_SERVICE_HOST'] !== undefined) kubeConfig.loadFromCluster();
  else kubeConfig.loadFromDefault();
  return kubeConfig;
}
