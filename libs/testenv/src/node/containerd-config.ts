import type { NodeHostLayout } from './host-layout.ts';

/** Inputs of {@link renderContainerdConfig}. */
export interface ContainerdConfigInput {
  readonly layout: NodeHostLayout;
  /** The pause image every Pod sandbox starts from; it must already be imported (no registry is reachable). */
  readonly sandboxImage: string;
  /** Our CNI configuration directory (one conflist, see `cni-config.ts`). */
  readonly cniConfDir: string;
  /** Where the CNI plugins are (Debian's `containernetworking-plugins`: `/usr/lib/cni`). */
  readonly cniBinDir: string;
}

/**
 * containerd 2.x's `config.toml` (version 3) for the node. Everything it writes is under our own root, state and
 * socket, so it never meets a system containerd. Choices, each required on these machines (REAL-NODE-NOTES.md):
 * - `restrict_oom_score_adj = true`: root lacks CAP_SYS_RESOURCE here, and without it every sandbox fails with
 *   runc's "can't get final child's PID from pipe: EOF";
 * - `disable_apparmor = true`, runc with `SystemdCgroup = false` (no systemd; the kubelet uses cgroupfs);
 * - `netns_mounts_under_state_dir = true`: Pod network namespaces are mounted under our state directory, not in the
 *   shared `/run/netns`, so the sweep finds every one;
 * - NRI off and the `opt` plugin's directory moved under our root: neither may create host-global paths;
 * - no registry mirrors or credentials: images come only from `ctr images import`.
 * Pure.
 */
export function renderContainerdConfig(input: ContainerdConfigInput): string {
  const { layout } = input;
  const q = (value: string): string => JSON.stringify(value);
  return `version = 3
root = ${q(layout.containerdRootDir)}
state = ${q(layout.containerdStateDir)}
disabled_plugins = [
  "io.containerd.snapshotter.v1.aufs",
  "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.devmapper",
  "io.containerd.snapshotter.v1.zfs",
  "io.containerd.snapshotter.v1.erofs",
  "io.containerd.nri.v1.nri",
  "io.containerd.tracing.processor.v1.otlp",
  "io.containerd.internal.v1.tracing",
]

[grpc]
  address = ${q(layout.containerdSocket)}

[ttrpc]
  address = ""

[debug]
  level = "info"

[plugins]
  [plugins.'io.containerd.internal.v1.opt']
    path = ${q(`${layout.containerdRootDir}/opt`)}

  [plugins.'io.containerd.grpc.v1.cri']
    disable_tcp_service = true
    stream_server_address = "127.0.0.1"
    stream_server_port = "0"

  [plugins.'io.containerd.cri.v1.images']
    snapshotter = "overlayfs"
    [plugins.'io.containerd.cri.v1.images'.pinned_images]
      sandbox = ${q(input.sandboxImage)}

  [plugins.'io.containerd.cri.v1.runtime']
    enable_selinux = false
    disable_apparmor = true
    restrict_oom_score_adj = true
    netns_mounts_under_state_dir = true
    [plugins.'io.containerd.cri.v1.runtime'.containerd]
      default_runtime_name = "runc"
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
          SystemdCgroup = false
    [plugins.'io.containerd.cri.v1.runtime'.cni]
      bin_dirs = [${q(input.cniBinDir)}]
      conf_dir = ${q(input.cniConfDir)}
      max_conf_num = 1
`;
}
