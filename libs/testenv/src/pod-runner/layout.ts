import { join } from 'node:path';
import type { TestenvPaths } from '../paths.ts';

/** Name of the Node the runner registers and binds pods to. */
export const NODE_NAME = 'testenv-node';

/** Where the pod runner keeps its files; everything lives under `.testenv/run/pod-runner/`. */
export interface RunnerLayout {
  readonly dir: string;
  /** The runner process's pid. */
  readonly pidFile: string;
  /** `{ pid, heartbeatAt }`, rewritten after every successful Node heartbeat. */
  readonly healthFile: string;
  /** `{ [podUid]: ip }`: the loopback address of every pod the runner runs. */
  readonly ipsFile: string;
  /** One directory per pod UID: volumes, container logs, container pid files. */
  readonly podsDir: string;
  /** One directory per claim, `<namespace>/<claim>`, surviving pod re-creation. */
  readonly pvcDir: string;
  /** The runner's own log. */
  readonly logFile: string;
}

/** The runner's layout for a checkout. Pure. */
export function runnerLayout(paths: Pick<TestenvPaths, 'runDir' | 'logsDir'>): RunnerLayout {
  return layoutAt(join(paths.runDir, 'pod-runner'), join(paths.logsDir, 'pod-runner.log'));
}

/** The layout rooted at `dir` (what `main.ts --run-dir` receives). Pure. */
export function layoutAt(dir: string, logFile: string): RunnerLayout {
  return {
    dir,
    pidFile: join(dir, 'runner.pid'),
    healthFile: join(dir, 'health.json'),
    ipsFile: join(dir, 'ips.json'),
    podsDir: join(dir, 'pods'),
    pvcDir: join(dir, 'pvc'),
    logFile,
  };
}

/** Files of one pod. Pure. */
export function podFiles(layout: RunnerLayout, uid: string): { dir: string; volumesDir: string; containerDir: (name: string) => string } {
  const dir = join(layout.podsDir, uid);
  return { dir, volumesDir: join(dir, 'volumes'), containerDir: (name) => join(dir, 'containers', name) };
}
