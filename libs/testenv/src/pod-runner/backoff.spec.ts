import { describe, expect, it } from 'vitest';
import { BACKOFF_RESET_AFTER_MS, restartBackoff, restartDelayMs, restartPolicyOf, shouldRestart } from './backoff.ts';

describe('restartDelayMs', () => {
  it('doubles from 1 s and caps at 60 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 100].map(restartDelayMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
  });
});

describe('restartBackoff', () => {
  it('grows on quick exits and resets after a long run', () => {
    expect(restartBackoff(0, 10)).toEqual({ delayMs: 1_000, nextStep: 1 });
    expect(restartBackoff(3, 10)).toEqual({ delayMs: 8_000, nextStep: 4 });
    expect(restartBackoff(3, BACKOFF_RESET_AFTER_MS)).toEqual({ delayMs: 1_000, nextStep: 1 });
  });
});

describe('shouldRestart', () => {
  it('follows the restart policy', () => {
    expect(shouldRestart('Always', 0)).toBe(true);
    expect(shouldRestart('Always', 1)).toBe(true);
    expect(shouldRestart('OnFailure', 0)).toBe(false);
    expect(shouldRestart('OnFailure', 137)).toBe(true);
    expect(shouldRestart('Never', 1)).toBe(false);
  });

  it('defaults to Always', () => {
    expect(restartPolicyOf(undefined)).toBe('Always');
    expect(restartPolicyOf('bogus')).toBe('Always');
    expect(restartPolicyOf('Never')).toBe('Never');
  });
});
