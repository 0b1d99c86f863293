import { describe, expect, it } from 'vitest';
import { schedulingDecision } from './scheduler.ts';

const labels = { 'kubernetes.io/hostname': 'testenv-node', 'kubernetes.io/os': 'linux' };

describe('schedulingDecision', () => {
  it('binds unbound pods of the default scheduler', () => {
    expect(schedulingDecision({ metadata: { name: 'p' }, spec: { containers: [] } }, labels)).toBe('bind');
    expect(schedulingDecision({ spec: { containers: [], schedulerName: 'default-scheduler', nodeSelector: { 'kubernetes.io/os': 'linux' } } }, labels)).toBe('bind');
  });

  it('ignores bound, deleted, finished and foreign-scheduler pods', () => {
    expect(schedulingDecision({ spec: { containers: [], nodeName: 'x' } }, labels)).toBe('ignore');
    expect(schedulingDecision({ metadata: { deletionTimestamp: new Date() }, spec: { containers: [] } }, labels)).toBe('ignore');
    expect(schedulingDecision({ spec: { containers: [], schedulerName: 'other' } }, labels)).toBe('ignore');
    expect(schedulingDecision({ spec: { containers: [] }, status: { phase: 'Failed' } }, labels)).toBe('ignore');
  });

  it('refuses pods whose nodeSelector does not match', () => {
    expect(schedulingDecision({ spec: { containers: [], nodeSelector: { disk: 'ssd' } } }, labels)).toBe('unschedulable');
  });
});
