import { describe, expect, it } from 'vitest';
import { describeConditions, eventually, hasCondition } from './wait.ts';
import type { ObjectWithConditions } from './wait.ts';

const at = (generation: number, observedGeneration: number | undefined, status: 'True' | 'False'): ObjectWithConditions => ({
  metadata: { name: 'a', generation },
  status: {
    conditions: [
      { type: 'Ready', status, reason: 'Synced', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z', ...(observedGeneration !== undefined && { observedGeneration }) },
    ],
  },
});

describe('hasCondition', () => {
  it('is true for the status at the current generation', () => {
    expect(hasCondition(at(2, 2, 'True'), 'Ready', 'True')).toBe(true);
  });

  it('ignores a condition computed from an older generation', () => {
    expect(hasCondition(at(3, 2, 'True'), 'Ready', 'True')).toBe(false);
  });

  it('takes a condition without observedGeneration as current', () => {
    expect(hasCondition(at(3, undefined, 'True'), 'Ready', 'True')).toBe(true);
  });

  it('is false for another status or a missing type', () => {
    expect(hasCondition(at(1, 1, 'False'), 'Ready', 'True')).toBe(false);
    expect(hasCondition(at(1, 1, 'True'), 'Synced', 'True')).toBe(false);
  });
});

describe('describeConditions', () => {
  it('lists type, status, reason, generation and message', () => {
    expect(describeConditions(at(1, 1, 'False'))).toBe('Ready=False Synced (gen 1): ok');
    expect(describeConditions(undefined)).toBe('the object does not exist');
    expect(describeConditions({ metadata: { generation: 4 } })).toBe('no conditions (generation 4)');
  });
});

describe('eventually', () => {
  it('resolves with the first defined value', async () => {
    let calls = 0;
    await expect(eventually(() => Promise.resolve(++calls >= 3 ? 'done' : undefined), { timeoutMs: 5_000, intervalMs: 1 })).resolves.toBe('done');
    expect(calls).toBe(3);
  });

  it('rejects after the timeout with the last error', async () => {
    await expect(eventually(() => Promise.reject(new Error('nope')), { timeoutMs: 20, intervalMs: 5, what: 'the thing' })).rejects.toThrow(
      'the thing not met within 20 ms: nope',
    );
  });
});
