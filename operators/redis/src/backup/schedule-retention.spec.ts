import { describe, expect, it } from 'vitest';
import type { ScheduledBackup } from './schedule-retention.ts';
import { parseRetentionAge, retentionVictims } from './schedule-retention.ts';

const NOW = new Date('2026-12-01T12:00:00Z');

/** A backup `minutesAgo` old (its slot) in `phase`, named by its age. */
function b(minutesAgo: number, phase: NonNullable<ScheduledBackup['phase']> | 'none' = 'Succeeded'): ScheduledBackup {
  return { name: `b${minutesAgo}`, uid: `u${minutesAgo}`, slot: new Date(NOW.getTime() - minutesAgo * 60_000), phase: phase === 'none' ? undefined : phase };
}

const names = (victims: readonly ScheduledBackup[]): string[] => victims.map((v) => v.name);

describe('retention of a schedule', () => {
  it('deletes nothing without rules', () => {
    expect(retentionVictims([b(1), b(2), b(3)], {}, NOW)).toEqual([]);
  });

  it('keeps the newest maxCount successes and deletes the older ones, oldest first', () => {
    expect(names(retentionVictims([b(2), b(1), b(4), b(3)], { maxCount: 2 }, NOW))).toEqual(['b4', 'b3']);
    expect(retentionVictims([b(1), b(2)], { maxCount: 2 }, NOW)).toEqual([]);
  });

  it('never deletes a Pending or Running backup, or one with no phase yet', () => {
    const all = [b(1, 'Running'), b(2), b(3, 'Pending'), b(4), b(5, 'none'), b(6)];
    expect(names(retentionVictims(all, { maxCount: 1 }, NOW))).toEqual(['b6', 'b4']);
    expect(names(retentionVictims(all, { maxAgeMs: 60_000 }, NOW))).toEqual(['b6', 'b4']);
  });

  it('does not let failures push good backups out: failures since the newest success count apart', () => {
    const all = [b(1, 'Failed'), b(2, 'Failed'), b(3, 'Failed'), b(4), b(5), b(6, 'Failed')];
    // Two successes kept; the newest two failures kept; the third failure and the one before a success go.
    expect(names(retentionVictims(all, { maxCount: 2 }, NOW))).toEqual(['b6', 'b3']);
  });

  it('deletes by age, but keeps the newest success however old, and the newest backup of any phase', () => {
    const all = [b(10, 'Failed'), b(20, 'Failed'), b(30), b(40), b(50, 'Failed')];
    expect(names(retentionVictims(all, { maxAgeMs: 5 * 60_000 }, NOW))).toEqual(['b50', 'b40', 'b20']);
    // Only one backup, too old: it is the newest, kept.
    expect(retentionVictims([b(100, 'Failed')], { maxAgeMs: 60_000 }, NOW)).toEqual([]);
  });

  it('combines the rules: a backup goes when either says so', () => {
    const all = [b(1), b(2), b(3), b(90)];
    expect(names(retentionVictims(all, { maxCount: 3, maxAgeMs: 60 * 60_000 }, NOW))).toEqual(['b90']);
    expect(names(retentionVictims(all, { maxCount: 1, maxAgeMs: 60 * 60_000 }, NOW))).toEqual(['b90', 'b3', 'b2']);
  });
});

describe('retention ages', () => {
  it('read minutes, hours, days and weeks', () => {
    expect(parseRetentionAge('90m')).toBe(90 * 60_000);
    expect(parseRetentionAge('12h')).toBe(12 * 3_600_000);
    expect(parseRetentionAge('7d')).toBe(7 * 86_400_000);
    expect(parseRetentionAge('2w')).toBe(14 * 86_400_000);
  });

  it('refuse anything else', () => {
    for (const text of ['', '0d', '7', 'd', '1.5d', '7s', '-1d', '1d2h', '1234567d']) expect(parseRetentionAge(text)).toBeUndefined();
  });
});
