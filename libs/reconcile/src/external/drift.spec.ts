import { describe, expect, it } from 'vitest';
import { jittered, parseDuration } from './drift.ts';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5m', 90_000],
    [' 2m ', 120_000],
  ])('parses %j', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '5', '-5m', '0s', '5d', 'm', '5 m', 'soon', '1e3s'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('jittered', () => {
  it('spreads uniformly over ±fraction', () => {
    expect(jittered(600_000, () => 0)).toBe(540_000);
    expect(jittered(600_000, () => 0.5)).toBe(600_000);
    expect(jittered(600_000, () => 0.999_999)).toBe(660_000);
    expect(jittered(1000, () => 0, 0.5)).toBe(500);
  });

  it('never returns a negative delay', () => {
    expect(jittered(1000, () => 0, 2)).toBe(0);
  });
});
