import { describe, expect, it } from 'vitest';
import { formatRestoreReport, previousRestoreRun, summarizeRestore } from './restore-report.ts';
import type { RestoreBenchReport, RestoreOperatorRun } from './restore-report.ts';

const floor = [4, 5, 6].map((s) => ({ downloadMs: 0, loadMs: 0, totalMs: s * 1000, sizeBytes: 1 }));
const run = (readyMs: number): RestoreOperatorRun => ({ restoredFromMs: readyMs / 2, readyMs, restoredKeys: 7, restoreContainer: { startedAfterS: 1, ranS: 3 }, timeline: [{ atMs: 120, state: 'Ready=False/Restoring' }] });

describe('summarizeRestore', () => {
  it('compares the median create → Ready with the median floor', () => {
    const s = summarizeRestore(floor, [run(6000), run(7000), run(8000)]);
    expect(s.medians).toEqual({ floorMs: 5000, operatorMs: 7000, ratio: 1.4 });
    expect(s.verdicts.ratio).toBe('met');
  });

  it('misses the target above 1.5 ×, and knows nothing without runs', () => {
    expect(summarizeRestore(floor, [run(7600)]).verdicts.ratio).toBe('missed');
    expect(summarizeRestore([], []).verdicts.ratio).toBe('unknown');
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
      ...summarizeRestore(floor, operator),
    };
    const text = formatRestoreReport(report);
    expect(text).toContain('operator #1: created → restoredFrom 4.50 s, → all members Ready 9.00 s; restoredKeys 7');
    expect(text).toContain('     0.12 s  Ready=False/Restoring');
    expect(text).toContain('ratio 1.8 (target ≤ 1.5: missed)');
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
