// The restore benchmark's report (issue #17): its JSON shape, the pure helpers that compute it, and its printed form.
import { median } from '@domain-operators/e2e-harness';

/** One floor run: the backup's object downloaded to a file, then a redis-server started on it until it holds every key. */
export interface RestoreFloorRun {
  readonly downloadMs: number;
  /** From spawning redis-server until it answered PING and DBSIZE equal to the dataset's key count. */
  readonly loadMs: number;
  readonly totalMs: number;
  readonly sizeBytes: number;
  /** The machine's busy CPU time over the run, every process included (/proc/stat). */
  readonly cpuMs: number;
  /** CPUs' worth the machine was busy with in the quiet second before the run (control plane, node, operator). */
  readonly backgroundCores: number;
  /**
   * CPU time of the check every restored member must make and the floor does not: the SHA-256 of the downloaded
   * file, read back once the floor is timed, by a fresh Node process streaming it as the agent does (its CPU time).
   */
  readonly verifyCpuMs: number;
}

/** A change of what the benchmark sees of a restoring RedisReplication, at `atMs` after its create. */
export interface Observation {
  readonly atMs: number;
  readonly state: string;
}

/** One restore through the operator: a 3-member RedisReplication created with `spec.restore.backupRef`. */
export interface RestoreOperatorRun {
  /** Created → `status.restoredFrom` set. */
  readonly restoredFromMs: number;
  /** Created → Ready=True for the current generation with `restoredFrom` set and every member Ready. */
  readonly readyMs: number;
  /** The key count the primary reported (`status.restoredKeys`). */
  readonly restoredKeys: number | null;
  /** The restore container of ordinal 0 (kubelet timestamps, whole seconds): Pod created → started, started → exited. */
  readonly restoreContainer: { readonly startedAfterS: number | null; readonly ranS: number | null };
  /** Every change seen, in order (conditions, counts, Pods). */
  readonly timeline: readonly Observation[];
  /** The machine's busy CPU time from the create until Ready, every process included (/proc/stat). */
  readonly cpuMs: number;
}

/** The whole report. */
export interface RestoreBenchReport {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly memoryGiB: number; readonly loadBefore: readonly number[]; readonly loadAfter: readonly number[] };
  readonly settings: { readonly datasetBytes: number; readonly keys: number; readonly members: number; readonly redisServer: string; readonly backupMs: number; readonly objectBytes: number };
  readonly floor: readonly RestoreFloorRun[];
  readonly operator: readonly RestoreOperatorRun[];
  readonly medians: { readonly floorMs: number | null; readonly operatorMs: number | null; readonly ratio: number | null };
  /**
   * Medians of the machine's busy CPU time: one floor run, one restore (both gross), and one floor run less the
   * background measured before it (`floorNetMs`, what the bound uses).
   */
  readonly cpu: { readonly floorMs: number | null; readonly floorNetMs: number | null; readonly operatorMs: number | null };
  /**
   * What this machine allows at best: every member needs the data the floor brings in once, so a restore takes at
   * least `members` × the floor's CPU time spread over every CPU, and never less than the floor itself; `ratio` is
   * that against the floor's median. The floor's CPU time counts without the machine's background. It assumes a
   * member's copy costs no less CPU than the floor's one (ADR 0024, addenda 3 and 4 measured the other way, a
   * resynchronisation from a restored primary, at no less). `verifiedMs` adds each member's SHA-256 check (the
   * floor's `verifyCpuMs`), which the issue requires of a restore.
   */
  readonly bound: { readonly ms: number | null; readonly ratio: number | null; readonly verifiedMs: number | null; readonly verifiedRatio: number | null };
  readonly targets: { readonly ratio: number };
  readonly verdicts: { readonly ratio: 'met' | 'missed' | 'unknown' };
  /** The medians of the report this run replaced (the JSON it overwrote), printed beside its own; absent on a first run. */
  readonly previous?: PreviousRestoreRun;
}

/** What a report keeps of the run before it. */
export interface PreviousRestoreRun {
  readonly startedAt: string;
  readonly medians: RestoreBenchReport['medians'];
}

/**
 * The run an earlier report (the parsed JSON of `.reports/bench/redis-restore.json`, any shape) describes, or undefined
 * when it is not one of these reports. Pure.
 */
export function previousRestoreRun(earlier: unknown): PreviousRestoreRun | undefined {
  if (typeof earlier !== 'object' || earlier === null) return undefined;
  const { startedAt, medians } = earlier as { startedAt?: unknown; medians?: { floorMs?: unknown; operatorMs?: unknown; ratio?: unknown } };
  const figure = (v: unknown): number | null | undefined => (typeof v === 'number' ? v : v === null ? null : undefined);
  const floorMs = figure(medians?.floorMs);
  const operatorMs = figure(medians?.operatorMs);
  const ratio = figure(medians?.ratio);
  if (typeof startedAt !== 'string' || floorMs === undefined || operatorMs === undefined || ratio === undefined) return undefined;
  return { startedAt, medians: { floorMs, operatorMs, ratio } };
}

/** The time target: all members Ready at most 1.5 × the floor. */
export const RESTORE_RATIO_TARGET = 1.5;

