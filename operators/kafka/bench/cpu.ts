// CPU accounting for the Kafka operator benchmark: which process of the one machine spent the time.
import { cpuSecondsOf } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { controlPlanePids, kafkaBrokerPid, resolvePaths } from '@domain-operators/testenv';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The processes the benchmark accounts for, by name → pid: testenv's `kube-apiserver`, `etcd` and `kafka`, and the
 * `operator` when given. A process that does not run is left out.
 */
export async function measuredPids(operator?: OperatorProcess): Promise<Record<string, number>> {
  const control = await controlPlanePids(resolvePaths());
  const pids: Record<string, number | undefined> = {
    ...(operator !== undefined && { operator: operator.pid() }),
    'kube-apiserver': control.apiserver,
    etcd: control.etcd,
    kafka: await kafkaBrokerPid(),
  };
  return Object.fromEntries(Object.entries(pids).filter((entry): entry is [string, number] => entry[1] !== undefined));
}

/** CPU seconds used so far by each of `pids`, and by this process as `benchmark client`. */
export async function cpuSnapshot(pids: Readonly<Record<string, number>>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) out[name] = (await cpuSecondsOf(pid)) ?? Number.NaN;
  const self = process.cpuUsage();
  out['benchmark client'] = (self.user + self.system) / 1e6;
  return out;
}

/** CPU seconds each process spent between two snapshots, rounded to 10 ms. Pure. */
export function cpuSpent(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, value]) => [name, Math.round((value - (before[name] ?? Number.NaN)) * 100) / 100]));
}

/**
 * Waits until process `pid` has spent under 15 % of one CPU in each of four half-second samples in a row, and resolves
 * with the `performance.now()` at which that quiet run began. Gives up after `timeoutMs` (default 60 s) and resolves
 * `undefined` then, as it does at once for an absent pid.
 */
export async function waitUntilIdle(pid: number | undefined, timeoutMs = 60_000): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const deadline = Date.now() + timeoutMs;
  let last = await cpuSecondsOf(pid);
  let quietSince = performance.now();
  let quiet = 0;
  while (last !== undefined && Date.now() < deadline) {
    await sleep(500);
    const now = await cpuSecondsOf(pid);
    if (now === undefined) return undefined;
    if (now - last < 0.075) {
      quiet += 1;
      if (quiet === 4) return quietSince;
    } else {
      quiet = 0;
      quietSince = performance.now();
    }
    last = now;
  }
  return undefined;
}
