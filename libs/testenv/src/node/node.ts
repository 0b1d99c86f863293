import { mkdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import { binaryPaths, ensureBinaries } from '../control-plane/build.ts';
import { apiserverUrl } from '../control-plane/kube-apiserver.ts';
import { renderKubeconfig } from '../control-plane/kubeconfig.ts';
import { controlPlaneLayout } from '../control-plane/layout.ts';
import { pkiFiles } from '../control-plane/pki.ts';
import { answers200 } from '../control-plane/probe.ts';
import type { ApiserverInfo, NodeInfo } from '../env-file.ts';
import { ensureNodeAddonBinaries, nodeAddonPaths } from '../node-build/addon-binaries.ts';
import { readNodeAddonVersions } from '../node-build/addon-versions.ts';
import { readPinnedVersions } from '../control-plane/versions.ts';
import type { NodeAddonBinaries } from '../node-build/addon-binaries.ts';
import { isAlive, runningPid, startDaemon, stopDaemon, waitUntil } from '../process.ts';
import { CLUSTER_DNS_IP, CLUSTER_DOMAIN, NODE_IP, NODE_NAME, NODE_PORTS, POD_CIDR, SERVICE_CIDR } from './addresses.ts';
import { corednsManifests, DEFAULT_STORAGE_CLASS, localPathManifests } from './addons.ts';
import { ensureCgroupRoot } from './cgroups.ts';
import { CNI_CONFLIST_FILE, renderCniConflist } from './cni-config.ts';
import { renderContainerdConfig } from './containerd-config.ts';
import { runHostCommand } from './host-command.ts';
import { nodeConfigLayout, nodeHostLayout } from './host-layout.ts';
import type { NodeConfigLayout, NodeHostLayout } from './host-layout.ts';
import { buildNodeImages, importNodeImages } from './images.ts';
import type { NodeImages } from './images.ts';
import { nodeKube, nodeReady } from './kube-admin.ts';
import { renderKubeProxyConfig } from './kube-proxy-config.ts';
import { kubeletArgs, renderKubeletConfig } from './kubelet-config.ts';
import { findLeftovers } from './leftovers.ts';
import { ensureHostNetwork } from './network.ts';
import { sweepNode } from './sweep.ts';

/** Debian's CNI plugins (`containernetworking-plugins`). */
const CNI_BIN_DIR = '/usr/lib/cni';

/**
 * Where the node's executables are (or would be) in the cache, without building anything: `down` and `leftovers`
 * must never start a build, and a process of ours is found by its path whether or not the file is still there.
 */
async function knownExecutables(ctx: ComponentContext): Promise<string[]> {
  const kube = binaryPaths(ctx.paths.cacheDir, await readPinnedVersions(controlPlaneLayout(ctx.paths).goModuleDir));
  const addons = nodeAddonPaths(ctx.paths.cacheDir, await readNodeAddonVersions(join(ctx.paths.testenvDir, 'go', 'node')));
  return [kube.kubelet, kube.kubeProxy, addons.containerd, addons.containerdShim];
}

/** The executables of the node's binaries, built when missing, for starting the node. */
async function nodeExecutables(ctx: ComponentContext): Promise<{ addons: NodeAddonBinaries; kubelet: string; kubeProxy: string; all: string[] }> {
  const kube = await ensureBinaries(ctx, controlPlaneLayout(ctx.paths));
  const addons = await ensureNodeAddonBinaries(ctx);
  return {
    addons,
    kubelet: kube.kubelet,
    kubeProxy: kube.kubeProxy,
    all: [kube.kubelet, kube.kubeProxy, addons.containerd, addons.containerdShim],
  };
}

/**
 * The node: containerd (built from the Go module proxy) with runc and CNI (bridge, host-local, portmap, loopback),
 * the kubelet and kube-proxy of the control plane's Kubernetes version, cluster DNS (CoreDNS) and dynamic volume
 * provisioning (local-path, default StorageClass `standard`), images imported from local builds. It is not a
 * `Component` because it needs the apiserver's info to start.
 */
export const nodeComponent = {
  /**
   * Brings the node up against `apiserver`, reusing what runs: containerd, the kubelet and kube-proxy each start only
   * when not running. When containerd is not running, whatever an earlier run left on the host (processes, mounts,
   * cgroups, chains) is swept first. Resolves once the Node is Ready and the add-ons are available; rejects with the
   * failing daemon's log tail.
   */
  async up(ctx: ComponentContext, apiserver: ApiserverInfo): Promise<NodeInfo> {
    const host = nodeHostLayout();
    const config = nodeConfigLayout(ctx.paths);
    const executables = await nodeExecutables(ctx);
    const run = runHostCommand;
    const log = (line: string): void => {
      ctx.progress(`sweep: ${line}`);
    };

    const containerdPid = await ownedPid(host.pidFiles.containerd, executables.addons.containerd);
    if (containerdPid === undefined) {
      await sweepNode({ run, log }, host, { executables: executables.all, network: false });
    }
    await ensureHostNetwork(run, host);
    await ensureCgroupRoot(host.cgroupRoot);
    const images = await buildNodeImages(ctx, executables.addons);
    await writeNodeConfig(ctx, host, config, images);

    if (containerdPid === undefined) {
      const started = Date.now();
      const pid = await startDaemon({
        name: 'node/containerd',
        command: executables.addons.containerd,
        args: ['--config', config.containerdConfig],
        // The shim is found on PATH next to containerd; runc is Debian's.
        env: { PATH: `${executables.addons.binDir}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin` },
        logFile: config.logFiles.containerd,
        pidFile: host.pidFiles.containerd,
      });
      await waitUntil(async () => (await run(executables.addons.ctr, ['--address', host.containerdSocket, 'version'])).code === 0, {
        what: 'node/containerd',
        timeoutMs: 60_000,
        logFile: config.logFiles.containerd,
        pid,
      });
      ctx.progress(`containerd ready (pid ${pid}, ${seconds(started)} s, log: ${config.logFiles.containerd})`);
    } else {
      ctx.progress(`containerd already running (pid ${containerdPid})`);
    }

    await importNodeImages(ctx, { ctr: executables.addons.ctr, socket: host.containerdSocket }, images);

    const kube = nodeKube(apiserver.kubeconfig);
    const kubeletPid = await ownedPid(host.pidFiles.kubelet, executables.kubelet);
    if (kubeletPid === undefined) {
      const started = Date.now();
      const pid = await startDaemon({
        name: 'node/kubelet',
        command: executables.kubelet,
        args: kubeletArgs({ config: config.kubeletConfig, kubeconfig: config.kubeletKubeconfig, layout: host }),
        env: { PATH: `${executables.addons.binDir}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin` },
        logFile: config.logFiles.kubelet,
        pidFile: host.pidFiles.kubelet,
      });
      await waitUntil(async () => nodeReady(await kube.readNode(NODE_NAME)), {
        what: `node/kubelet: Node ${NODE_NAME} Ready`,
        timeoutMs: 120_000,
        logFile: config.logFiles.kubelet,
        pid,
      });
      ctx.progress(`kubelet ready, Node ${NODE_NAME} Ready (pid ${pid}, ${seconds(started)} s, log: ${config.logFiles.kubelet})`);
    } else {
      ctx.progress(`kubelet already running (pid ${kubeletPid})`);
    }

    const proxyPid = await ownedPid(host.pidFiles.kubeProxy, executables.kubeProxy);
    if (proxyPid === undefined) {
      const started = Date.now();
      const pid = await startDaemon({
        name: 'node/kube-proxy',
        command: executables.kubeProxy,
        args: [`--config=${config.kubeProxyConfig}`, '--v=1'],
        logFile: config.logFiles.kubeProxy,
        pidFile: host.pidFiles.kubeProxy,
      });
      await waitUntil(() => answers200(`http://127.0.0.1:${NODE_PORTS.kubeProxyHealthz}/healthz`), {
        what: 'node/kube-proxy /healthz',
        timeoutMs: 60_000,
        logFile: config.logFiles.kubeProxy,
        pid,
      });
      ctx.progress(`kube-proxy ready (pid ${pid}, ${seconds(started)} s, log: ${config.logFiles.kubeProxy})`);
    } else {
      ctx.progress(`kube-proxy already running (pid ${proxyPid})`);
    }

    const started = Date.now();
    await kube.apply([...corednsManifests(images.names), ...localPathManifests(images.names, { localPathDir: join(host.varDir, 'local-path') })]);
    for (const [namespace, name] of [
      ['kube-system', 'coredns'],
      ['local-path-storage', 'local-path-provisioner'],
    ] as const) {
      await waitUntil(async () => (await kube.readyReplicas(namespace, name)) > 0, {
        what: `node: Deployment ${namespace}/${name} available`,
        timeoutMs: 120_000,
        logFile: config.logFiles.kubelet,
      });
    }
    ctx.progress(`cluster DNS and local-path provisioner available (${seconds(started)} s)`);
    return nodeInfo(host, images.names.redis);
  },

  /**
   * Stops the node and removes everything it put on the host (see `sweepNode`), the bridge and `ip_forward` only
   * when `network` (the full `testenv down`; Kafka and OpenSearch listen on the bridge address). Never throws when
   * nothing runs.
   */
  async down(ctx: ComponentContext, options: { readonly network: boolean }): Promise<void> {
    const host = nodeHostLayout();
    const executables = await knownExecutables(ctx);
    for (const pidFile of [host.pidFiles.kubelet, host.pidFiles.kubeProxy]) await stopDaemon(pidFile, 5_000);
    await sweepNode({ run: runHostCommand, log: (line) => { ctx.progress(`sweep: ${line}`); } }, host, { executables, network: options.network });
  },

  /** What of the node is still on the host (see `findLeftovers`); empty after a `down` with the same `network`. */
  async leftovers(ctx: ComponentContext, options: { readonly network: boolean }): Promise<string[]> {
    return findLeftovers(runHostCommand, nodeHostLayout(), { executables: await knownExecutables(ctx), network: options.network });
  },

  /** True when containerd, the kubelet and kube-proxy run and answer, and the Node is Ready. */
  async healthy(ctx: ComponentContext): Promise<boolean> {
    const host = nodeHostLayout();
    for (const pidFile of Object.values(host.pidFiles)) {
      const pid = await runningPid(pidFile);
      if (pid === undefined || !isAlive(pid)) return false;
    }
    const kubeconfig = controlPlaneLayout(ctx.paths).adminKubeconfig;
    return (
      (await answers200(`http://127.0.0.1:${NODE_PORTS.kubeletHealthz}/healthz`)) &&
      (await answers200(`http://127.0.0.1:${NODE_PORTS.kubeProxyHealthz}/healthz`)) &&
      nodeReady(await nodeKube(kubeconfig).readNode(NODE_NAME))
    );
  },
};

/** The pid in `pidFile` when that process runs `executable`, else `undefined` (deleting a stale pid file). */
async function ownedPid(pidFile: string, executable: string): Promise<number | undefined> {
  const pid = await runningPid(pidFile);
  if (pid === undefined) return undefined;
  try {
    if ((await readlink(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '') === executable) return pid;
  } catch {
    // gone
  }
  return undefined;
}

/**
 * Renders every configuration file of the node's daemons into the clone's `.testenv/run/node`. Cheap: every `up`.
 * A file is rewritten only when its content changes: kube-proxy exits when its configuration file is touched.
 */
async function writeNodeConfig(ctx: ComponentContext, host: NodeHostLayout, config: NodeConfigLayout, images: NodeImages): Promise<void> {
  const pki = pkiFiles(controlPlaneLayout(ctx.paths).pkiDir);
  await mkdir(config.cniConfDir, { recursive: true });
  await mkdir(host.ipamDataDir, { recursive: true });
  await mkdir(host.podLogsDir, { recursive: true });
  await writeIfChanged(
    config.containerdConfig,
    renderContainerdConfig({ layout: host, sandboxImage: images.names.pause, cniConfDir: config.cniConfDir, cniBinDir: CNI_BIN_DIR }),
  );
  await writeIfChanged(join(config.cniConfDir, CNI_CONFLIST_FILE), renderCniConflist(host.ipamDataDir));
  await writeIfChanged(config.kubeletResolvConf, '# testenv: Pods get the cluster DNS only; nothing off this machine.\n');
  await writeIfChanged(config.kubeletConfig, renderKubeletConfig({ layout: host, clientCaFile: pki.clientCaCert, resolvConf: config.kubeletResolvConf }));
  await writeIfChanged(config.kubeProxyConfig, renderKubeProxyConfig(config.kubeProxyKubeconfig));
  const cluster = { server: apiserverUrl, caFile: pki.caCert, clusterName: 'testenv' };
  await writeIfChanged(config.kubeletKubeconfig, await renderKubeconfig({ ...cluster, certFile: pki.kubeletCert, keyFile: pki.kubeletKey, userName: `system:node:${NODE_NAME}` }), 0o600);
  await writeIfChanged(config.kubeProxyKubeconfig, await renderKubeconfig({ ...cluster, certFile: pki.kubeProxyCert, keyFile: pki.kubeProxyKey, userName: 'system:kube-proxy' }), 0o600);
}

/** Writes `content` to `file` unless the file already holds exactly that. */
async function writeIfChanged(file: string, content: string, mode = 0o644): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current !== content) await writeFile(file, content, { mode });
}

function nodeInfo(host: NodeHostLayout, redisImage: string): NodeInfo {
  return {
    name: NODE_NAME,
    ip: NODE_IP,
    podCidr: POD_CIDR,
    serviceCidr: SERVICE_CIDR,
    clusterDns: CLUSTER_DNS_IP,
    clusterDomain: CLUSTER_DOMAIN,
    storageClass: DEFAULT_STORAGE_CLASS,
    containerdSocket: host.containerdSocket,
    redisImage,
  };
}

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(1);
}
