import { readlink, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { TestenvPaths } from '../paths.ts';
import { runningPid } from '../process.ts';
import { controlPlaneLayout } from './layout.ts';

/** Executable names of the control-plane processes, as `/proc/<pid>/exe` shows them. */
export const executableNames = {
  etcd: 'etcd',
  apiserver: 'kube-apiserver',
  controllerManager: 'kube-controller-manager',
  scheduler: 'kube-scheduler',
} as const;

/** Pids of the running control-plane processes; a member is absent when that process does not run. */
export interface ControlPlanePids {
  readonly etcd?: number;
  readonly apiserver?: number;
  readonly controllerManager?: number;
}

/**
 * The pid recorded in `pidFile` if that process is alive *and* runs `executable`. A pid file whose process
 * is gone, or whose pid was reused by an unrelated program, is stale: it is deleted (so `stopDaemon` can
 * never signal a stranger) and `undefined` is returned.
 */
export async function ownedPid(pidFile: string, executable: string): Promise<number | undefined> {
  const pid = await runningPid(pidFile);
  if (pid !== undefined) {
    try {
      const exe = basename((await readlink(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, ''));
      if (exe === executable) return pid;
    } catch {
      // not ours to inspect: treat as stale
    }
  }
  await rm(pidFile, { force: true });
  return undefined;
}

/**
 * Pids of etcd, kube-apiserver and kube-controller-manager, read from their pid files, so tests can
 * pause (`SIGSTOP`/`SIGCONT`) or kill them to exercise failure handling. Deletes stale pid files, else
 * only reads; the answer may be stale the moment it returns.
 */
export async function controlPlanePids(paths: TestenvPaths): Promise<ControlPlanePids> {
  const { pidFiles } = controlPlaneLayout(paths);
  const etcd = await ownedPid(pidFiles.etcd, executableNames.etcd);
  const apiserver = await ownedPid(pidFiles.apiserver, executableNames.apiserver);
  const controllerManager = await ownedPid(pidFiles.controllerManager, executableNames.controllerManager);
  return {
    ...(etcd === undefined ? {} : { etcd }),
    ...(apiserver === undefined ? {} : { apiserver }),
    ...(controllerManager === undefined ? {} : { controllerManager }),
  };
}
