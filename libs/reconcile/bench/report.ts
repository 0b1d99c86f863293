import { PROFILE_INTERVAL_US } from './sync-profile.ts';
import type { SyncProfile } from './sync-profile.ts';
import type { PriorityBenchmarkResult } from './priority-latency.ts';

/** What one informer measurement prints, from `informer-peer.ts` or the Go `informer-bench` (same fields). */
export interface PeerResult {
  /** From starting the informer to the first full list being in its cache. */
  readonly syncMs: number;
  /** Live heap after sync minus live heap before start, each read after two forced full collections. */
  readonly heapBytes: number;
  /** Objects in the cache after sync (the seeded ConfigMaps plus `kube-root-ca.crt`). */
  readonly objects: number;
  readonly bytesPerObject: number;
  /** Ours only: the sync's start and end in monotonic microseconds, to cut a CPU profile of the run to the sync. */
  readonly windowUs?: readonly [number, number];
}

/** The median of `values` (mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A target a ratio is held against, and whether it was met. */
export interface Verdict {
  readonly ratio: number;
  /** Human-readable target, e.g. `≥ 0.5`. */
  readonly target: string;
  readonly met: boolean;
}

/** Checks `ratio` against `bound`: `min` means ratio ≥ bound, `max` ratio ≤ bound, `below` ratio < bound. */
export function verdict(ratio: number, kind: 'min' | 'max' | 'below', bound: number): Verdict {
  const met = kind === 'min' ? ratio >= bound : kind === 'max' ? ratio <= bound : ratio < bound;
  return { ratio, target: `${kind === 'min' ? '≥' : kind === 'max' ? '≤' : '<'} ${bound}`, met };
}

/** Work queue throughput at one worker count: the rounds of both sides and their medians. */
export interface QueueRow {
  readonly workers: number;
  readonly oursOpsPerSecond: readonly number[];
  readonly clientGoOpsPerSecond: readonly number[];
  readonly oursMedian: number;
  readonly clientGoMedian: number;
  /** ours / client-go; target ≥ 1.0. */
  readonly throughput: Verdict;
}

/** The names of the informer peers, as they appear in the report. */
export type PeerName = 'ours' | 'ours (watch-list)' | 'client-node' | 'client-go' | 'client-go (strip managedFields)';

/** One peer at one size: every repetition and the medians. */
export interface PeerSummary {
  readonly peer: PeerName;
  readonly runs: readonly PeerResult[];
  readonly syncMs: number;
  readonly heapBytes: number;
  readonly objects: number;
  /** Median heap delta over objects. */
  readonly bytesPerObject: number;
}

/** The informer comparison for one namespace size. */
export interface InformerRow {
  readonly namespace: string;
  readonly seeded: number;
  readonly peers: readonly PeerSummary[];
  /** Our sync time / client-go's; target ≤ 1.0 at 10,000 objects, ≤ 1.5 at 1,000. */
  readonly syncVsClientGo: Verdict;
  /** Our bytes per object / client-node's; target < 1. */
  readonly memoryVsClientNode: Verdict;
  /** Our bytes per object / client-go's (no transform); target ≤ 0.60 at 10,000 objects, < 1 at 1,000. */
  readonly memoryVsClientGo: Verdict;
}

/** Everything one benchmark run measured; also written as JSON. */
export interface BenchReport {
  readonly date: string;
  readonly machine: {
    readonly cpus: number;
    readonly cpuModel: string;
    readonly memoryGiB: number;
    readonly loadAverageBefore: readonly number[];
    readonly loadAverageAfter: readonly number[];
  };
  readonly versions: { readonly node: string; readonly go: string; readonly kubernetes: string };
  readonly queue: { readonly items: number; readonly duplicateRatio: number; readonly rounds: number; readonly rows: readonly QueueRow[] };
  /** Each run of priority.bench.ts, both modes (absent in reports written before it existed). */
  readonly priorityQueue?: { readonly rounds: number; readonly runs: readonly PriorityBenchmarkResult[] };
  readonly informer: { readonly repetitions: number; readonly rows: readonly InformerRow[] };
  /** One extra, profiled sync of ours per namespace: where its time went. */
  readonly profiles: readonly SyncProfile[];
  /** Every verdict in one list, with a label, for a quick look. */
  readonly targets: readonly (Verdict & { readonly name: string })[];
}

