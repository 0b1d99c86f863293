import { describe, expect, it } from 'vitest';
import { READY_CONDITION, SYNCED_CONDITION } from '../core/conditions.ts';
import { conditionColumn } from './condition-column.ts';

describe('conditionColumn', () => {
  it('shows a condition status under its type, and a reason under Reason', () => {
    expect(conditionColumn(READY_CONDITION)).toEqual({ name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' });
    expect(conditionColumn(SYNCED_CONDITION, 'reason', { priority: 1 })).toEqual({
      name: 'Reason',
      type: 'string',
      priority: 1,
      jsonPath: '.status.conditions[?(@.type=="Synced")].reason',
    });
  });

  it('lists its keys as the CRD files do and takes another header', () => {
    expect(Object.keys(conditionColumn(READY_CONDITION, 'message', { name: 'Why', priority: 1 }))).toEqual(['name', 'type', 'priority', 'jsonPath']);
    expect(conditionColumn(READY_CONDITION, 'message', { name: 'Why' }).name).toBe('Why');
  });
});
