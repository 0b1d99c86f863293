import { KubeConfig } from '@kubernetes/client-node';

/**
 * How an operator reaches the apiserver, one order for all of them: the kubeconfig file named by `KUBECONFIG`;
 * else, inside a Pod (`KUBERNETES_SERVICE_HOST` set), the ServiceAccount's in-cluster credentials; else the
 * default kubeconfig (`~/.kube/config`). Reads files only; opens no connection. Throws client-node's error for an
 * unreadable file.
 */
export function loadKubeConfig(env: Readonly<Record<string, string | undefined>>): KubeConfig {
  const kubeConfig = new KubeConfig();
  const file = env['KUBECONFIG'];
  if (file !== undefined && file !== '') kubeConfig.loadFromFile(file);
  else if (env['KUBERNETES_SERVICE_HOST'] !== undefined) kubeConfig.loadFromCluster();
  else kubeConfig.loadFromDefault();
  return kubeConfig;
}
