// The kafka operator benchmark's report: its JSON shape, the pure helpers that compute it, and its printed form.
import { counterIncrease, median } from '@domain-operators/e2e-harness';
export { median, metricSum } from '@domain-operators/e2e-harness';

/** Prometheus-text figures of the operator between two scrapes. */
export interface AdminRequests {
  readonly total: number;
  readonly perTopic: number;
  readonly byApi: Readonly<Record<string, number>>;
}

/** Rounds of one apiserver floor, in seconds, and the operator's time over their median. */
export interface ApiserverFloor {
  readonly rounds: readonly number[];
  readonly medianSeconds: number;
  readonly ratio: number;
  /** CPU seconds per process in a round (median of each). */
  readonly cpuSeconds: Readonly<Record<string, number>>;
}

/** The whole benchmark result, written to `.reports/bench/kafka-operator.json`. */
export interface KafkaBenchReport {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly memoryGiB: number; readonly loadBefore: readonly number[]; readonly loadAfter: readonly number[] };
  readonly versions: { readonly node: string; readonly kafka: string; readonly kubernetes: string };
  readonly topics: number;
  readonly partitionsPerTopic: number;
  /**
   * `rounds`: seconds until every CreateTopics answer is back. The broker then goes on creating the partitions' logs:
   * `kafkaBusySeconds` is the time from the first request until it is idle again and `kafkaCpuSeconds` its CPU in that
   * time (medians).
   */
  readonly floor: {
    readonly batchSize: number;
    readonly rounds: readonly number[];
    readonly medianSeconds: number;
    readonly kafkaCpuSeconds: number;
    readonly kafkaBusySeconds: number;
  };
  /**
   * The Kubernetes work alone: the same KafkaTopics created and given their Ready status by a bare client, `inFlight`
   * at a time, with one status write per topic or two (the operator's claim, then Ready); `ratio` is the operator's
   * all-Ready time over the round's median.
   */
  readonly apiserverFloor: {
    readonly inFlight: number;
    readonly oneStatusWrite: ApiserverFloor;
    readonly twoStatusWrites: ApiserverFloor;
    /**
     * Both systems' unavoidable work on the same cores, with no operator: the creates, CreateTopics in batches (all
     * in flight) and one Ready write per topic once its CreateTopics answer is back. What bounds the one-write ratio.
     */
    readonly withKafka: ApiserverFloor;
  };
  readonly operator: {
    readonly applySeconds: number;
    readonly allReadySeconds: number;
    readonly ratioToFloor: number;
    readonly ratioTarget: number;
    readonly adminRequests: AdminRequests;
    readonly peakRssMiB: number;
    /** `VmRSS` of the operator at the end of the steady-state window. */
    readonly steadyRssMiB: number;
    /** `nodejs_heap_size_used_bytes` on the operator's `/metrics` at the end of the steady-state window, in MiB. */
    readonly steadyHeapUsedMiB: number;
    readonly reconciles: number;
    /** The operator's CPU milliseconds until all Ready over its KafkaTopic reconciles (the burst's cost per reconcile). */
    readonly cpuMsPerReconcile: number;
    /** The Events in the benchmark's namespace at the end of the steady state (bursts fold into summaries). */
    readonly events: EventFigures;
    /** Writes by the operator's ServiceAccount from the first create until all Ready, by `verb resource`. */
    readonly apiserverWrites: Readonly<Record<string, number>>;
    /** `patch kafkatopics/status` until all Ready, per topic (target ≤ 1.05: one status write per topic). */
    readonly statusWritesPerTopic: number;
    /** Writes by the operator's ServiceAccount from all Ready until the steady-state window (the Events that trail). */
    readonly apiserverWritesAfterReady: Readonly<Record<string, number>>;
    /** (KafkaTopic creates + the operator's writes) / allReadySeconds: the write rate the apiserver sustained. */
    readonly apiserverWritesPerSecond: number;
    /** CPU seconds each process used from the first create until all Ready (`/proc/<pid>/stat`). */
    readonly cpuSeconds: Readonly<Record<string, number>>;
    /** The broker's CPU seconds from the first create until it was idle again (it finishes partitions after Ready). */
    readonly kafkaCpuSecondsUntilIdle: number;
    /** Seconds from the first create until the broker was idle again. */
    readonly kafkaBusySeconds: number;
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
    /** The operator's CPU seconds in the window, and per reconcile (a drift check): flat when the cost per topic is. */
    readonly operatorCpuSeconds: number;
    readonly cpuMsPerReconcile: number;
    readonly adminRequests: number;
  };
  /** With BENCH_HEAP_SNAPSHOT=1: the operator's heap at the end of the steady state, by constructor (shallow sizes). */
  readonly heap?:
    | {
        readonly totalMiB: number;
        readonly nodes: number;
        readonly top: readonly { readonly name: string; readonly count: number; readonly selfMiB: number }[];
        readonly retainers: readonly { readonly name: string; readonly retainedMiB: number }[];
      }
    | { readonly error: string };
  readonly verdicts: {
    readonly ratio: 'met' | 'missed';
    readonly steadyStateWrites: 'met' | 'missed';
    /** All Ready ≤ 1.3 × the apiserver floor with one status write per topic. */
    readonly ratioToOneWriteFloor: 'met' | 'missed';
    /** Status writes until all Ready ≤ 1.05 per topic. */
    readonly statusWritesPerTopic: 'met' | 'missed';
  };
}