const ratioOf = (ms: number | null, floorMs: number | null): number | null => (ms === null || floorMs === null || floorMs === 0 ? null : Math.round((ms / floorMs) * 100) / 100);

/**
 * Medians and the ratio of the operator's create → Ready to the floor's download + load, with the verdict, and the
 * bound the machine sets for `machine.members` members on `machine.cpus` CPUs. Pure.
 */
export function summarizeRestore(
  floor: readonly RestoreFloorRun[],
  operator: readonly RestoreOperatorRun[],
  machine: { readonly members: number; readonly cpus: number },
): Pick<RestoreBenchReport, 'medians' | 'cpu' | 'bound' | 'targets' | 'verdicts'> {
  const floorMs = floor.length === 0 ? null : median(floor.map((r) => r.totalMs));
  const operatorMs = operator.length === 0 ? null : median(operator.map((r) => r.readyMs));
  const ratio = ratioOf(operatorMs, floorMs);
  const floorNetMs = floor.length === 0 ? null : median(floor.map((r) => Math.max(0, r.cpuMs - r.backgroundCores * r.totalMs)));
  const verifyMs = floor.length === 0 ? null : median(floor.map((r) => r.verifyCpuMs));
  const spread = (perMemberMs: number | null): number | null =>
    floorMs === null || perMemberMs === null || machine.cpus === 0 ? null : Math.round(Math.max(floorMs, (machine.members * perMemberMs) / machine.cpus));
  const boundMs = spread(floorNetMs);
  const verifiedMs = spread(floorNetMs === null || verifyMs === null ? null : floorNetMs + verifyMs);
  return {
    medians: { floorMs, operatorMs, ratio },
    cpu: {
      floorMs: floor.length === 0 ? null : median(floor.map((r) => r.cpuMs)),
      floorNetMs: floorNetMs === null ? null : Math.round(floorNetMs),
      operatorMs: operator.length === 0 ? null : median(operator.map((r) => r.cpuMs)),
    },
    bound: { ms: boundMs, ratio: ratioOf(boundMs, floorMs), verifiedMs, verifiedRatio: ratioOf(verifiedMs, floorMs) },
    targets: { ratio: RESTORE_RATIO_TARGET },
    verdicts: { ratio: ratio === null ? 'unknown' : ratio <= RESTORE_RATIO_TARGET ? 'met' : 'missed' },
  };
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const secs = (ms: number | null): string => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);

/** The printed report, with each operator run's timeline. Pure. */
export function formatRestoreReport(r: RestoreBenchReport): string {
  const lines = [
    `Redis restore benchmark, ${r.startedAt} (${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB; load ${r.machine.loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${r.machine.loadAfter.map((l) => l.toFixed(2)).join(' ')} after)`,
    `dataset ${mib(r.settings.datasetBytes)} (${r.settings.keys} keys), object ${mib(r.settings.objectBytes)} (its RedisBackup took ${secs(r.settings.backupMs)}); ${r.settings.members} members; floor: ${r.settings.redisServer}`,
    ...r.floor.map((f, i) => `floor #${i + 1}: download ${secs(f.downloadMs)} + redis-server loaded ${secs(f.loadMs)} = ${secs(f.totalMs)} (${mib(f.sizeBytes)}); machine CPU ${secs(f.cpuMs)}, background before ${f.backgroundCores.toFixed(2)} CPUs; SHA-256 of the file ${secs(f.verifyCpuMs)} CPU`),
    ...r.operator.flatMap((o, i) => [
      `operator #${i + 1}: created → restoredFrom ${secs(o.restoredFromMs)}, → all members Ready ${secs(o.readyMs)}; restoredKeys ${o.restoredKeys ?? '—'}; restore container started ${o.restoreContainer.startedAfterS ?? '—'} s after its Pod, ran ${o.restoreContainer.ranS ?? '—'} s; machine CPU ${secs(o.cpuMs)}`,
      ...o.timeline.map((t) => `    ${secs(t.atMs).padStart(9)}  ${t.state}`),
    ]),
    `median: floor ${secs(r.medians.floorMs)}, operator ${secs(r.medians.operatorMs)}, ratio ${r.medians.ratio ?? '—'} (target ≤ ${r.targets.ratio}: ${r.verdicts.ratio})`,
    `machine CPU, median: floor ${secs(r.cpu.floorMs)} (${secs(r.cpu.floorNetMs)} without the background), restore ${secs(r.cpu.operatorMs)}; bound for ${r.settings.members} members on ${r.machine.cpus} CPUs (${r.settings.members} × the floor's CPU over every CPU, at least the floor): ${secs(r.bound.ms)}, ratio ${r.bound.ratio ?? '—'}; with each member's SHA-256 check: ${secs(r.bound.verifiedMs)}, ratio ${r.bound.verifiedRatio ?? '—'}`,
    ...(r.previous === undefined
      ? []
      : [`previous run ${r.previous.startedAt}: floor ${secs(r.previous.medians.floorMs)}, operator ${secs(r.previous.medians.operatorMs)}, ratio ${r.previous.medians.ratio ?? '—'}`]),
  ];
  return lines.join('\n');
}
