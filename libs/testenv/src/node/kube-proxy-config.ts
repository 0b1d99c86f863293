import { NODE_IP, NODE_NAME, NODE_PORTS, POD_CIDR } from './addresses.ts';

/**
 * kube-proxy's configuration: iptables mode (REAL-NODE-NOTES.md), the Pod subnet as the cluster CIDR (masquerade
 * decisions, hairpin), NodePorts on the node address only and never on localhost (`localhostNodePorts: false`, so it
 * leaves `route_localnet` alone), conntrack sysctls untouched (zeros mean "leave as is"), health and metrics on
 * loopback. Pure.
 */
export function renderKubeProxyConfig(kubeconfig: string): string {
  const config = {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    mode: 'iptables',
    clusterCIDR: POD_CIDR,
    hostnameOverride: NODE_NAME,
    healthzBindAddress: `127.0.0.1:${NODE_PORTS.kubeProxyHealthz}`,
    metricsBindAddress: `127.0.0.1:${NODE_PORTS.kubeProxyMetrics}`,
    nodePortAddresses: [`${NODE_IP}/32`],
    iptables: { localhostNodePorts: false, masqueradeAll: false, syncPeriod: '30s', minSyncPeriod: '0s' },
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