/** Events by reason: Event objects, and the occurrences they stand for (`series.count`, 1 without a series). */
export interface EventFigures {
  readonly objects: number;
  readonly occurrences: number;
  readonly byReason: Readonly<Record<string, { readonly objects: number; readonly occurrences: number }>>;
}

/** Counts `events` by reason, with the occurrences each stands for. Pure. */
export function eventFigures(events: readonly { readonly reason?: string; readonly series?: { readonly count: number } }[]): EventFigures {
  const byReason: Record<string, { objects: number; occurrences: number }> = {};
  for (const event of events) {
    const row = (byReason[event.reason ?? '?'] ??= { objects: 0, occurrences: 0 });
    row.objects++;
    row.occurrences += event.series?.count ?? 1;
  }
  const rows = Object.values(byReason);
  return { objects: events.length, occurrences: rows.reduce((sum, row) => sum + row.occurrences, 0), byReason };
}

/** CPU milliseconds per reconcile, to 0.001 ms; NaN when either figure is missing or there was no reconcile. Pure. */
export function perReconcileMs(cpuSeconds: number | undefined, reconciles: number): number {
  if (cpuSeconds === undefined || reconciles <= 0) return Number.NaN;
  return Math.round((cpuSeconds * 1e6) / reconciles) / 1000;
}

/** The target for all Ready over the one-status-write apiserver floor (issue #18). */
export const ONE_WRITE_FLOOR_RATIO_TARGET = 1.3;
/** The target for status writes per topic until all Ready (issue #18). */
export const STATUS_WRITES_PER_TOPIC_TARGET = 1.05;


/** The median of each key over `samples` (keys of the first sample). Pure. Throws on an empty list. */
export function medianEach(samples: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const first = samples[0];
  if (first === undefined) throw new Error('median of nothing');
  return Object.fromEntries(Object.keys(first).map((key) => [key, median(samples.map((sample) => sample[key] ?? Number.NaN))]));
}

/** Admin requests per API between two `/metrics` scrapes, and per topic. Pure. */
export function adminRequestsBetween(before: string, after: string, topics: number): AdminRequests {
  const { total, byLabel } = counterIncrease(before, after, 'kafka_operator_admin_requests_total', 'api');
  return { total, perTopic: Math.round((total / topics) * 1000) / 1000, byApi: { ...byLabel } };
}


