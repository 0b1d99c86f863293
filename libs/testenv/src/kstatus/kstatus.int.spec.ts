import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kstatus } from './kstatus.ts';

function widget(name: string, generation: number, status: Record<string, unknown>, deleting = false): KubernetesObject {
  return {
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'team-a', generation, ...(deleting && { deletionTimestamp: new Date('2026-12-05T12:00:00Z') }) },
    status,
  } as KubernetesObject;
}

const condition = (type: string, status: string, reason: string): Record<string, string> => ({ type, status, reason, message: `${type} ${reason}`, lastTransitionTime: '2026-12-05T12:00:00Z' });

describe('kstatus (the real cli-utils library, built from the Go module proxy)', () => {
  it('reads our conditions as Flux and kpt do', async () => {
    const results = await kstatus([
      widget('behind', 2, { observedGeneration: 1, conditions: [condition('Ready', 'True', 'Available')] }),
      widget('stalled', 2, { observedGeneration: 2, conditions: [condition('Ready', 'False', 'TenancyViolation'), condition('Stalled', 'True', 'TenancyViolation')] }),
      widget('reconciling', 2, { observedGeneration: 2, conditions: [condition('Ready', 'False', 'MembersNotReady'), condition('Reconciling', 'True', 'MembersNotReady')] }),
      widget('ready', 2, { observedGeneration: 2, conditions: [condition('Ready', 'True', 'Available')] }),
      widget('deleting', 2, { observedGeneration: 2, conditions: [condition('Ready', 'True', 'Available')] }, true),
      widget('refused-before-this-change', 1, { observedGeneration: 1, conditions: [condition('Ready', 'False', 'TenancyViolation')] }),
    ]);
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['behind', 'InProgress'],
      ['stalled', 'Failed'],
      ['reconciling', 'InProgress'],
      ['ready', 'Current'],
      ['deleting', 'Terminating'],
      // Ready=False alone, at the current generation: kstatus waits (what Flux did on our refusals before Stalled).
      ['refused-before-this-change', 'InProgress'],
    ]);
    expect(results[1]).toMatchObject({ namespace: 'team-a', kind: 'Widget', message: 'Stalled TenancyViolation' });
  }, 300_000);
});
