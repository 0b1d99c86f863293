import { describe, expect, it } from 'vitest';
import { busyMsOf } from './machine-cpu.ts';

describe('busyMsOf', () => {
  it('sums user, nice, system, irq, softirq and steal over every CPU, leaving idle and iowait out', () => {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const stat = 'cpu  100 2 30 5000 40 5 6 7 0 0\ncpu0 50 1 15 2500 20 2 3 3 0 0\nintr 1 2 3\n';
    expect(busyMsOf(stat)).toBe((100 + 2 + 30 + 5 + 6 + 7) * 10);
  });

  it('refuses text without the aggregate line', () => {
    expect(() => busyMsOf('cpu0 1 2 3 4\n')).toThrow(/no aggregate cpu line/);
  });
});
