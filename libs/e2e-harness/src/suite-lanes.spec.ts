import { describe, expect, it } from 'vitest';
import { laneOf, planSuites } from './suite-lanes.ts';
import type { SuiteProject } from './suite-lanes.ts';

const project = (name: string, tags: string[], targets: string[]): SuiteProject => ({ name, tags, targets });

describe('planSuites', () => {
  it('runs untagged projects alone first and each lane in order, every integration step before any e2e step', () => {
    const plan = planSuites([
      project('e2e-kafka', ['type:e2e', 'lane:kafka'], ['lint', 'e2e']),
      project('testenv', ['type:lib'], ['test', 'integration']),
      project('kafka-operator', ['lane:kafka'], ['e2e', 'integration', 'build']),
      project('charts', [], ['integration']),
      project('reconcile', ['lane:runtime'], ['integration']),
    ]);
    expect(plan.alone).toEqual([
      { project: 'charts', target: 'integration' },
      { project: 'testenv', target: 'integration' },
    ]);
    expect(plan.lanes).toEqual([
      {
        name: 'kafka',
        steps: [
          { project: 'kafka-operator', target: 'integration' },
          { project: 'e2e-kafka', target: 'e2e' },
          { project: 'kafka-operator', target: 'e2e' },
        ],
      },
      { name: 'runtime', steps: [{ project: 'reconcile', target: 'integration' }] },
    ]);
  });

  it('leaves out projects without a suite target, even when they name a lane', () => {
    const plan = planSuites([project('shipping', ['lane:x'], ['lint', 'test'])]);
    expect(plan).toEqual({ alone: [], lanes: [] });
  });
});

describe('laneOf', () => {
  it('reads the lane tag, or none', () => {
    expect(laneOf(project('a', ['type:app', 'lane:redis'], []))).toBe('redis');
    expect(laneOf(project('b', ['scope:redis'], []))).toBeUndefined();
  });

  it('refuses two lanes or an empty one', () => {
    expect(() => laneOf(project('a', ['lane:redis', 'lane:kafka'], []))).toThrow('project a names 2 lanes (redis, kafka)');
    expect(() => laneOf(project('b', ['lane:'], []))).toThrow('empty lane tag');
  });
});