const fixed = (n: number, digits = 2): string => n.toFixed(digits);
const cpuList = (cpu: Readonly<Record<string, number>>): string =>
  Object.entries(cpu)
    .map(([what, n]) => `${what} ${fixed(n)}`)
    .join(', ');

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
    `floor: CreateTopics in batches of ${r.floor.batchSize}, all batches in flight: ${r.floor.rounds.map((x) => fixed(x)).join(' / ')} s, median ${fixed(r.floor.medianSeconds)} s; the broker then stays busy creating partitions until ${fixed(r.floor.kafkaBusySeconds)} s (${fixed(r.floor.kafkaCpuSeconds)} CPU s)`,
    `operator: ${r.topics} KafkaTopics applied at once (creates done after ${fixed(o.applySeconds)} s), all Ready after ${fixed(o.allReadySeconds)} s`,
    `ratio operator / floor: ${fixed(o.ratioToFloor)} (target ≤ ${o.ratioTarget}) ${r.verdicts.ratio}`,
    `apiserver floor (${r.topics} KafkaTopic creates + status writes by a bare client, ${r.apiserverFloor.inFlight} topics in flight, no operator, no Kafka):`,
    ...([['1 status write per topic', r.apiserverFloor.oneStatusWrite], ['2 status writes per topic (claim, Ready)', r.apiserverFloor.twoStatusWrites]] as const).map(
      ([what, floor]) =>
        `  ${what}: ${floor.rounds.map((x) => fixed(x)).join(' / ')} s, median ${fixed(floor.medianSeconds)} s; operator / this floor: ${fixed(floor.ratio)}; CPU s ${cpuList(floor.cpuSeconds)}`,
    ),
    `apiserver and Kafka floor (the same creates, CreateTopics in batches of ${r.floor.batchSize} all in flight, 1 status write per topic once its topic exists; no operator): ${r.apiserverFloor.withKafka.rounds.map((x) => fixed(x)).join(' / ')} s, median ${fixed(r.apiserverFloor.withKafka.medianSeconds)} s; operator / this floor: ${fixed(r.apiserverFloor.withKafka.ratio)}; CPU s ${cpuList(r.apiserverFloor.withKafka.cpuSeconds)}`,
    `admin requests: ${o.adminRequests.total} (${fixed(o.adminRequests.perTopic, 3)} per topic): ${Object.entries(o.adminRequests.byApi).map(([api, n]) => `${api} ${n}`).join(', ')}`,
    `operator CPU per KafkaTopic reconcile until all Ready: ${fixed(o.cpuMsPerReconcile, 3)} ms`,
    `Events in the namespace: ${o.events.objects} standing for ${o.events.occurrences} occurrences: ${Object.entries(o.events.byReason).map(([reason, row]) => `${reason} ${row.objects} (${row.occurrences})`).join(', ') || 'none'}`,
    `reconciles: ${o.reconciles}; apiserver writes by the operator until all Ready: ${Object.entries(o.apiserverWrites).map(([what, n]) => `${what} ${n}`).join(', ')}`,
    `status writes per topic until all Ready: ${fixed(o.statusWritesPerTopic, 3)} (target ≤ ${STATUS_WRITES_PER_TOPIC_TARGET}) ${r.verdicts.statusWritesPerTopic}; all Ready / the one-write apiserver floor: ${fixed(r.apiserverFloor.oneStatusWrite.ratio)} (target ≤ ${ONE_WRITE_FLOOR_RATIO_TARGET}) ${r.verdicts.ratioToOneWriteFloor}`,
    `apiserver writes by the operator after all Ready, before the steady-state window: ${Object.entries(o.apiserverWritesAfterReady).map(([what, n]) => `${what} ${n}`).join(', ') || 'none'}`,
    `apiserver write rate sustained (${r.topics} creates + the operator's writes) / ${fixed(o.allReadySeconds)} s: ${fixed(o.apiserverWritesPerSecond, 0)} writes/s`,
    `CPU seconds from the first create until all Ready (${fixed(r.machine.cpus * o.allReadySeconds)} available on ${r.machine.cpus} CPUs): ${cpuList(o.cpuSeconds)}; the broker was idle again after ${fixed(o.kafkaBusySeconds)} s (${fixed(o.kafkaCpuSecondsUntilIdle)} CPU s)`,
    `operator memory: peak RSS (VmHWM) ${fixed(o.peakRssMiB, 1)} MiB; RSS at the end of the steady state ${fixed(o.steadyRssMiB, 1)} MiB, of it V8 heap in use ${fixed(o.steadyHeapUsedMiB, 1)} MiB`,
    '',
    `steady state: ${s.windowSeconds} s window starting ${s.startedSecondsAfterReady} s after all Ready (it spans the 120 s ± 10 % drift check of every topic)`,
    `  KafkaTopic reconciles in the window: ${s.topicReconciles}; admin requests: ${s.adminRequests}; operator CPU ${fixed(s.operatorCpuSeconds)} s, ${fixed(s.cpuMsPerReconcile, 3)} ms per reconcile`,
    `  apiserver writes by the operator's ServiceAccount: ${s.apiserverWrites} (target 0) ${r.verdicts.steadyStateWrites}${Object.keys(s.writesByVerb).length > 0 ? ` — ${JSON.stringify(s.writesByVerb)}` : ''}`,
    `  of which to the benchmark's own namespace and KafkaConnection: ${s.writesOfBenchObjects}`,
    ...heapLines(r.heap),
  ].join('\n');
}

function heapLines(heap: KafkaBenchReport['heap']): string[] {
  if (heap === undefined) return [];
  if ('error' in heap) return ['', `heap snapshot: failed (${heap.error})`];
  return [
    '',
    `heap snapshot at the end of the steady state: ${fixed(heap.totalMiB, 1)} MiB in ${heap.nodes} nodes; largest by shallow size:`,
    ...heap.top.map((row) => `  ${fixed(row.selfMiB, 1).padStart(6)} MiB  ${String(row.count).padStart(8)} × ${row.name}`),
    'largest retainers (retained size: what would be freed with the object; none counted inside another):',
    ...heap.retainers.map((row) => `  ${fixed(row.retainedMiB, 1).padStart(6)} MiB  ${row.name}`),
  ];
}
