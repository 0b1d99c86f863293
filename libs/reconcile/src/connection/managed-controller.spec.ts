import { describe, expect, it } from 'vitest';
import { workersFor } from './managed-controller.ts';

describe('workersFor', () => {
  it('takes the shared setting, raised to minWorkers', () => {
    expect(workersFor(4, {})).toBe(4);
    expect(workersFor(1, { minWorkers: 16 })).toBe(16);
    expect(workersFor(32, { minWorkers: 16 })).toBe(32);
  });

  it('caps it at maxWorkers (role bindings stay serial whatever maxConcurrentReconciles says)', () => {
    expect(workersFor(8, { maxWorkers: 1 })).toBe(1);
    expect(workersFor(1, { maxWorkers: 1 })).toBe(1);
  });
});
