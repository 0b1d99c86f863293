// The snapshot benchmark's report: its JSON shape, the medians and ratios it is computed from, and its printed form.
import { median } from '@domain-operators/e2e-harness';

/** One round of one side: seconds from the request until the snapshot is SUCCESS, and until the restore is done. */
export interface SnapshotRound {
  readonly snapshotSeconds: number;
  readonly restoreSeconds: number;
  /** Snapshot and restore together. */
  readonly totalSeconds: number;
}

/** The medians of one side's rounds. */
export interface SnapshotMedians {
  readonly snapshotSeconds: number;
  readonly restoreSeconds: number;
  readonly totalSeconds: number;
}

/** One side: its method, its rounds and their medians. */
export interface SnapshotSide {
  readonly method: string;
  readonly rounds: readonly SnapshotRound[];
  readonly median: SnapshotMedians;
}

/** The whole snapshot benchmark result, written to `.reports/bench/opensearch-snapshots.json`. */
export interface SnapshotBenchReport {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly memoryGiB: number; readonly loadBefore: readonly number[]; readonly loadAfter: readonly number[] };
  readonly versions: { readonly node: string; readonly opensearch: string; readonly kubernetes: string };
  readonly indices: number;
  readonly documents: number;
  /** Bytes of the primary store of the indices, as `_stats` reports them. */
  readonly storeBytes: number;
  readonly ratioTarget: number;
  readonly direct: SnapshotSide;
  /** Absent in a `--direct-only` run. */
  readonly operator?: SnapshotSide;
  /** operator median / direct median; absent without an operator side. */
  readonly ratios?: SnapshotMedians;
}

/** The medians of `rounds`. Pure. */
export function mediansOf(rounds: readonly SnapshotRound[]): SnapshotMedians {
  return {
    snapshotSeconds: median(rounds.map((r) => r.snapshotSeconds)),
    restoreSeconds: median(rounds.map((r) => r.restoreSeconds)),
    totalSeconds: median(rounds.map((r) => r.totalSeconds)),
  };
}

/** operator / direct for each median, to two decimals. Pure. */
export function ratiosOf(operator: SnapshotMedians, direct: SnapshotMedians): SnapshotMedians {
  const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;
  return {
    snapshotSeconds: ratio(operator.snapshotSeconds, direct.snapshotSeconds),
    restoreSeconds: ratio(operator.restoreSeconds, direct.restoreSeconds),
    totalSeconds: ratio(operator.totalSeconds, direct.totalSeconds),
  };
}

const fixed = (n: number, digits = 2): string => n.toFixed(digits);

function sideLines(name: string, side: SnapshotSide): string[] {
  const rounds = (pick: (r: SnapshotRound) => number): string => side.rounds.map((r) => fixed(pick(r))).join(' / ');
  return [
    `${name}: ${side.method}`,
    `  snapshot until SUCCESS: ${rounds((r) => r.snapshotSeconds)} s, median ${fixed(side.median.snapshotSeconds)} s`,
    `  restore until recovered: ${rounds((r) => r.restoreSeconds)} s, median ${fixed(side.median.restoreSeconds)} s`,
    `  both: ${rounds((r) => r.totalSeconds)} s, median ${fixed(side.median.totalSeconds)} s`,
  ];
}

/** The printed report (what the README shows). Pure. */
export function formatSnapshotReport(r: SnapshotBenchReport): string {
  const verdict = r.ratios === undefined ? 'not measured (--direct-only)' : `${fixed(r.ratios.totalSeconds)} (target ≤ ${r.ratioTarget}) ${r.ratios.totalSeconds <= r.ratioTarget ? 'met' : 'missed'}`;
  return [
    `opensearch snapshot benchmark — ${r.startedAt}`,
    `machine: ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB; load average before ${r.machine.loadBefore.map((l) => fixed(l)).join(' ')}, after ${r.machine.loadAfter.map((l) => fixed(l)).join(' ')}`,
    `node ${r.versions.node}, OpenSearch ${r.versions.opensearch} (one node, security plugin), kube-apiserver ${r.versions.kubernetes}`,
    '',
    `${r.indices} indices, ${r.documents} documents, ${fixed(r.storeBytes / 2 ** 20, 1)} MiB of primary store; each round into a new fs repository (a full snapshot, never incremental)`,
    ...sideLines('direct', r.direct),
    ...(r.operator === undefined ? [] : sideLines('operator', r.operator)),
    ...(r.ratios === undefined
      ? []
      : [`ratio operator / direct (medians): snapshot ${fixed(r.ratios.snapshotSeconds)}, restore ${fixed(r.ratios.restoreSeconds)}, both ${fixed(r.ratios.totalSeconds)}`]),
    `verdict: ${verdict}`,
  ].join('\n');
}
