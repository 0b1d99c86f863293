import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import type { ApiserverInfo } from '../env-file.ts';
import { runningPid, startDaemon, stopDaemon, waitUntil } from '../process.ts';
import { runnerLayout } from './layout.ts';
import type { HealthRecord } from './node.ts';
import { stopRecordedServers } from './orphans.ts';

/** A heartbeat older than this means the runner is not healthy (heartbeats come every 10 s). */
export const HEALTH_MAX_AGE_MS = 30_000;
/** How long `up` waits for the first heartbeat. */
const START_TIMEOUT_MS = 60_000;

/** True when `pid` is a zombie (dead but not yet reaped, which the signal-0 probe counts as alive). */
async function isZombie(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false;
  }
}

async function freshHeartbeat(healthFile: string, pid: number): Promise<boolean> {
  try {
    const record = JSON.parse(await readFile(healthFile, 'utf8')) as Partial<HealthRecord>;
    const age = Date.now() - Date.parse(record.heartbeatAt ?? '');
    return record.pid === pid && age >= -5_000 && age < HEALTH_MAX_AGE_MS;
  } catch {
    return false;
  }
}

/**
 * The pod runner as an environment component (see `main.ts` for what it does). It is not a `Component` because
 * it needs the apiserver's info to start.
 */
export const podRunnerComponent = {
  /**
   * Starts the runner against `apiserver` unless a healthy one already runs (then it returns at once). Starts it
   * as a detached daemon logging to `.testenv/logs/pod-runner.log` and resolves once its Node heartbeat was
   * posted; rejects with the log's tail when it does not come up within a minute.
   */
  async up(ctx: ComponentContext, apiserver: ApiserverInfo): Promise<void> {
    const layout = runnerLayout(ctx.paths);
    if (await this.healthy(ctx)) return;
    await stopDaemon(layout.pidFile);
    await stopRecordedServers(layout.podsDir);
    await rm(layout.healthFile, { force: true });
    const pid = await startDaemon({
      name: 'pod-runner',
      command: process.execPath,
      args: [
        '--no-warnings=ExperimentalWarning',
        join(ctx.paths.testenvDir, 'src', 'pod-runner', 'main.ts'),
        '--kubeconfig',
        apiserver.kubeconfig,
        '--run-dir',
        layout.dir,
        '--log-file',
        layout.logFile,
      ],
      cwd: ctx.paths.root,
      logFile: layout.logFile,
      pidFile: layout.pidFile,
    });
    await waitUntil(() => freshHeartbeat(layout.healthFile, pid), {
      what: 'pod-runner node heartbeat',
      timeoutMs: START_TIMEOUT_MS,
      logFile: layout.logFile,
      pid,
    });
    ctx.progress(`pod runner pid ${pid}, node testenv-node Ready`);
  },

  /**
   * Stops the runner (SIGTERM to its process group, which holds its redis-servers; SIGKILL after 15 s), then
   * any redis-server still recorded in a pid file, and deletes `.testenv/run/pod-runner/` (pod volumes and
   * claim directories included). Never throws when nothing runs.
   */
  async down(ctx: ComponentContext): Promise<void> {
    const layout = runnerLayout(ctx.paths);
    await stopDaemon(layout.pidFile, 15_000);
    const leftovers = await stopRecordedServers(layout.podsDir);
    if (leftovers > 0) ctx.progress(`pod-runner: stopped ${leftovers} leftover redis-server(s)`);
    await rm(layout.dir, { recursive: true, force: true });
  },

  /** True when the runner's pid is alive (not a zombie) and it posted a Node heartbeat within the last 30 s. */
  async healthy(ctx: ComponentContext): Promise<boolean> {
    const layout = runnerLayout(ctx.paths);
    const pid = await runningPid(layout.pidFile);
    return pid !== undefined && !(await isZombie(pid)) && (await freshHeartbeat(layout.healthFile, pid));
  },
};
