import { describe, expect, it } from 'vitest';
import { WatchBackoff } from './watch-backoff.ts';

describe('WatchBackoff', () => {
  it('doubles from 800 ms and caps at 30 s', () => {
    const backoff = new WatchBackoff(() => 0.5);
    const delays = Array.from({ length: 9 }, (_, i) => backoff.fail(i * 1000));
    expect(delays).toEqual([800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000, 30_000]);
  });

  it('spreads each delay over ±jitter', () => {
    expect(new WatchBackoff(() => 0).fail(0)).toBe(640);
    expect(new WatchBackoff(() => 0.999_999).fail(0)).toBeCloseTo(960, 2);
    expect(new WatchBackoff(() => 0, { jitter: 0 }).fail(0)).toBe(800);
  });

  it('starts a new streak after 2 minutes without failures', () => {
    const backoff = new WatchBackoff(() => 0.5);
    backoff.fail(0);
    backoff.fail(1_000);
    expect(backoff.failures(1_000)).toBe(2);
    expect(backoff.fail(120_999)).toBe(3200);
    expect(backoff.failures(240_998)).toBe(3);
    expect(backoff.failures(240_999)).toBe(0);
    expect(backoff.fail(240_999)).toBe(800);
  });
});
