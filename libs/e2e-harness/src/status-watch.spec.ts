import { describe, expect, it } from 'vitest';
import type { WatchedVersion } from './status-watch.ts';
import { generationLies } from './status-watch.ts';

function version(observedGeneration: number | undefined, conditions: WatchedVersion['conditions']): WatchedVersion {
  return { name: 'orders', namespace: 'team-a', resourceVersion: '7', generation: 2, observedGeneration, conditions };
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