/** Pads a table: the first column left-aligned, the others right-aligned. */
function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd());
}

const int = (value: number): string => Math.round(value).toLocaleString('en-US');
const fixed = (value: number, digits: number): string => value.toFixed(digits);
const mark = (verdict: Verdict): string => `${fixed(verdict.ratio, 2)} (${verdict.target}) ${verdict.met ? 'met' : 'MISSED'}`;

/** The readable form of a report, as printed by the benchmark. */
export function formatReport(report: BenchReport): string {
  const { machine, versions, queue, informer } = report;
  const load = (values: readonly number[]): string => values.map((v) => v.toFixed(2)).join(' ');
  const lines: string[] = [
    `reconcile benchmark — ${report.date}`,
    `machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${fixed(machine.memoryGiB, 0)} GiB; load average before ${load(machine.loadAverageBefore)}, after ${load(machine.loadAverageAfter)}`,
    `node ${versions.node}, ${versions.go}, kube-apiserver ${versions.kubernetes}`,
    '',
    `Work queue: ${int(queue.items)} adds (${fixed(queue.duplicateRatio * 100, 0)} % repeats), get + done per key; median of ${queue.rounds} rounds after a warm-up round`,
    ...table([
      ['workers', 'ours ops/s', 'client-go ops/s', 'ours / client-go'],
      ...queue.rows.map((row) => [String(row.workers), int(row.oursMedian), int(row.clientGoMedian), mark(row.throughput)]),
    ]),
    '',
    `Informer: list + watch the ConfigMaps of one namespace (~2 KB each) until synced; median of ${informer.repetitions} fresh processes each`,
    'ours: the default informer (its first list paginated, resourceVersion "0"); "ours (watch-list)": initialList "watchList", for reference',
    ...table([
      ['namespace', 'peer', 'objects', 'sync ms', 'heap MiB', 'bytes/object'],
      ...informer.rows.flatMap((row) =>
        row.peers.map((peer) => [row.namespace, peer.peer, int(peer.objects), fixed(peer.syncMs, 0), fixed(peer.heapBytes / 2 ** 20, 1), int(peer.bytesPerObject)]),
      ),
    ]),
    '',
    ...table([
      ['namespace', 'sync ours / client-go', 'bytes/object ours / client-node', 'bytes/object ours / client-go'],
      ...informer.rows.map((row) => [row.namespace, mark(row.syncVsClientGo), mark(row.memoryVsClientNode), mark(row.memoryVsClientGo)]),
    ]),
    '',
    `Where our sync goes: one more run of ours per namespace under node --cpu-prof (${PROFILE_INTERVAL_US} µs samples), the samples of its`,
    'sync window by phase (a sample counts for the innermost frame that names a phase; "network wait" is the event loop idle,',
    'waiting for the apiserver); the profiler slows the run somewhat',
    ...report.profiles.flatMap((profile) => [
      `${profile.namespace}: ${fixed(profile.result.syncMs, 0)} ms profiled sync (${fixed(profile.breakdown.sampledMs, 0)} ms sampled), ${int(profile.result.objects)} objects`,
      ...table([
        ['  phase', 'ms', 'share'],
        ...profile.breakdown.phases.filter((phase) => phase.ms > 0).map((phase) => [`  ${phase.phase}`, fixed(phase.ms, 1), `${fixed(phase.share * 100, 1)} %`]),
      ]),
      `  hottest functions (self time): ${profile.top.map((entry) => `${entry.name} ${fixed(entry.ms, 1)} ms`).join('; ')}`,
    ]),
    '',
    `targets: ${report.targets.filter((t) => t.met).length} of ${report.targets.length} met${report.targets.some((t) => !t.met) ? `; missed: ${report.targets.filter((t) => !t.met).map((t) => t.name).join(', ')}` : ''}`,
  ];
  return lines.join('\n');
}
