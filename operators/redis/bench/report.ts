// The redis operator benchmark's report: its JSON shape, the pure helpers that compute it, and its printed form.
import { median } from '@domain-operators/e2e-harness';
export { median } from '@domain-operators/e2e-harness';

/** Median, minimum and maximum of a series of milliseconds (all `null` when no run succeeded). */
export interface Summary {
  readonly runs: number;
  readonly medianMs: number | null;
  readonly minMs: number | null;
  readonly maxMs: number | null;
}

/** How a primary was made to fail. */
export type FailureMode = 'frozen' | 'killed';

/** One failover run, times in ms after the signal. */
export interface FailoverRun {
  readonly run: number;
  readonly oldPrimary: string;
  readonly newPrimary?: string;
  /** `status.primary` names another Pod. */
  readonly statusMs?: number;
  /** …and the primary Service's selector matches exactly that Pod. */
  readonly serviceMs?: number;
  /** …and a write on it has been read on every other surviving member: the verified new primary. */
  readonly verifiedMs?: number;
  /** The old primary (resumed or restarted) replicates from the new one, holding the write made before the failure. */
  readonly rejoinedMs?: number;
  /** The key written and acknowledged by both replicas (WAIT 2) before the failure is on the new primary. */
  readonly dataKept?: boolean;
  /** The promoted member had the highest replication offset of the replicas just before the failure. */
  readonly bestOffsetPromoted?: boolean;
  /** Restarts of the old primary's container during the run (the kubelet's `restartCount`). */
  readonly oldPrimaryRestarts?: number;
  readonly error?: string;
}

/** All runs of one failure mode. */
export interface FailoverSeries {
  readonly mode: FailureMode;
  readonly signal: 'SIGSTOP' | 'SIGKILL';
  readonly runs: readonly FailoverRun[];
  readonly status: Summary;
  readonly service: Summary;
  readonly verified: Summary;
  readonly rejoined: Summary;
  /** Median verified time / downAfterMilliseconds. */
  readonly verifiedRatioToDownAfter: number | null;
  readonly failedRuns: number;
}

/** The whole benchmark result, written to `.reports/bench/redis-operator.json`. */
export interface RedisBenchReport {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly memoryGiB: number; readonly loadBefore: readonly number[]; readonly loadAfter: readonly number[] };
  /** `kubelet` and `containerRuntime` as the Node reports them (`status.nodeInfo`). */
  readonly versions: { readonly node: string; readonly redis: string; readonly kubernetes: string; readonly kubelet: string; readonly containerRuntime: string };
  readonly settings: { readonly members: number; readonly image: string; readonly downAfterMilliseconds: number; readonly pollMs: number };
  readonly ready: Omit<Summary, 'runs'> & { readonly runsMs: readonly number[]; readonly runs: readonly ReadyRun[]; readonly podsReady: Summary };
  readonly failover: readonly FailoverSeries[];
  readonly steadyState: readonly SteadyWindow[];
  readonly verdicts: { readonly steadyStateWrites: 'met' | 'missed' };
}

/** One create → Ready run, ms after the create request. */
export interface ReadyRun {
  readonly readyMs: number;
  /** All member Pods exist. */
  readonly podsCreatedMs?: number;
  /** All member Pods have their Ready condition (the kubelet ran the readiness probe and it passed). */
  readonly podsReadyMs?: number;
}

/** One steady-state window of apiserver writes by the operator's ServiceAccount. */
export interface SteadyWindow {
  readonly label: string;
  /** Time between convergence and the window, and the operator's writes in it (not counted in `writes`). */
  readonly settleSeconds: number;
  readonly writesWhileSettling: number;
  readonly settleByObject: Readonly<Record<string, number>>;
  readonly windowSeconds: number;
  readonly writes: number;
  readonly byVerb: Readonly<Record<string, number>>;
  readonly byObject: Readonly<Record<string, number>>;
  /** For each Event written in the window: what it says. */
  readonly events: Readonly<Record<string, string>>;
  /** Every write in the window with the apiserver's receive time. */
  readonly at: readonly string[];
}


/** Median, min and max of the defined values. Pure. */
export function summarize(values: readonly (number | undefined)[]): Summary {
  const present = values.filter((v): v is number => v !== undefined);
  if (present.length === 0) return { runs: 0, medianMs: null, minMs: null, maxMs: null };
  return { runs: present.length, medianMs: Math.round(median(present)), minMs: Math.min(...present), maxMs: Math.max(...present) };
}

