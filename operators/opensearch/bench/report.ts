// The OpenSearch operator benchmark's report: its JSON shape, the pure helpers that compute it, and its printed form.
import { counterIncrease } from '@domain-operators/e2e-harness';
export { median, metricSum } from '@domain-operators/e2e-harness';

/** `opensearch_operator_requests_total` between two scrapes of `/metrics`. */
export interface OpenSearchRequests {
  readonly total: number;
  readonly perIndex: number;
  readonly byApi: Readonly<Record<string, number>>;
}

/** One operator run: the same indices applied as OpenSearchIndex resources with `workers` reconciles in parallel. */
export interface OperatorPhase {
  readonly workers: number;
  /** When the last OpenSearchIndex create returned (they are applied by 50 clients in parallel). */
  readonly applySeconds: number;
  readonly allReadySeconds: number;
  readonly ratioToFloor: number;
  readonly requests: OpenSearchRequests;
  readonly reconciles: number;
  readonly reconcileErrors: number;
  /** Writes by the operator's ServiceAccount from the first create until all Ready, by `verb resource`. */
  readonly apiserverWrites: Readonly<Record<string, number>>;
  readonly apiserverWritesPerIndex: number;
  /** VmHWM of the operator process at the end of the phase (its steady state included for the last phase). */
  readonly peakRssMiB: number;
  /** Other identities that wrote the benchmark's connection during the phase (another operator: figures invalid). */
  readonly otherOperators: readonly string[];
}

/** The whole benchmark result, written to `.reports/bench/opensearch-operator.json`. */
export interface OpenSearchBenchReport {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly memoryGiB: number; readonly loadBefore: readonly number[]; readonly loadAfter: readonly number[] };
  readonly versions: { readonly node: string; readonly opensearch: string; readonly kubernetes: string };
  readonly indices: number;
  readonly indexSettings: Readonly<Record<string, unknown>>;
  readonly floor: { readonly method: string; readonly concurrency: number; readonly rounds: readonly number[]; readonly medianSeconds: number; readonly sequentialSeconds: number };
  readonly ratioTarget: number;
  readonly operator: readonly OperatorPhase[];
  readonly steadyState: {
    readonly workers: number;
    readonly windowSeconds: number;
    readonly startedSecondsAfterReady: number;
    /** Every write by the operator's ServiceAccount in the window. */
    readonly apiserverWrites: number;
    readonly writesByVerb: Readonly<Record<string, number>>;
    readonly indexReconciles: number;
    readonly connectionReconciles: number;
    readonly openSearchRequests: Readonly<Record<string, number>>;
  };
  readonly verdicts: { readonly ratio: 'met' | 'missed'; readonly steadyStateWrites: 'met' | 'missed' };
}


/** `opensearch_operator_requests_total` per API between two scrapes, and per index. Pure. */
export function requestsBetween(before: string, after: string, indices: number): OpenSearchRequests {
  const { total, byLabel } = counterIncrease(before, after, 'opensearch_operator_requests_total', 'api');
  return { total, perIndex: Math.round((total / indices) * 1000) / 1000, byApi: { ...byLabel } };
}


const fixed = (n: number, digits = 2): string => n.toFixed(digits);
const listed = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .map(([what, n]) => `${what} ${n}`)
    .join(', ') || 'none';

/** The printed report (what the README shows). Pure. */
export function formatReport(r: OpenSearchBenchReport): string {
  const s = r.steadyState;
  return [
    `opensearch operator benchmark — ${r.startedAt}`,
    `machine: ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB; load average before ${r.machine.loadBefore.map((l) => fixed(l)).join(' ')}, after ${r.machine.loadAfter.map((l) => fixed(l)).join(' ')}`,
    `node ${r.versions.node}, OpenSearch ${r.versions.opensearch} (one node, security plugin), kube-apiserver ${r.versions.kubernetes}`,
    '',
    `${r.indices} indices, settings ${JSON.stringify(r.indexSettings)}`,
    `floor: ${r.floor.method}, ${r.floor.concurrency} in flight: ${r.floor.rounds.map((x) => fixed(x)).join(' / ')} s, median ${fixed(r.floor.medianSeconds)} s (one at a time: ${fixed(r.floor.sequentialSeconds)} s)`,
    ...r.operator.flatMap((o) => [
      `operator, --max-concurrent-reconciles=${o.workers}: all ${r.indices} Ready after ${fixed(o.allReadySeconds)} s (creates applied after ${fixed(o.applySeconds)} s); ratio to the floor ${fixed(o.ratioToFloor)} (target ≤ ${r.ratioTarget}) ${o.ratioToFloor <= r.ratioTarget ? 'met' : 'missed'}`,
      `  OpenSearch requests: ${o.requests.total} (${fixed(o.requests.perIndex, 2)} per index): ${listed(o.requests.byApi)}`,
      `  reconciles: ${o.reconciles} (errors ${o.reconcileErrors}); apiserver writes by the operator until all Ready: ${listed(o.apiserverWrites)} (${fixed(o.apiserverWritesPerIndex, 2)} per index)`,
      `  peak operator RSS (VmHWM): ${fixed(o.peakRssMiB, 1)} MiB`,
      ...(o.otherOperators.length > 0 ? [`  INVALID: another operator wrote the connection during this run: ${o.otherOperators.join(', ')}`] : []),
    ]),
    '',
    `steady state (--max-concurrent-reconciles=${s.workers}): ${s.windowSeconds} s window starting ${s.startedSecondsAfterReady} s after all Ready`,
    `  reconciles in the window: OpenSearchIndex ${s.indexReconciles}, OpenSearchConnection ${s.connectionReconciles}; OpenSearch requests: ${listed(s.openSearchRequests)}`,
    `  apiserver writes by the operator's ServiceAccount: ${s.apiserverWrites} (target 0) ${r.verdicts.steadyStateWrites}${Object.keys(s.writesByVerb).length > 0 ? ` — ${JSON.stringify(s.writesByVerb)}` : ''}`,
  ].join('\n');
}
