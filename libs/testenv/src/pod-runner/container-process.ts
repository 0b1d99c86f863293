import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONTAINER_PID_FILE } from './orphans.ts';
import type { Termination } from './pod-status.ts';

/** How to start one container's redis-server. */
export interface ProcessSpec {
  readonly args: readonly string[];
  readonly cwd: string;
  /** The container's environment (added to a minimal `PATH`/`HOME`). */
  readonly env: ReadonlyMap<string, string>;
  /** Holds the pid file and `container.log` (stdout and stderr, appended). */
  readonly containerDir: string;
}

/** A started redis-server. */
export interface ContainerProcess {
  readonly pid: number;
  readonly startedAt: Date;
  /** Resolves once, when the process has exited. */
  readonly exited: Promise<Termination>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs: number): Promise<Termination>;
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : (constants.signals as Record<string, number | undefined>)[signal];
  return 128 + (number ?? 0);
}

/**
 * Starts `redis-server` as a child of the runner (same process group, so stopping the runner's group stops it
 * too), logging to `<containerDir>/container.log` and recording its pid in `<containerDir>/redis-server.pid`.
 * Rejects when it cannot be spawned.
 */
export async function startContainerProcess(spec: ProcessSpec): Promise<ContainerProcess> {
  await mkdir(spec.containerDir, { recursive: true });
  await mkdir(spec.cwd, { recursive: true });
  const pidFile = join(spec.containerDir, CONTAINER_PID_FILE);
  const fd = openSync(join(spec.containerDir, 'container.log'), 'a');
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: spec.cwd,
    ...Object.fromEntries(spec.env),
  };
  try {
    const child = spawn('redis-server', [...spec.args], { cwd: spec.cwd, env, stdio: ['ignore', fd, fd] });
    const startedAt = new Date();
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        if (child.pid === undefined) reject(new Error('redis-server: no pid after spawn'));
        else resolve(child.pid);
      });
    });
    const exited = new Promise<Termination>((resolve) => {
      child.once('exit', (code, signal) => {
        const exitCode = exitCodeOf(code, signal);
        resolve({
          exitCode,
          ...(signal === null ? {} : { signal }),
          reason: exitCode === 0 ? 'Completed' : 'Error',
          startedAt,
          finishedAt: new Date(),
        });
      });
    });
    void exited.then(() => rm(pidFile, { force: true }));
    await writeFile(pidFile, `${pid}\n`);
    const stop = async (graceMs: number): Promise<Termination> => {
      child.kill('SIGTERM');
      const result = await Promise.race([exited, sleep(graceMs).then(() => undefined)]);
      if (result !== undefined) return result;
      child.kill('SIGKILL');
      return exited;
    };
    return { pid, startedAt, exited, stop };
  } finally {
    closeSync(fd);
  }
}
