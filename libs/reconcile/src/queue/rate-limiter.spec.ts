import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
} from './rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';

function delays<K>(limiter: RateLimiter<K>, key: K, times: number): number[] {
  return Array.from({ length: times }, () => limiter.when(key));
}

describe('ItemExponentialRateLimiter', () => {
  it('doubles from 5 ms per key', () => {
    const limiter = new ItemExponentialRateLimiter<string>();
    expect(delays(limiter, 'a', 8)).toEqual([5, 10, 20, 40, 80, 160, 320, 640]);
    expect(limiter.numRequeues('a')).toBe(8);
    expect(limiter.when('b')).toBe(5); // keys are independent
    expect(limiter.numRequeues('b')).toBe(1);
  });

  it('caps at 1000 s and never overflows', () => {
    const limiter = new ItemExponentialRateLimiter<string>();
    const all = delays(limiter, 'a', 2_000);
    // 5 · 2^17 = 655.36 s is the last delay under the cap; 5 · 2^18 would be 1310.72 s.
    expect(all[17]).toBe(655_360);
    expect(all[18]).toBe(1_000_000);
    expect(all.at(-1)).toBe(1_000_000);
    expect(all.every(Number.isFinite)).toBe(true);
  });

  it('starts again from the base delay after forget', () => {
    const limiter = new ItemExponentialRateLimiter<string>();
    delays(limiter, 'a', 5);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    expect(delays(limiter, 'a', 3)).toEqual([5, 10, 20]);
  });

  it('honours custom base and cap, and rejects a cap below the base', () => {
    const limiter = new ItemExponentialRateLimiter<string>({ baseDelayMs: 100, maxDelayMs: 500 });
    expect(delays(limiter, 'a', 5)).toEqual([100, 200, 400, 500, 500]);
    expect(() => new ItemExponentialRateLimiter({ baseDelayMs: 10, maxDelayMs: 5 })).toThrow(RangeError);
  });
});

describe('ItemFastSlowRateLimiter', () => {
  it('gives the fast delay for the first attempts, then the slow one, until forgotten', () => {
    const limiter = new ItemFastSlowRateLimiter<string>({ fastDelayMs: 5, slowDelayMs: 10_000, maxFastAttempts: 3 });
    expect(delays(limiter, 'a', 5)).toEqual([5, 5, 5, 10_000, 10_000]);
    expect(limiter.numRequeues('a')).toBe(5);
    limiter.forget('a');
    expect(limiter.when('a')).toBe(5);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst of 100 through, then spaces keys 100 ms apart at 10 qps', () => {
    const clock = new VirtualClock();
    const limiter = new BucketRateLimiter<string>({ clock });
    const burst = Array.from({ length: 100 }, (_, i) => limiter.when(`k${i}`));
    expect(burst.every((delay) => delay === 0)).toBe(true);
    // Reservations at the same instant queue up behind each other.
    expect(delays(limiter, 'x', 3)).toEqual([100, 200, 300]);
  });

  it('refills at qps as time passes, up to the burst', async () => {
    const clock = new VirtualClock();
    const limiter = new BucketRateLimiter<string>({ clock, qps: 10, burst: 2 });
    expect(delays(limiter, 'a', 3)).toEqual([0, 0, 100]);
    await clock.advance(100); // pays the debt: the bucket is at 0
    expect(limiter.when('a')).toBe(100);
    await clock.advance(100);
    expect(limiter.when('a')).toBe(100); // steady state: one every 100 ms
    await clock.advance(10_000); // a long pause refills only to the burst
    expect(delays(limiter, 'a', 3)).toEqual([0, 0, 100]);
  });

  it('keeps no per-key state', () => {
    const limiter = new BucketRateLimiter<string>({ clock: new VirtualClock() });
    limiter.when('a');
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    expect(() => new BucketRateLimiter({ clock: new VirtualClock(), qps: 0 })).toThrow(RangeError);
  });
});

describe('MaxOfRateLimiter', () => {
  it('returns the longest delay, forgets in all, and reports the largest requeue count', () => {
    const fastSlow = new ItemFastSlowRateLimiter<string>({ fastDelayMs: 7, slowDelayMs: 1_000, maxFastAttempts: 4 });
    const exponential = new ItemExponentialRateLimiter<string>();
    const limiter = new MaxOfRateLimiter<string>(fastSlow, exponential);
    // max(7, 5), max(7, 10), max(7, 20), max(7, 40), max(1000, 80)
    expect(delays(limiter, 'a', 5)).toEqual([7, 10, 20, 40, 1_000]);
    expect(limiter.numRequeues('a')).toBe(5);
    limiter.forget('a');
    expect(fastSlow.numRequeues('a')).toBe(0);
    expect(exponential.numRequeues('a')).toBe(0);
    expect(limiter.when('a')).toBe(7);
  });

  it('reports the max of differing counts', () => {
    const a = new ItemExponentialRateLimiter<string>();
    const b = new ItemExponentialRateLimiter<string>();
    b.when('k');
    b.when('k');
    expect(new MaxOfRateLimiter(a, b).numRequeues('k')).toBe(2);
    expect(() => new MaxOfRateLimiter()).toThrow(RangeError);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('backs off per key from 5 ms and is bounded overall by the 10 qps bucket after a burst of 100', () => {
    const clock = new VirtualClock();
    const limiter = defaultControllerRateLimiter<string>(clock);
    expect(delays(limiter, 'a', 4)).toEqual([5, 10, 20, 40]);
    expect(limiter.numRequeues('a')).toBe(4);
    // 4 tokens used; 96 more distinct first failures still pass on the bucket and get the 5 ms backoff.
    for (let i = 0; i < 96; i++) expect(limiter.when(`k${i}`)).toBe(5);
    expect(limiter.when('late')).toBe(100); // bucket empty: 100 ms beats 5 ms
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
  });
});
