// One measured failover: freeze or kill the primary's redis-server, then time what an independent observer sees
// until the new primary is verified, and until the old one is back as a replica.
import { randomBytes } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import { CONTAINER_NAME } from '../src/redis/manifests.ts';
import { command, converged, info, memberPods, primaryServiceSelects, redisServerPid, replication } from './members.ts';
import type { Converged, Target } from './members.ts';
import type { FailoverRun, FailureMode } from './report.ts';

/** Options of {@link failoverRun}. */
export interface FailoverOptions {
  readonly members: number;
  /** How often the observer polls the apiserver and the members. */
  readonly pollMs: number;
  /** Give up on a run this long after the signal. */
  readonly timeoutMs: number;
  /** Called with a pid right after SIGSTOP and again right after its SIGCONT, so an interrupted benchmark can resume it. */
  readonly frozen: { add(pid: number): void; delete(pid: number): void };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `pollMs` until it returns a value; rejects after `timeoutMs` with the last error. */
export async function until<T>(check: () => Promise<T | undefined>, timeoutMs: number, pollMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last instanceof Error ? ` (last error: ${last.message})` : ''}`);
    await sleep(pollMs);
  }
}

/** Waits until the replication has converged (see `converged`). */
export function waitConverged(t: Target, password: string, members: number, timeoutMs = 120_000): Promise<Converged> {
  return until(() => converged(t, password, members), timeoutMs, 100, `${t.name} converged with ${members} members`);
}

const restarts = (pod: V1Pod | undefined): number => pod?.status?.containerStatuses?.find((s) => s.name === CONTAINER_NAME)?.restartCount ?? 0;

/**
 * Runs one failover of `mode` on a converged replication and measures it. `frozen`: SIGSTOP, the primary accepts
 * connections but never answers, so only `downAfterMilliseconds` can detect it; it gets SIGCONT as soon as the new
 * primary is verified (or the run fails). `killed`: SIGKILL to the container's redis-server; the kubelet sees the
 * container exit and restarts it empty (at once the first time in a Pod's life, then after its CrashLoopBackOff:
 * 10 s, 20 s, … — which is why the benchmark replaces a killed Pod after each run). Never throws for a failed run:
 * the error is in the result.
 */
export async function failoverRun(t: Target, password: string, mode: FailureMode, run: number, options: FailoverOptions): Promise<FailoverRun> {
  const before = await waitConverged(t, password, options.members);
  const oldPrimary = before.primary.metadata?.name ?? '';
  const seedKey = `bench:seed:${mode}:${run}`;
  const seedValue = randomBytes(8).toString('hex');
  await command(before.primary, password, ['SET', seedKey, seedValue]);
  const acks = Number(await command(before.primary, password, ['WAIT', String(options.members - 1), '2000']));
  const offsets = new Map<string, number>();
  for (const r of before.replicas) offsets.set(r.metadata?.name ?? '', Number((await info(r, password)).get('slave_repl_offset')));
  const best = Math.max(...offsets.values());
  const pid = redisServerPid(before.primary);
  const restartsBefore = restarts(before.primary);

  const result: { -readonly [K in keyof FailoverRun]: FailoverRun[K] } = { run, oldPrimary };
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const remaining = (): number => Math.max(0, options.timeoutMs - elapsed());
  process.kill(pid, mode === 'frozen' ? 'SIGSTOP' : 'SIGKILL');
  if (mode === 'frozen') options.frozen.add(pid);
  try {
    const newPrimary = await until(
      async () => {
        const p = (await replication(t)).status?.primary;
        return p !== undefined && p !== oldPrimary ? p : undefined;
      },
      remaining(),
      options.pollMs,
      'status.primary changed',
    );
    result.statusMs = elapsed();
    result.newPrimary = newPrimary;
    result.bestOffsetPromoted = offsets.get(newPrimary) === best;
    await until(async () => ((await primaryServiceSelects(t)).join(',') === newPrimary ? true : undefined), remaining(), options.pollMs, 'primary Service selects only the new primary');
    result.serviceMs = elapsed();
    const token = randomBytes(8).toString('hex');
    const verifyKey = `bench:verify:${mode}:${run}`;
    await until(
      async () => {
        const pods = await memberPods(t);
        const primary = pods.find((p) => p.metadata?.name === newPrimary);
        if (primary === undefined) return undefined;
        await command(primary, password, ['SET', verifyKey, token]); // READONLY until promoted: retried
        const others = pods.filter((p) => p !== primary && p.metadata?.name !== oldPrimary);
        await until(
          async () => {
            for (const o of others) if ((await command(o, password, ['GET', verifyKey])) !== token) return undefined;
            return true;
          },
          Math.min(remaining(), 10_000),
          options.pollMs,
          'write replicated to the other members',
        );
        return true;
      },
      remaining(),
      options.pollMs,
      'a write on the new primary replicated',
    );
    result.verifiedMs = elapsed();
  } catch (err) {
    result.error = `${err instanceof Error ? err.message : String(err)}${acks < options.members - 1 ? ` (the seed write was acknowledged by ${acks} replicas only)` : ''}`;
  } finally {
    if (mode === 'frozen') {
      process.kill(pid, 'SIGCONT');
      options.frozen.delete(pid);
    }
  }
  if (result.newPrimary === undefined) return result;
  try {
    const newPrimary = result.newPrimary;
    const pods = await memberPods(t);
    const primary = pods.find((p) => p.metadata?.name === newPrimary);
    if (primary !== undefined) result.dataKept = (await command(primary, password, ['GET', seedKey])) === seedValue;
    await until(
      async () => {
        const now = await memberPods(t);
        const old = now.find((p) => p.metadata?.name === oldPrimary);
        const np = now.find((p) => p.metadata?.name === newPrimary);
        if (old === undefined || np === undefined) return undefined;
        const i = await info(old, password);
        if (i.get('role') !== 'slave' || i.get('master_host') !== np.status?.podIP || i.get('master_link_status') !== 'up') return undefined;
        return (await command(old, password, ['GET', seedKey])) === seedValue ? true : undefined;
      },
      60_000,
      options.pollMs,
      'the old primary replicates from the new one',
    );
    result.rejoinedMs = elapsed();
    result.oldPrimaryRestarts = restarts((await memberPods(t)).find((p) => p.metadata?.name === oldPrimary)) - restartsBefore;
  } catch (err) {
    result.error = [result.error, err instanceof Error ? err.message : String(err)].filter((x) => x !== undefined).join('; ');
  }
  return result;
}
