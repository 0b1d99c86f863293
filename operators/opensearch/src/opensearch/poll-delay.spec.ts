import { describe, expect, it } from 'vitest';
import { youngPollDelay } from './poll-delay.ts';

describe('youngPollDelay', () => {
  const bounds = { firstMs: 100, maxMs: 2_000 };

  it('is a tenth of the age between the bounds', () => {
    expect(youngPollDelay(0, bounds)).toBe(100);
    expect(youngPollDelay(5_004, bounds)).toBe(500);
    expect(youngPollDelay(60_000, bounds)).toBe(2_000);
  });

  it('is the longest delay when the age is unknown', () => {
    expect(youngPollDelay(Number.NaN, bounds)).toBe(2_000);
  });
});
