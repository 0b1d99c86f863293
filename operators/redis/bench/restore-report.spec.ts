import { describe, expect, it } from 'vitest';
import { formatRestoreReport, previousRestoreRun, summarizeRestore } from './restore-report.ts';
import type { RestoreBenchReport, RestoreOperatorRun } from './restore-report.ts';

const floor = [4, 5, 6].map((s) => ({ downloadMs: 0, loadMs: 0, totalMs: s * 1000, sizeBytes: 1, cpuMs: s * 1400, backgroundCores: 0.1, verifyCpuMs: 500 }));
const run = (readyMs: number): RestoreOperatorRun => ({ restoredFromMs: readyMs / 2, readyMs, restoredKeys: 7, restoreContainer: { startedAfterS: 1, ranS: 3 }, timeline: [{ atMs: 120, state: 'Ready=False/Restoring' }], cpuMs: readyMs * 1.8 });

describe('summarizeRestore', () => {
  it('compares the median create → Ready with the median floor', () => {
    const s = summarizeRestore(floor, [run(6000), run(7000), run(8000)], { members: 3, cpus: 2 });
    expect(s.medians).toEqual({ floorMs: 5000, operatorMs: 7000, ratio: 1.4 });
    expect(s.verdicts.ratio).toBe('met');
  });

  it('bounds a restore by every member needing the floor’s CPU time, spread over the CPUs, and never below the floor', () => {
    // The floor's median: 5 s wall, 7 s CPU of which 0.5 s background (0.1 CPUs × 5 s): 6.5 s. Three members on 2
    // CPUs: 3 × 6.5 / 2 = 9.75 s, 1.95 × the floor.
    // With each member's SHA-256 check (0.5 s CPU): 3 × 7 / 2 = 10.5 s, 2.1 ×.
    expect(summarizeRestore(floor, [run(7000)], { members: 3, cpus: 2 }).bound).toEqual({ ms: 9750, ratio: 1.95, verifiedMs: 10_500, verifiedRatio: 2.1 });
    expect(summarizeRestore(floor, [run(7000)], { members: 3, cpus: 2 }).cpu).toEqual({ floorMs: 7000, floorNetMs: 6500, operatorMs: 12600 });
    // One member on 8 CPUs: the floor itself.
    expect(summarizeRestore(floor, [run(7000)], { members: 1, cpus: 8 }).bound).toEqual({ ms: 5000, ratio: 1, verifiedMs: 5000, verifiedRatio: 1 });
    expect(summarizeRestore([], [], { members: 3, cpus: 2 }).bound).toEqual({ ms: null, ratio: null, verifiedMs: null, verifiedRatio: null });
  });

  it('misses the target above 1.5 ×, and knows nothing without runs', () => {
    expect(summarizeRestore(floor, [run(7600)], { members: 3, cpus: 2 }).verdicts.ratio).toBe('missed');
    expect(summarizeRestore([], [], { members: 3, cpus: 2 }).verdicts.ratio).toBe('unknown');
  });
});

describe('formatRestoreReport', () => {
  it('prints every run with its timeline and the verdict', () => {
    const operator = [run(9000)];
    const report: RestoreBenchReport = {
      startedAt: '2026-12-02T01:00:00.000Z',
      machine: { cpus: 2, cpuModel: 'cpu', memoryGiB: 24, loadBefore: [1, 2, 3], loadAfter: [1, 2, 3] },
      settings: { datasetBytes: 2 ** 29, keys: 7, members: 3, redisServer: 'host', backupMs: 10_000, objectBytes: 2 ** 29 },
      floor,
      operator,
      ...summarizeRestore(floor, operator, { members: 3, cpus: 2 }),
    };
    const text = formatRestoreReport(report);
    expect(text).toContain('operator #1: created → restoredFrom 4.50 s, → all members Ready 9.00 s; restoredKeys 7');
    expect(text).toContain('     0.12 s  Ready=False/Restoring');
    expect(text).toContain('ratio 1.8 (target ≤ 1.5: missed)');
    expect(text).toContain('machine CPU, median: floor 7.00 s (6.50 s without the background), restore 16.20 s; bound for 3 members on 2 CPUs');
    expect(text).toContain(": 9.75 s, ratio 1.95; with each member's SHA-256 check: 10.50 s, ratio 2.1");
    expect(text).not.toContain('previous run');
    const previous = previousRestoreRun({ ...report, startedAt: '2026-12-01T01:00:00.000Z', medians: { floorMs: 5110, operatorMs: 65510, ratio: 12.82 } });
    expect(formatRestoreReport({ ...report, ...(previous !== undefined && { previous }) })).toContain('previous run 2026-12-01T01:00:00.000Z: floor 5.11 s, operator 65.51 s, ratio 12.82');
  });
});

describe('previousRestoreRun', () => {
  it('keeps the start and medians of an earlier report, and nothing of anything else', () => {
    expect(previousRestoreRun({ startedAt: 'x', medians: { floorMs: 1, operatorMs: null, ratio: null }, floor: [] })).toEqual({ startedAt: 'x', medians: { floorMs: 1, operatorMs: null, ratio: null } });
    expect(previousRestoreRun(undefined)).toBeUndefined();
    expect(previousRestoreRun({ startedAt: 'x' })).toBeUndefined();
    expect(previousRestoreRun('text')).toBeUndefined();
  });
});
