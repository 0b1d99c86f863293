import { describe, expect, it } from 'vitest';
import { residentMemory, RSS_GROWTH_TARGET_BYTES, summarizeBackup } from './backup-report.ts';

describe('residentMemory', () => {
  it('reads process_resident_memory_bytes and ignores its HELP, TYPE and look-alike lines', () => {
    const text = ['# HELP process_resident_memory_bytes Resident memory size in bytes.', '# TYPE process_resident_memory_bytes gauge', 'process_resident_memory_bytes_max 1', 'process_resident_memory_bytes 123456789', ''].join('\n');
    expect(residentMemory(text)).toBe(123456789);
  });

  it('is undefined when the metric is absent', () => {
    expect(residentMemory('process_cpu_seconds_total 3\n')).toBeUndefined();
  });
});

describe('summarizeBackup', () => {
  const floor = [1, 2, 3].map((s) => ({ rdbMs: 0, uploadMs: 0, totalMs: s * 1000, sizeBytes: 1 }));

  it('gives the median ratio and the largest RSS growth, met within the targets', () => {
    const operator = [
      { totalMs: 2200, sizeBytes: 1, rssBaselineBytes: 100, rssPeakBytes: 150, rssSamples: 3 },
      { totalMs: 2400, sizeBytes: 1, rssBaselineBytes: 100, rssPeakBytes: 90, rssSamples: 3 },
    ];
    const s = summarizeBackup(floor, operator);
    expect(s.medians).toEqual({ floorMs: 2000, operatorMs: 2300, ratio: 1.15, rssGrowthBytes: 50 });
    expect(s.verdicts).toEqual({ ratio: 'met', rssGrowth: 'met' });
  });

  it('misses a target above it, and knows nothing without runs', () => {
    const operator = [{ totalMs: 3000, sizeBytes: 1, rssBaselineBytes: 0, rssPeakBytes: RSS_GROWTH_TARGET_BYTES + 1, rssSamples: 1 }];
    expect(summarizeBackup(floor, operator).verdicts).toEqual({ ratio: 'missed', rssGrowth: 'missed' });
    expect(summarizeBackup([], []).verdicts).toEqual({ ratio: 'unknown', rssGrowth: 'unknown' });
  });
});
