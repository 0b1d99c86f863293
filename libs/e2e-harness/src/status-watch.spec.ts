import { describe, expect, it } from 'vitest';
import type { WatchedVersion } from './status-watch.ts';
import { caughtUp, generationLies, readyAtItsGeneration } from './status-watch.ts';

function version(observedGeneration: number | undefined, conditions: WatchedVersion['conditions']): WatchedVersion {
  const object = { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'orders', namespace: 'team-a', resourceVersion: '7', generation: 2 }, status: { observedGeneration, conditions } };
  return { name: 'orders', namespace: 'team-a', resourceVersion: '7', generation: 2, observedGeneration, conditions, object };
}

describe('generationLies', () => {
  it('accepts versions whose conditions all carry observedGeneration, and versions before any status', () => {
    expect(
      generationLies([
        version(undefined, []),
        version(1, [{ type: 'Ready', status: 'True', observedGeneration: 1 }]),
        // Conditions ahead of observedGeneration are honest: the new generation is being worked on.
        version(1, [{ type: 'Synced', status: 'False', observedGeneration: 2 }, { type: 'Ready', status: 'True', observedGeneration: 1 }]),
        version(2, [{ type: 'Synced', status: 'True', observedGeneration: 2 }, { type: 'Ready', status: 'True', observedGeneration: 2 }]),
      ]),
    ).toEqual([]);
  });

  it('names each version where observedGeneration runs ahead of a condition', () => {
    expect(
      generationLies([
        version(2, [{ type: 'Synced', status: 'True', observedGeneration: 2 }, { type: 'Ready', status: 'True', observedGeneration: 1 }]),
        version(2, [{ type: 'Ready', status: 'True' }]),
      ]),
    ).toEqual([
      'team-a/orders at resourceVersion 7: observedGeneration 2 but Ready=True describes generation 1',
      'team-a/orders at resourceVersion 7: observedGeneration 2 but Ready=True describes generation (none)',
    ]);
  });
});

describe('readyAtItsGeneration', () => {
  it('is Ready=True with Ready and observedGeneration both at the generation, nothing less', () => {
    expect(readyAtItsGeneration(version(2, [{ type: 'Ready', status: 'True', observedGeneration: 2 }]))).toBe(true);
    expect(readyAtItsGeneration(version(1, [{ type: 'Ready', status: 'True', observedGeneration: 1 }]))).toBe(false);
    expect(readyAtItsGeneration(version(2, [{ type: 'Ready', status: 'False', observedGeneration: 2 }]))).toBe(false);
    expect(readyAtItsGeneration(version(undefined, []))).toBe(false);
  });
});

describe('caughtUp', () => {
  const seen = (name: string, resourceVersion: string, namespace = 'team-a'): WatchedVersion => ({ name, namespace, resourceVersion, generation: 1, observedGeneration: 1, conditions: [], object: { metadata: { name, namespace, resourceVersion } } });
  const listed = (name: string, resourceVersion: string, namespace = 'team-a') => ({ metadata: { name, namespace, resourceVersion } });

  it('is true once every listed object was seen at its listed resourceVersion or later, compared as integers', () => {
    expect(caughtUp([seen('a', '9'), seen('a', '10'), seen('b', '12')], [listed('a', '10'), listed('b', '11')])).toBe(true);
    expect(caughtUp([], [])).toBe(true);
  });

  it('is false while an object lags behind, or was seen only in another namespace', () => {
    expect(caughtUp([seen('a', '9')], [listed('a', '10')])).toBe(false);
    expect(caughtUp([seen('a', '10', 'team-b')], [listed('a', '10')])).toBe(false);
  });
});
