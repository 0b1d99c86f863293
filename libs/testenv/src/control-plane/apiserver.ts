import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Component, ComponentContext } from '../component.ts';
import type { ApiserverInfo } from '../env-file.ts';
import { startDaemon, stopDaemon, waitUntil, type DaemonSpec } from '../process.ts';
import { auditPolicyYaml } from './audit-policy.ts';
import { ensureBinaries } from './build.ts';
import { etcdArgs, etcdHealthUrl } from './etcd.ts';
import { apiserverUrl, kubeApiserverArgs } from './kube-apiserver.ts';
import { controllerManagerHealthUrl, kubeControllerManagerArgs } from './kube-controller-manager.ts';
import { kubeSchedulerArgs, schedulerHealthUrl } from './kube-scheduler.ts';
import { renderKubeconfig } from './kubeconfig.ts';
import { controlPlaneLayout, controlPlanePorts, type ControlPlaneLayout } from './layout.ts';
import { executableNames, ownedPid } from './pids.ts';
import { ensurePki, pkiFiles, type ControlPlanePki } from './pki.ts';
import { answers200, assertPortFree, httpGet, type ProbeTls } from './probe.ts';

/** One daemon of the control plane: how to start it and how to know it serves. */
interface Daemon {
  /** Short name for progress messages (the orchestrator already prefixes the component). */
  readonly name: string;
  /** Its `name` is `apiserver/<name>`, for error messages. */
  readonly spec: DaemonSpec;
  readonly executable: string;
  readonly port: number;
  /** Resolves true once the daemon really serves; must not throw. */
  readonly ready: () => Promise<boolean>;
  readonly readyTimeoutMs: number;
}

/**
 * The Kubernetes control plane as local processes: etcd, kube-apiserver, kube-controller-manager and kube-scheduler,
 * built from the Go module in `libs/testenv/go` (cached by version) and reached with the admin kubeconfig
 * at `.testenv/kubeconfig`. The node (`../node/`) runs the Pods.
 *
 * `up` is idempotent per process: each one that runs and answers is kept, each one that does not is
 * (re)started, in dependency order. `down` stops all four and wipes etcd's data and the audit log, so the
 * next `up` starts from an empty cluster; the PKI and kubeconfig are kept and stay valid.
 */
export const apiserverComponent: Component<ApiserverInfo> = {
  name: 'apiserver',

  async up(ctx: ComponentContext): Promise<ApiserverInfo> {
    const layout = controlPlaneLayout(ctx.paths);
    const binaries = await ensureBinaries(ctx, layout);
    const pki = await ensurePki(layout.pkiDir);
    await writeConfigFiles(layout, pki);

    const etcd: Daemon = {
      name: 'etcd',
      spec: daemonSpec('etcd', binaries.etcd, etcdArgs(layout.etcdDataDir), layout.logFiles.etcd, layout.pidFiles.etcd),
      executable: executableNames.etcd,
      port: controlPlanePorts.etcdClient,
      ready: () => answers200(etcdHealthUrl),
      readyTimeoutMs: 30_000,
    };
    const apiserver: Daemon = {
      name: 'kube-apiserver',
      spec: daemonSpec(
        'kube-apiserver',
        binaries.kubeApiserver,
        kubeApiserverArgs({
          pki,
          certDir: layout.apiserverCertDir,
          auditPolicyFile: layout.auditPolicyFile,
          auditLog: layout.auditLog,
        }),
        layout.logFiles.apiserver,
        layout.pidFiles.apiserver,
      ),
      executable: executableNames.apiserver,
      port: controlPlanePorts.apiserver,
      ready: () => answers200(`${apiserverUrl}/readyz`, adminTls(pki)),
      readyTimeoutMs: 120_000,
    };
    const controllerManager: Daemon = {
      name: 'kube-controller-manager',
      spec: daemonSpec(
        'kube-controller-manager',
        binaries.kubeControllerManager,
        kubeControllerManagerArgs({ pki, kubeconfig: layout.controllerManagerKubeconfig }),
        layout.logFiles.controllerManager,
        layout.pidFiles.controllerManager,
      ),
      executable: executableNames.controllerManager,
      port: controlPlanePorts.controllerManager,
      // Healthy, and its service-account controller has created `default/default`: controllers really run.
      ready: async () =>
        (await answers200(controllerManagerHealthUrl, { caFile: pki.caCert })) &&
        (await answers200(`${apiserverUrl}/api/v1/namespaces/default/serviceaccounts/default`, adminTls(pki))),
      readyTimeoutMs: 90_000,
    };

    const scheduler: Daemon = {
      name: 'kube-scheduler',
      spec: daemonSpec(
        'kube-scheduler',
        binaries.kubeScheduler,
        kubeSchedulerArgs({ pki, kubeconfig: layout.schedulerKubeconfig }),
        layout.logFiles.scheduler,
        layout.pidFiles.scheduler,
      ),
      executable: executableNames.scheduler,
      port: controlPlanePorts.scheduler,
      ready: () => answers200(schedulerHealthUrl, { caFile: pki.caCert }),
      readyTimeoutMs: 60_000,
    };

    for (const daemon of [etcd, apiserver, controllerManager, scheduler]) await ensureRunning(ctx, daemon);
    return {
      kubeconfig: layout.adminKubeconfig,
      kubernetesVersion: await servedVersion(pki),
      auditLog: layout.auditLog,
      url: apiserverUrl,
      caFile: pki.caCert,
    };
  },

  async down(ctx: ComponentContext): Promise<void> {
    const layout = controlPlaneLayout(ctx.paths);
    // Clients first, storage last, so nothing logs errors about a vanished dependency while stopping.
    await stopOwned(layout.pidFiles.scheduler, executableNames.scheduler);
    await stopOwned(layout.pidFiles.controllerManager, executableNames.controllerManager);
    await stopOwned(layout.pidFiles.apiserver, executableNames.apiserver);
    await stopOwned(layout.pidFiles.etcd, executableNames.etcd);
    await rm(layout.etcdDataDir, { recursive: true, force: true });
    await rm(layout.auditLog, { force: true });
    await rm(layout.apiserverCertDir, { recursive: true, force: true });
  },

  async healthy(ctx: ComponentContext): Promise<boolean> {
    const layout = controlPlaneLayout(ctx.paths);
    const pki = pkiFiles(layout.pkiDir);
    const running =
      (await ownedPid(layout.pidFiles.etcd, executableNames.etcd)) !== undefined &&
      (await ownedPid(layout.pidFiles.apiserver, executableNames.apiserver)) !== undefined &&
      (await ownedPid(layout.pidFiles.controllerManager, executableNames.controllerManager)) !== undefined &&
      (await ownedPid(layout.pidFiles.scheduler, executableNames.scheduler)) !== undefined;
    return (
      running &&
      (await answers200(etcdHealthUrl)) &&
      (await answers200(`${apiserverUrl}/readyz`, adminTls(pki))) &&
      (await answers200(controllerManagerHealthUrl, { caFile: pki.caCert })) &&
      (await answers200(schedulerHealthUrl, { caFile: pki.caCert }))
    );
  },
};

