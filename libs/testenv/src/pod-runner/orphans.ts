import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../process.ts';

/** Name of the pid file each container process has in its container directory. */
export const CONTAINER_PID_FILE = 'redis-server.pid';

async function isRedisServer(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('redis-server');
  } catch {
    return false;
  }
}

/** Pid files under `<podsDir>/<uid>/containers/<name>/`. */
async function pidFiles(podsDir: string): Promise<string[]> {
  const out: string[] = [];
  const uids = await readdir(podsDir).catch(() => [] as string[]);
  for (const uid of uids) {
    const containersDir = join(podsDir, uid, 'containers');
    const names = await readdir(containersDir).catch(() => [] as string[]);
    for (const name of names) out.push(join(containersDir, name, CONTAINER_PID_FILE));
  }
  return out;
}

/**
 * Stops every redis-server recorded in a container pid file under `podsDir` that is still alive (a pid reused by
 * another program is left alone): SIGTERM, SIGKILL after `graceMs`. Removes the pid files. Resolves with the
 * number of processes stopped. Never throws.
 */
export async function stopRecordedServers(podsDir: string, graceMs = 5_000): Promise<number> {
  const pids: number[] = [];
  for (const file of await pidFiles(podsDir)) {
    const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && (await isRedisServer(pid))) pids.push(pid);
    await rm(file, { force: true });
  }
  const signal = (pid: number, sig: NodeJS.Signals): void => {
    try {
      process.kill(pid, sig);
    } catch {
      // gone
    }
  };
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < deadline) await sleep(100);
  for (const pid of pids.filter(isAlive)) signal(pid, 'SIGKILL');
  return pids.length;
}
