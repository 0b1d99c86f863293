// The backup benchmark's report (issue #17): its JSON shape, the pure helpers that compute it, and its printed form.
import { median } from '@domain-operators/e2e-harness';

/** One floor run: `redis-cli --rdb` to a file, then that file uploaded with the operator's S3 upload settings. */
export interface FloorRun {
  readonly rdbMs: number;
  readonly uploadMs: number;
  readonly totalMs: number;
  readonly sizeBytes: number;
}

/** One backup through the operator: RedisBackup created → phase Succeeded, and its Pod's RSS meanwhile. */
export interface OperatorRun {
  readonly totalMs: number;
  readonly sizeBytes: number;
  /** RSS (bytes) before the RedisBackup was created: the median of the samples of the last seconds before it. */
  readonly rssBaselineBytes: number;
  /** The largest RSS sample between the create and Succeeded. */
  readonly rssPeakBytes: number;
  readonly rssSamples: number;
}

/** The whole report. */
export interface BackupBenchReport {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly memoryGiB: number; readonly loadBefore: readonly number[]; readonly loadAfter: readonly number[] };
  readonly settings: { readonly datasetBytes: number; readonly partSizeBytes: number; readonly partsInFlight: number; readonly redisCli: string; readonly source: string };
  readonly floor: readonly FloorRun[];
  readonly operator: readonly OperatorRun[];
  readonly medians: { readonly floorMs: number | null; readonly operatorMs: number | null; readonly ratio: number | null; readonly rssGrowthBytes: number | null };
  readonly targets: { readonly ratio: 1.25; readonly rssGrowthBytes: number };
  readonly verdicts: { readonly ratio: 'met' | 'missed' | 'unknown'; readonly rssGrowth: 'met' | 'missed' | 'unknown' };
}

/** The RSS growth target: 64 MiB. */
export const RSS_GROWTH_TARGET_BYTES = 64 * 1024 * 1024;
/** The time target: the operator's backup at most 1.25 × the floor. */
export const RATIO_TARGET = 1.25;

/** The value of `process_resident_memory_bytes` in a Prometheus text exposition; `undefined` when absent. Pure. */
export function residentMemory(metrics: string): number | undefined {
  const line = metrics.split('\n').find((l) => /^process_resident_memory_bytes(\{[^}]*\})? /.test(l));
  const value = line === undefined ? Number.NaN : Number(line.trim().split(/\s+/).pop());
  return Number.isFinite(value) ? value : undefined;
}

/** Medians, ratio and the largest RSS growth (peak − baseline) over the runs, with the verdicts. Pure. */
export function summarizeBackup(floor: readonly FloorRun[], operator: readonly OperatorRun[]): Pick<BackupBenchReport, 'medians' | 'targets' | 'verdicts'> {
  const floorMs = floor.length === 0 ? null : median(floor.map((r) => r.totalMs));
  const operatorMs = operator.length === 0 ? null : median(operator.map((r) => r.totalMs));
  const ratio = floorMs === null || operatorMs === null || floorMs === 0 ? null : Math.round((operatorMs / floorMs) * 100) / 100;
  const growths = operator.map((r) => Math.max(0, r.rssPeakBytes - r.rssBaselineBytes));
  const rssGrowthBytes = growths.length === 0 ? null : Math.max(...growths);
  return {
    medians: { floorMs, operatorMs, ratio, rssGrowthBytes },
    targets: { ratio: RATIO_TARGET, rssGrowthBytes: RSS_GROWTH_TARGET_BYTES },
    verdicts: {
      ratio: ratio === null ? 'unknown' : ratio <= RATIO_TARGET ? 'met' : 'missed',
      rssGrowth: rssGrowthBytes === null ? 'unknown' : rssGrowthBytes <= RSS_GROWTH_TARGET_BYTES ? 'met' : 'missed',
    },
  };
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const secs = (ms: number | null): string => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);

/** The printed report. Pure. */
export function formatBackupReport(r: BackupBenchReport): string {
  const lines = [
    `Redis backup benchmark, ${r.startedAt} (${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB; load ${r.machine.loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${r.machine.loadAfter.map((l) => l.toFixed(2)).join(' ')} after)`,
    `dataset ${mib(r.settings.datasetBytes)} of values; snapshot from ${r.settings.source}; parts ${mib(r.settings.partSizeBytes)} × ${r.settings.partsInFlight} in flight; floor: ${r.settings.redisCli}`,
    ...r.floor.map((f, i) => `floor #${i + 1}: redis-cli --rdb ${secs(f.rdbMs)} + upload ${secs(f.uploadMs)} = ${secs(f.totalMs)} (${mib(f.sizeBytes)})`),
    ...r.operator.map((o, i) => `operator #${i + 1}: RedisBackup created → Succeeded ${secs(o.totalMs)} (${mib(o.sizeBytes)}); RSS ${mib(o.rssBaselineBytes)} → peak ${mib(o.rssPeakBytes)} (+${mib(Math.max(0, o.rssPeakBytes - o.rssBaselineBytes))}, ${o.rssSamples} samples)`),
    `median: floor ${secs(r.medians.floorMs)}, operator ${secs(r.medians.operatorMs)}, ratio ${r.medians.ratio ?? '—'} (target ≤ ${r.targets.ratio}: ${r.verdicts.ratio}); largest RSS growth ${r.medians.rssGrowthBytes === null ? '—' : mib(r.medians.rssGrowthBytes)} (target ≤ ${mib(r.targets.rssGrowthBytes)}: ${r.verdicts.rssGrowth})`,
  ];
  return lines.join('\n');
}