/** A failure mode's runs summarised against `downAfterMilliseconds`. Pure. */
export function failoverSeries(mode: FailureMode, runs: readonly FailoverRun[], downAfterMilliseconds: number): FailoverSeries {
  const verified = summarize(runs.map((r) => r.verifiedMs));
  return {
    mode,
    signal: mode === 'frozen' ? 'SIGSTOP' : 'SIGKILL',
    runs,
    status: summarize(runs.map((r) => r.statusMs)),
    service: summarize(runs.map((r) => r.serviceMs)),
    verified,
    rejoined: summarize(runs.map((r) => r.rejoinedMs)),
    verifiedRatioToDownAfter: verified.medianMs === null ? null : Math.round((verified.medianMs / downAfterMilliseconds) * 100) / 100,
    failedRuns: runs.filter((r) => r.error !== undefined || r.verifiedMs === undefined).length,
  };
}

const s = (ms: number | null): string => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);
const line = (label: string, x: Summary): string => `${label.padEnd(34)} median ${s(x.medianMs).padStart(8)}   min ${s(x.minMs).padStart(8)}   max ${s(x.maxMs).padStart(8)}   (${x.runs} runs)`;

/** The printed report (what the README shows). Pure. */
export function formatReport(r: RedisBenchReport): string {
  const out = [
    `redis operator benchmark — ${r.startedAt}`,
    `machine: ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB; load average before ${r.machine.loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${r.machine.loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
    `node ${r.versions.node}, redis-server ${r.versions.redis} (image ${r.settings.image}), kube-apiserver ${r.versions.kubernetes}; testenv's node: kubelet ${r.versions.kubelet}, ${r.versions.containerRuntime}`,
    `RedisReplication: ${r.settings.members} members, image ${r.settings.image}, failover.downAfterMilliseconds ${r.settings.downAfterMilliseconds}; observer polls every ${r.settings.pollMs} ms`,
    '',
    `1. create → Ready=True (${r.ready.runsMs.map((ms) => s(ms)).join(', ')})`,
    line('   3-member RedisReplication Ready', { ...r.ready, runs: r.ready.runsMs.length }),
    line('   (of which: all 3 Pods Ready)', r.ready.podsReady),
  ];
  for (const f of r.failover) {
    out.push(
      '',
      `2${f.mode === 'frozen' ? 'a' : 'b'}. primary ${f.mode === 'frozen' ? 'frozen (SIGSTOP, SIGCONT after): the downAfterMilliseconds path' : 'killed (SIGKILL; the kubelet restarts the container empty, at once as it is its first exit: the Pod is replaced after each run, resetting the CrashLoopBackOff)'}`,
      line('   status.primary changed', f.status),
      line('   primary Service selects it', f.service),
      line('   verified (write replicated)', f.verified),
      line('   old primary back as a replica', f.rejoined),
      `   verified / downAfterMilliseconds: ${f.verifiedRatioToDownAfter === null ? '—' : f.verifiedRatioToDownAfter.toFixed(2)}; failed runs: ${f.failedRuns} of ${f.runs.length}; data kept in ${f.runs.filter((x) => x.dataKept === true).length}, highest-offset replica promoted in ${f.runs.filter((x) => x.bestOffsetPromoted === true).length}`,
    );
    for (const x of f.runs.filter((y) => y.error !== undefined)) out.push(`   run ${x.run}: ${x.error ?? ''}`);
  }
  out.push('');
  for (const w of r.steadyState) {
    out.push(`3. steady state (${w.label}; window opened ${w.settleSeconds} s after convergence, ${w.writesWhileSettling} writes in between)`);
    out.push(`   apiserver writes by the operator's ServiceAccount in ${w.windowSeconds} s: ${w.writes} (target 0)`);
    for (const [what, n] of Object.entries(w.byObject)) out.push(`   ${String(n).padStart(4)} × ${what}`);
    for (const [name, says] of Object.entries(w.events)) out.push(`   Event ${name}: ${says}`);
    for (const [what, n] of Object.entries(w.settleByObject)) out.push(`   (before the window: ${n} × ${what})`);
  }
  out.push(`   verdict: ${r.verdicts.steadyStateWrites}`);
  return out.join('\n');
}
