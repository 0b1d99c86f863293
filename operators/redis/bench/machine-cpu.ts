// The machine's busy CPU time, for the restore benchmark's bound (issue #17): what every process on the machine
// (the floor's or the restore's, testenv's control plane and node, the S3 server) spent, read from /proc/stat.
import { readFile } from 'node:fs/promises';

/** USER_HZ: the unit of /proc/stat's counters on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/**
 * Milliseconds of busy CPU time (user, nice, system, irq, softirq, steal; not idle or iowait) summed over every CPU,
 * from the text of /proc/stat. Throws on text without its first `cpu` line. Pure.
 */
export function busyMsOf(procStat: string): number {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (line === undefined) throw new Error('no aggregate cpu line in /proc/stat');
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / TICKS_PER_SECOND;
}

/** The machine's busy CPU time so far, in ms; the difference of two readings is what was spent between them. */
export async function machineBusyMs(): Promise<number> {
  return busyMsOf(await readFile('/proc/stat', 'utf8'));
}
