// The kafka operator benchmark's report: its JSON shape, the pure helpers that compute it, and its printed form.
import { metricSum } from '@domain-operators/e2e-harness';
export { median, metricSum } from '@domain-operators/e2e-harness';

/** Prometheus-text figures of the operator between two scrapes. */
export interface AdminRequests {
  readonly total: number;
  readonly perTopic: number;
  readonly byApi: Readonly<Record<string, number>>;
}

/** The whole benchmark result, written to `.reports/bench/kafka-operator.json`. */
export interface KafkaBenchReport {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly memoryGiB: number; readonly loadBefore: readonly number[]; readonly loadAfter: readonly number[] };
  readonly versions: { readonly node: string; readonly kafka: string; readonly kubernetes: string };
  readonly topics: number;
  readonly partitionsPerTopic: number;
  readonly floor: { readonly batchSize: number; readonly rounds: readonly number[]; readonly medianSeconds: number };
  readonly operator: {
    readonly applySeconds: number;
    readonly allReadySeconds: number;
    readonly ratioToFloor: number;
    readonly ratioTarget: number;
    readonly adminRequests: AdminRequests;
    readonly peakRssMiB: number;
    readonly reconciles: number;
    /** Writes by the operator's ServiceAccount from the first create until all Ready, by `verb resource`. */
    readonly apiserverWrites: Readonly<Record<string, number>>;
    /** (KafkaTopic creates + the operator's writes) / allReadySeconds: the write rate the apiserver sustained. */
    readonly apiserverWritesPerSecond: number;
  };
  readonly steadyState: {
    readonly windowSeconds: number;
    readonly startedSecondsAfterReady: number;
    /** Every write by the operator's ServiceAccount in the window. */
    readonly apiserverWrites: number;
    readonly writesByVerb: Readonly<Record<string, number>>;
    /** Of those, the writes to the benchmark's namespace and KafkaConnection (others are other sessions' connections). */
    readonly writesOfBenchObjects: number;
    readonly topicReconciles: number;
    readonly adminRequests: number;
  };
  readonly verdicts: { readonly ratio: 'met' | 'missed'; readonly steadyStateWrites: 'met' | 'missed' };
}


/** Admin requests per API between two `/metrics` scrapes, and per topic. Pure. */
export function adminRequestsBetween(before: string, after: string, topics: number): AdminRequests {
  const apis = new Set<string>();
  for (const match of after.matchAll(/^kafka_operator_admin_requests_total\{api="([^"]+)"\}/gm)) apis.add(match[1] ?? '');
  const byApi: Record<string, number> = {};
  let total = 0;
  for (const api of [...apis].sort()) {
    const count = metricSum(after, 'kafka_operator_admin_requests_total', { api }) - metricSum(before, 'kafka_operator_admin_requests_total', { api });
    if (count === 0) continue;
    byApi[api] = count;
    total += count;
  }
  return { total, perTopic: Math.round((total / topics) * 1000) / 1000, byApi };
}


const fixed = (n: number, digits = 2): string => n.toFixed(digits);

/** The printed report (what the README shows). Pure. */
export function formatReport(r: KafkaBenchReport): string {
  const o = r.operator;
  const s = r.steadyState;
  return [
    `kafka operator benchmark — ${r.startedAt}`,
    `machine: ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB; load average before ${r.machine.loadBefore.map((l) => fixed(l)).join(' ')}, after ${r.machine.loadAfter.map((l) => fixed(l)).join(' ')}`,
    `node ${r.versions.node}, Kafka ${r.versions.kafka} (one KRaft node), kube-apiserver ${r.versions.kubernetes}`,
    '',
    `${r.topics} topics, ${r.partitionsPerTopic} partitions each, RF 1, one config override`,
    `floor: CreateTopics in batches of ${r.floor.batchSize}, all batches in flight: ${r.floor.rounds.map((x) => fixed(x)).join(' / ')} s, median ${fixed(r.floor.medianSeconds)} s`,
    `operator: ${r.topics} KafkaTopics applied at once (creates done after ${fixed(o.applySeconds)} s), all Ready after ${fixed(o.allReadySeconds)} s`,
    `ratio operator / floor: ${fixed(o.ratioToFloor)} (target ≤ ${o.ratioTarget}) ${r.verdicts.ratio}`,
    `admin requests: ${o.adminRequests.total} (${fixed(o.adminRequests.perTopic, 3)} per topic): ${Object.entries(o.adminRequests.byApi).map(([api, n]) => `${api} ${n}`).join(', ')}`,
    `reconciles: ${o.reconciles}; apiserver writes by the operator until all Ready: ${Object.entries(o.apiserverWrites).map(([what, n]) => `${what} ${n}`).join(', ')}`,
    `apiserver write rate sustained (${r.topics} creates + the operator's writes) / ${fixed(o.allReadySeconds)} s: ${fixed(o.apiserverWritesPerSecond, 0)} writes/s`,
    `peak operator RSS (VmHWM): ${fixed(o.peakRssMiB, 1)} MiB`,
    '',
    `steady state: ${s.windowSeconds} s window starting ${s.startedSecondsAfterReady} s after all Ready (it spans the 120 s ± 10 % drift check of every topic)`,
    `  KafkaTopic reconciles in the window: ${s.topicReconciles}; admin requests: ${s.adminRequests}`,
    `  apiserver writes by the operator's ServiceAccount: ${s.apiserverWrites} (target 0) ${r.verdicts.steadyStateWrites}${Object.keys(s.writesByVerb).length > 0 ? ` — ${JSON.stringify(s.writesByVerb)}` : ''}`,
    `  of which to the benchmark's own namespace and KafkaConnection: ${s.writesOfBenchObjects}`,
  ].join('\n');
}
