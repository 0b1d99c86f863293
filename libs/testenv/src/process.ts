import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How to start one long-running process of the environment. */
export interface DaemonSpec {
  /** Used in error messages; the component name or a sub-name such as `etcd`. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Added to the parent's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** stdout and stderr are appended here. */
  readonly logFile: string;
  /** The pid is written here; `stopDaemon` and `runningPid` read it. */
  readonly pidFile: string;
}

/**
 * Starts `spec` detached in its own process group, so it outlives the caller, and records its pid.
 * Resolves with the pid once the process is spawned (not once it serves: use `waitUntil` for that).
 */
export async function startDaemon(spec: DaemonSpec): Promise<number> {
  await mkdir(dirname(spec.logFile), { recursive: true });
  await mkdir(dirname(spec.pidFile), { recursive: true });
  const fd = openSync(spec.logFile, 'a');
  try {
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    const pid = await new Promise<number>((resolvePid, reject) => {
      child.once('error', (err) => {
        reject(new Error(`${spec.name}: cannot start ${spec.command}: ${err.message}`));
      });
      child.once('spawn', () => {
        if (child.pid === undefined) reject(new Error(`${spec.name}: no pid after spawn`));
        else resolvePid(child.pid);
      });
    });
    child.unref();
    await writeFile(spec.pidFile, `${pid}\n`);
    return pid;
  } finally {
    closeSync(fd);
  }
}

/** True when a process with this pid exists and is not a zombie (signal 0 probe, then `/proc/<pid>/stat`). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; `Z` is a zombie: exited, waiting for its parent to reap it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** The pid recorded in `pidFile` if that process is still alive, else `undefined`. */
export async function runningPid(pidFile: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

/**
 * Stops the process group recorded in `pidFile`: SIGTERM, then SIGKILL after `graceMs`.
 * Removes the pid file. Never throws when nothing runs.
 */
export async function stopDaemon(pidFile: string, graceMs = 10_000): Promise<void> {
  const pid = await runningPid(pidFile);
  if (pid !== undefined) {
    signalGroup(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isAlive(pid) && Date.now() < deadline) await sleep(100);
    if (isAlive(pid)) {
      signalGroup(pid, 'SIGKILL');
      while (isAlive(pid)) await sleep(50);
    }
  }
  await rm(pidFile, { force: true });
}

/** Sends `signal` to the process group led by `pid`, falling back to the process alone. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** The last `lines` lines of a text file, or a note that it cannot be read. */
export async function tailFile(file: string, lines = 30): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    return text.split('\n').slice(-lines - 1).join('\n');
  } catch {
    return `(no log at ${file})`;
  }
}

/** Options for {@link waitUntil}. */
export interface WaitOptions {
  /** What is awaited, for the error message, e.g. `kube-apiserver /readyz`. */
  readonly what: string;
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** Its tail is put in the error on timeout. */
  readonly logFile?: string;
  /** When given and this process dies, waiting stops at once. */
  readonly pid?: number;
}

/**
 * Polls `check` until it resolves true. Rejects on timeout, or as soon as `pid` dies, with the tail of
 * `logFile` in the message. A check that throws counts as false.
 */
export async function waitUntil(check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    let ok: boolean;
    try {
      ok = await check();
    } catch {
      ok = false;
    }
    if (ok) return;
    const died = options.pid !== undefined && !isAlive(options.pid);
    if (died || Date.now() > deadline) {
      const why = died ? 'the process exited' : `not ready after ${options.timeoutMs} ms`;
      const tail = options.logFile === undefined ? '' : `\n--- last lines of ${options.logFile} ---\n${await tailFile(options.logFile)}`;
      throw new Error(`${options.what}: ${why}${tail}`);
    }
    await sleep(options.intervalMs ?? 250);
  }
}

/** Options for {@link runToCompletion}. */
export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Output is appended here; its tail is put in the error on failure. */
  readonly logFile: string;
}

/** Runs a build or setup command in the foreground; rejects with the log's tail when it exits non-zero. */
export async function runToCompletion(command: string, args: readonly string[], options: RunOptions): Promise<void> {
  await mkdir(dirname(options.logFile), { recursive: true });
  const fd = openSync(options.logFile, 'a');
  try {
    const code = await new Promise<number | null>((resolveCode, reject) => {
      const child = spawn(command, [...args], {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', fd, fd],
      });
      child.once('error', reject);
      child.once('exit', (exitCode) => {
        resolveCode(exitCode);
      });
    });
    if (code !== 0) {
      throw new Error(
        `${command} ${args.join(' ')} exited with ${code}\n--- last lines of ${options.logFile} ---\n${await tailFile(options.logFile)}`,
      );
    }
  } finally {
    closeSync(fd);
  }
}
