import { describe, expect, it } from 'vitest';
import type { Condition } from '../core/conditions.ts';
import { kstatusVerdict } from '../testing/kstatus-rules.ts';
import { progressFromReady, reconciling, settled, stalled, withProgress } from './progress.ts';
import { statusChange } from './status.ts';

const NOW = new Date('2026-12-05T12:00:00Z');

function resource(generation: number, status: Record<string, unknown> = {}) {
  return { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', generation }, status };
}

function applied(object: ReturnType<typeof resource>, change: Record<string, unknown> | undefined) {
  return { ...object, status: { ...object.status, ...change } };
}

describe('progress: kstatus conditions in the one status path', () => {
  it('derives Reconciling from a Ready that is not True, and settles once Ready is True', () => {
    expect(progressFromReady([{ type: 'Ready', status: 'False', reason: 'MembersNotReady', message: '1 of 3' }])).toEqual(reconciling('MembersNotReady', '1 of 3'));
    expect(progressFromReady([{ type: 'Ready', status: 'Unknown', reason: 'Checking', message: '' }])).toEqual(reconciling('Checking', ''));
    expect(progressFromReady([{ type: 'Ready', status: 'True', reason: 'Available', message: '' }])).toEqual(settled);
    expect(progressFromReady([{ type: 'Synced', status: 'False', reason: 'Boom', message: '' }])).toBeUndefined();
  });

  it('keeps one of the two at a time, at the given generation, and removes both when settled', () => {
    const stuck = withProgress([], stalled('TenancyViolation', 'not selected'), 3, NOW);
    expect(stuck).toEqual([{ type: 'Stalled', status: 'True', reason: 'TenancyViolation', message: 'not selected', observedGeneration: 3, lastTransitionTime: '2026-12-05T12:00:00Z' }]);
    const working = withProgress(stuck, reconciling('KafkaUnavailable', 'no broker'), 3, NOW);
    expect(working.map((c) => c.type)).toEqual(['Reconciling']);
    expect(withProgress(working, settled, 3, NOW)).toEqual([]);
    const none: readonly Condition[] = [];
    expect(withProgress(none, settled, 3, NOW)).toBe(none);
  });

  it('a refusal reads Failed, work in flight InProgress and a Ready object Current, generation by generation', () => {
    const fresh = resource(1);
    const refused = applied(fresh, statusChange(fresh, { conditions: [{ type: 'Ready', status: 'False', reason: 'TenancyViolation', message: 'no' }], progress: stalled('TenancyViolation', 'no') }, NOW));
    expect(refused.status).toMatchObject({ observedGeneration: 1 });
    expect(kstatusVerdict(refused)).toBe('Failed');

    const fixed = { ...refused, metadata: { ...refused.metadata, generation: 2 } };
    expect(kstatusVerdict(fixed)).toBe('InProgress');
    const working = applied(fixed, statusChange(fixed, { conditions: [{ type: 'Ready', status: 'False', reason: 'MembersNotReady', message: '1 of 3' }] }, NOW));
    expect(kstatusVerdict(working)).toBe('InProgress');
    const ready = applied(working, statusChange(working, { conditions: [{ type: 'Ready', status: 'True', reason: 'Available', message: '' }] }, NOW));
    expect(kstatusVerdict(ready)).toBe('Current');
    expect((ready.status as { conditions: Condition[] }).conditions.map((c) => c.type)).toEqual(['Ready']);
  });

  it('a write of fields alone leaves both as they are; a write that does not touch Ready keeps them unless told', () => {
    const stuck = applied(resource(1), statusChange(resource(1), { conditions: [{ type: 'Ready', status: 'False', reason: 'InvalidSpec', message: 'x' }], progress: stalled('InvalidSpec', 'x') }, NOW));
    expect(statusChange(stuck, { fields: { externalName: 'a' } }, NOW)).toEqual({ externalName: 'a' });
    const synced = statusChange(stuck, { conditions: [{ type: 'Synced', status: 'False', reason: 'InvalidSpec', message: 'x' }] }, NOW);
    expect((synced?.['conditions'] as readonly Condition[]).map((c) => c.type)).toEqual(['Ready', 'Stalled', 'Synced']);
  });
});