/**
 * How long a running daemon may take to answer before it is restarted: on a loaded machine one probe can miss its
 * 2 s timeout, and restarting a healthy kube-apiserver under a running suite costs far more than waiting.
 */
const RUNNING_GRACE_MS = 30_000;

/** True once `ready` resolves true within `ms` (probing every 500 ms). */
async function answersWithin(ready: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await ready()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Keeps `daemon` when it runs and answers (within a grace period); otherwise stops what is left of it and starts it afresh. */
async function ensureRunning(ctx: ComponentContext, daemon: Daemon): Promise<void> {
  const { name } = daemon;
  const { pidFile, logFile } = daemon.spec;
  const pid = await ownedPid(pidFile, daemon.executable);
  if (pid !== undefined && (await answersWithin(daemon.ready, RUNNING_GRACE_MS))) {
    ctx.progress(`${name} already running (pid ${pid})`);
    return;
  }
  if (pid !== undefined) {
    ctx.progress(`${name} (pid ${pid}) does not answer: restarting it`);
    await stopDaemon(pidFile);
  }
  await assertPortFree(daemon.port, daemon.spec.name);
  const started = Date.now();
  const newPid = await startDaemon(daemon.spec);
  await waitUntil(daemon.ready, { what: daemon.spec.name, timeoutMs: daemon.readyTimeoutMs, logFile, pid: newPid });
  ctx.progress(`${name} ready (pid ${newPid}, ${((Date.now() - started) / 1000).toFixed(1)} s, log: ${logFile})`);
}

async function stopOwned(pidFile: string, executable: string): Promise<void> {
  // ownedPid deletes a stale pid file, so stopDaemon never signals a process that is not ours.
  if ((await ownedPid(pidFile, executable)) !== undefined) await stopDaemon(pidFile);
}

function daemonSpec(name: string, command: string, args: string[], logFile: string, pidFile: string): DaemonSpec {
  return { name: `apiserver/${name}`, command, args, logFile, pidFile };
}

function adminTls(pki: ControlPlanePki): ProbeTls {
  return { caFile: pki.caCert, certFile: pki.adminCert, keyFile: pki.adminKey };
}

/** Writes the audit policy and both kubeconfigs; cheap, so done on every `up`. */
async function writeConfigFiles(layout: ControlPlaneLayout, pki: ControlPlanePki): Promise<void> {
  await mkdir(layout.runDir, { recursive: true });
  await mkdir(layout.apiserverCertDir, { recursive: true });
  await writeFile(layout.auditPolicyFile, auditPolicyYaml());
  const cluster = { server: apiserverUrl, caFile: pki.caCert, clusterName: 'testenv' };
  await writeFile(
    layout.adminKubeconfig,
    await renderKubeconfig({ ...cluster, certFile: pki.adminCert, keyFile: pki.adminKey, userName: 'admin' }),
    { mode: 0o600 },
  );
  const identities = [
    [layout.controllerManagerKubeconfig, pki.controllerManagerCert, pki.controllerManagerKey, 'kube-controller-manager'],
    [layout.schedulerKubeconfig, pki.schedulerCert, pki.schedulerKey, 'kube-scheduler'],
  ] as const;
  for (const [file, certFile, keyFile, userName] of identities) {
    await writeFile(file, await renderKubeconfig({ ...cluster, certFile, keyFile, userName }), { mode: 0o600 });
  }
}

/** The `gitVersion` that `/version` reports, e.g. `v1.35.8`. */
async function servedVersion(pki: ControlPlanePki): Promise<string> {
  const response = await httpGet(`${apiserverUrl}/version`, adminTls(pki));
  const version = (JSON.parse(response.body) as { gitVersion?: unknown }).gitVersion;
  if (response.status !== 200 || typeof version !== 'string') {
    throw new Error(`apiserver: GET /version answered ${response.status}: ${response.body.slice(0, 200)}`);
  }
  return version;
}
