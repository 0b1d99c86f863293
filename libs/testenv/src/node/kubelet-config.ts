import { CLUSTER_DNS_IP, CLUSTER_DOMAIN, NODE_IP, NODE_NAME, NODE_PORTS } from './addresses.ts';
import type { NodeHostLayout } from './host-layout.ts';

/** Inputs of {@link renderKubeletConfig}. */
export interface KubeletConfigInput {
  readonly layout: NodeHostLayout;
  /** CA of the client certificates the kubelet accepts (kube-apiserver's, for logs and exec). */
  readonly clientCaFile: string;
  /** Our empty resolv.conf: upstream nameservers Pods may inherit (none). */
  readonly resolvConf: string;
}

/**
 * The KubeletConfiguration of the one node. Settings these machines require (REAL-NODE-NOTES.md): `failCgroupV1:
 * false` (the host has cgroup v1 hierarchies), `cgroupDriver: cgroupfs` (no systemd), `failSwapOn: false`; and our
 * own choices:
 * - Pods run under our own `cgroupRoot`, so the sweep removes exactly our cgroups;
 * - the API on the node address only (apiserver → kubelet for logs and exec), authenticated by client certificate or
 *   token and authorized by the apiserver (webhook), never anonymous; healthz on loopback; no read-only port;
 * - cluster DNS at {@link CLUSTER_DNS_IP}, and an empty resolv.conf of ours instead of the host's, so no Pod ever
 *   learns a nameserver off this machine;
 * - image garbage collection off (`imageGCHighThresholdPercent: 100`): no registry can give an image back, and
 *   eviction thresholds low because the disk is shared with everything else on the machine;
 * - Pod logs under our state directory instead of the shared `/var/log/pods`.
 * Pure.
 */
export function renderKubeletConfig(input: KubeletConfigInput): string {
  const { layout } = input;
  const config = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    failCgroupV1: false,
    cgroupDriver: 'cgroupfs',
    cgroupRoot: layout.cgroupRoot,
    failSwapOn: false,
    address: NODE_IP,
    port: NODE_PORTS.kubelet,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort: NODE_PORTS.kubeletHealthz,
    authentication: {
      anonymous: { enabled: false },
      webhook: { enabled: true, cacheTTL: '10s' },
      x509: { clientCAFile: input.clientCaFile },
    },
    authorization: { mode: 'Webhook' },
    clusterDNS: [CLUSTER_DNS_IP],
    clusterDomain: CLUSTER_DOMAIN,
    resolvConf: input.resolvConf,
    containerRuntimeEndpoint: `unix://${layout.containerdSocket}`,
    imageServiceEndpoint: `unix://${layout.containerdSocket}`,
    podLogsDir: layout.podLogsDir,
    staticPodPath: '',
    serializeImagePulls: false,
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: { 'memory.available': '200Mi', 'nodefs.available': '1%', 'nodefs.inodesFree': '1%', 'imagefs.available': '1%' },
    rotateCertificates: false,
    serverTLSBootstrap: false,
    // The node's status every 10 s (as a default cluster), so a dead kubelet turns the node NotReady in 40 s.
    nodeStatusUpdateFrequency: '10s',
    // Pods are observed at once; a sync every 10 s instead of 1 min keeps ConfigMap and Secret volumes fresh.
    syncFrequency: '10s',
    shutdownGracePeriod: '0s',
    maxPods: 110,
    enforceNodeAllocatable: ['pods'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Command-line of the kubelet (everything else is in the configuration file). Pure. */
export function kubeletArgs(input: { readonly config: string; readonly kubeconfig: string; readonly layout: NodeHostLayout }): string[] {
  return [
    `--config=${input.config}`,
    `--kubeconfig=${input.kubeconfig}`,
    `--root-dir=${input.layout.kubeletRootDir}`,
    `--hostname-override=${NODE_NAME}`,
    `--node-ip=${NODE_IP}`,
    '--v=1',
  ];
}
