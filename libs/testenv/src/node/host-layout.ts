import { join } from 'node:path';
import type { TestenvPaths } from '../paths.ts';

/**
 * Where the node keeps its state. The node changes host-global state (a bridge, iptables chains, cgroups, mounts,
 * `ip_forward`), and CI runs in a fresh clone right after a session on the same machine, so everything that must be
 * found again to be cleaned up lives at fixed machine-wide paths, not in the clone: any clone's `up` or `down` can
 * then sweep what another clone, or a SIGKILLed `up`, left behind. Configuration files and logs stay in the clone.
 */
export interface NodeHostLayout {
  /** `/var/lib/domain-operators-testenv`: persistent node state (kubelet root, containerd root, IPAM). */
  readonly varDir: string;
  /** `/run/domain-operators-testenv`: containerd's state and socket, pid files, network namespaces. */
  readonly runDir: string;
  readonly kubeletRootDir: string;
  readonly containerdRootDir: string;
  readonly containerdStateDir: string;
  readonly containerdSocket: string;
  /** host-local IPAM's allocations (instead of the shared `/var/lib/cni`). */
  readonly ipamDataDir: string;
  /** Pod logs the kubelet writes (instead of the shared `/var/log/pods`). */
  readonly podLogsDir: string;
  /** The value of `net.ipv4.ip_forward` before the node first changed it; restored by the sweep. */
  readonly ipForwardRecord: string;
  /** The cgroup every Pod runs under (kubelet `cgroupRoot`), in every hierarchy: `/domain-operators-testenv`. */
  readonly cgroupRoot: string;
  readonly pidFiles: {
    readonly containerd: string;
    readonly kubelet: string;
    readonly kubeProxy: string;
  };
}

/** Machine-wide names; `root` is only for tests. Pure. */
export function nodeHostLayout(root = '/'): NodeHostLayout {
  const varDir = join(root, 'var/lib/domain-operators-testenv');
  const runDir = join(root, 'run/domain-operators-testenv');
  return {
    varDir,
    runDir,
    kubeletRootDir: join(varDir, 'kubelet'),
    containerdRootDir: join(varDir, 'containerd'),
    containerdStateDir: join(runDir, 'containerd'),
    containerdSocket: join(runDir, 'containerd.sock'),
    ipamDataDir: join(varDir, 'cni'),
    podLogsDir: join(varDir, 'pod-logs'),
    ipForwardRecord: join(varDir, 'ip_forward.orig'),
    cgroupRoot: '/domain-operators-testenv',
    pidFiles: {
      containerd: join(runDir, 'containerd.pid'),
      kubelet: join(runDir, 'kubelet.pid'),
      kubeProxy: join(runDir, 'kube-proxy.pid'),
    },
  };
}

/** The node's per-clone files: configuration it renders on every `up`, and logs. Pure. */
export interface NodeConfigLayout {
  /** `.testenv/run/node`. */
  readonly configDir: string;
  readonly containerdConfig: string;
  readonly cniConfDir: string;
  readonly kubeletConfig: string;
  readonly kubeletKubeconfig: string;
  /** An empty resolv.conf of ours: Pods never learn the host's nameservers. */
  readonly kubeletResolvConf: string;
  readonly kubeProxyConfig: string;
  readonly kubeProxyKubeconfig: string;
  readonly logFiles: {
    readonly containerd: string;
    readonly kubelet: string;
    readonly kubeProxy: string;
    readonly sweep: string;
  };
}

/** Lays out the per-clone node files under `paths`. Pure. */
export function nodeConfigLayout(paths: TestenvPaths): NodeConfigLayout {
  const configDir = join(paths.runDir, 'node');
  return {
    configDir,
    containerdConfig: join(configDir, 'containerd.toml'),
    cniConfDir: join(configDir, 'cni'),
    kubeletConfig: join(configDir, 'kubelet.yaml'),
    kubeletKubeconfig: join(configDir, 'kubelet.kubeconfig'),
    kubeletResolvConf: join(configDir, 'resolv.conf'),
    kubeProxyConfig: join(configDir, 'kube-proxy.yaml'),
    kubeProxyKubeconfig: join(configDir, 'kube-proxy.kubeconfig'),
    logFiles: {
      containerd: join(paths.logsDir, 'containerd.log'),
      kubelet: join(paths.logsDir, 'kubelet.log'),
      kubeProxy: join(paths.logsDir, 'kube-proxy.log'),
      sweep: join(paths.logsDir, 'node-sweep.log'),
    },
  };
}
