/**
 * The node's fixed names, addresses and ports. One environment runs per machine (the control plane's ports are
 * fixed too), so these are constants: a kubeconfig, a CNI configuration or a Service's ClusterIP written once stays
 * valid across restarts. Every range is private and lives only on the bridge this project creates (`NODE_BRIDGE`):
 * nothing here is routed off the machine.
 */

/** The one node's name, as `kubectl get nodes` shows it. */
export const NODE_NAME = 'testenv-node';

/** The Linux bridge the Pods' veths join; created by testenv, never a bridge of anyone else. */
export const NODE_BRIDGE = 'dop0';

/** The Pods' subnet (host-local IPAM hands out its addresses). */
export const POD_CIDR = '10.244.0.0/24';

/**
 * The bridge's own address: the Pods' gateway and the node's InternalIP. Every host process a Pod must reach
 * (kube-apiserver, the kubelet, Kafka's client listener, OpenSearch's HTTP port) listens here.
 */
export const NODE_IP = '10.244.0.1';

/** The prefix length of {@link POD_CIDR}, for `ip addr add`. */
export const POD_PREFIX_LENGTH = 24;

/** ClusterIPs come from here (`--service-cluster-ip-range`); `.1` is the `kubernetes` Service. */
export const SERVICE_CIDR = '10.0.0.0/24';

/** The `kubernetes` Service's ClusterIP (the first address of {@link SERVICE_CIDR}). */
export const KUBERNETES_SERVICE_IP = '10.0.0.1';

/** The `kube-system/kube-dns` Service's ClusterIP, handed to every Pod as its nameserver. */
export const CLUSTER_DNS_IP = '10.0.0.10';

/** The cluster's DNS domain: `<service>.<namespace>.svc.cluster.local`. */
export const CLUSTER_DOMAIN = 'cluster.local';

/** Ports of the node's daemons. The kubelet's API is on {@link NODE_IP}, everything else on loopback. */
export const NODE_PORTS = {
  kubelet: 10250,
  kubeletHealthz: 10248,
  kubeProxyHealthz: 10256,
  kubeProxyMetrics: 10249,
} as const;
