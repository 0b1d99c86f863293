import { join } from 'node:path';
import type { TestenvPaths } from '../paths.ts';

/** Loopback ports of the control plane. Fixed so a kubeconfig written once stays valid across restarts. */
export const controlPlanePorts = {
  etcdClient: 12379,
  etcdPeer: 12380,
  apiserver: 16443,
  controllerManager: 10257,
  scheduler: 10259,
} as const;

/** Every file and folder the control plane reads or writes, derived from the testenv paths. Pure. */
export interface ControlPlaneLayout {
  /** `.testenv/run/apiserver`: pid files, PKI, etcd data, audit log. */
  readonly runDir: string;
  /** Certificates and keys, kept across `down` so kubeconfigs stay valid. */
  readonly pkiDir: string;
  /** etcd's data directory, wiped by `down`. */
  readonly etcdDataDir: string;
  /** Scratch `--cert-dir` of kube-apiserver (unused because serving files are given, but required). */
  readonly apiserverCertDir: string;
  readonly auditPolicyFile: string;
  readonly auditLog: string;
  /** The admin kubeconfig handed to tests: `.testenv/kubeconfig`. */
  readonly adminKubeconfig: string;
  /** kube-controller-manager's own kubeconfig (identity `system:kube-controller-manager`). */
  readonly controllerManagerKubeconfig: string;
  /** kube-scheduler's own kubeconfig (identity `system:kube-scheduler`). */
  readonly schedulerKubeconfig: string;
  readonly pidFiles: { readonly etcd: string; readonly apiserver: string; readonly controllerManager: string; readonly scheduler: string };
  readonly logFiles: {
    readonly etcd: string;
    readonly apiserver: string;
    readonly controllerManager: string;
    readonly scheduler: string;
    /** Output of `go build` when binaries are missing from the cache. */
    readonly build: string;
  };
  /** The Go module that pins Kubernetes and etcd: `libs/testenv/go`. */
  readonly goModuleDir: string;
}

/** Lays out the control plane's files under `paths`. */
export function controlPlaneLayout(paths: TestenvPaths): ControlPlaneLayout {
  const runDir = join(paths.runDir, 'apiserver');
  return {
    runDir,
    pkiDir: join(runDir, 'pki'),
    etcdDataDir: join(runDir, 'etcd'),
    apiserverCertDir: join(runDir, 'apiserver-certs'),
    auditPolicyFile: join(runDir, 'audit-policy.yaml'),
    auditLog: join(runDir, 'audit.log'),
    adminKubeconfig: join(paths.stateDir, 'kubeconfig'),
    controllerManagerKubeconfig: join(runDir, 'kube-controller-manager.kubeconfig'),
    schedulerKubeconfig: join(runDir, 'kube-scheduler.kubeconfig'),
    pidFiles: {
      etcd: join(runDir, 'etcd.pid'),
      apiserver: join(runDir, 'kube-apiserver.pid'),
      controllerManager: join(runDir, 'kube-controller-manager.pid'),
      scheduler: join(runDir, 'kube-scheduler.pid'),
    },
    logFiles: {
      etcd: join(paths.logsDir, 'etcd.log'),
      apiserver: join(paths.logsDir, 'apiserver.log'),
      controllerManager: join(paths.logsDir, 'kube-controller-manager.log'),
      scheduler: join(paths.logsDir, 'kube-scheduler.log'),
      build: join(paths.logsDir, 'apiserver-build.log'),
    },
    goModuleDir: join(paths.testenvDir, 'go'),
  };
}
