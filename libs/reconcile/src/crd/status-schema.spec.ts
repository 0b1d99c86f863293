import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { MAX_CONDITION_MESSAGE_LENGTH } from '../core/conditions.ts';
import { conditionsField, ConditionSchema, externalResourceStatusFields } from './status-schema.ts';

// TypeBox checks only formats it was given; the apiserver checks date-time itself (RFC 3339).
FormatRegistry.Set('date-time', (v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}T/.test(v));

const condition = { type: 'Ready', status: 'True', reason: 'Available', message: '', lastTransitionTime: '2026-12-06T04:00:00Z', observedGeneration: 3 };

describe('ConditionSchema', () => {
  it('takes a condition as the runtime writes it, and refuses a status outside True/False/Unknown', () => {
    expect(Value.Check(ConditionSchema, condition)).toBe(true);
    expect(Value.Check(ConditionSchema, { ...condition, status: 'Yes' })).toBe(false);
    expect(Value.Check(ConditionSchema, { ...condition, observedGeneration: -1 })).toBe(false);
    expect(Value.Check(ConditionSchema, { ...condition, lastTransitionTime: 'yesterday' })).toBe(false);
  });

  it("holds the apiserver's limits: type 316, reason 1024, message as long as the runtime cuts it", () => {
    expect(Value.Check(ConditionSchema, { ...condition, message: 'm'.repeat(MAX_CONDITION_MESSAGE_LENGTH) })).toBe(true);
    expect(Value.Check(ConditionSchema, { ...condition, message: 'm'.repeat(MAX_CONDITION_MESSAGE_LENGTH + 1) })).toBe(false);
    expect(Value.Check(ConditionSchema, { ...condition, type: 'T'.repeat(317) })).toBe(false);
    expect(Value.Check(ConditionSchema, { ...condition, reason: 'R'.repeat(1025) })).toBe(false);
  });
});

describe('conditionsField', () => {
  it('is a map list keyed by type with the given description', () => {
    const field = conditionsField('What the operator saw.');
    expect(field).toMatchObject({ type: 'array', description: 'What the operator saw.', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
    expect(Value.Check(field, [condition, { ...condition, type: 'Synced' }])).toBe(true);
  });
});

describe('externalResourceStatusFields', () => {
  it('has the fields the external-resource reconciler writes, all optional, ownership one of three', () => {
    const fields = externalResourceStatusFields({ conditions: 'c', externalName: 'e' });
    expect(Object.keys(fields).sort()).toEqual(['conditions', 'externalName', 'observedGeneration', 'ownership']);
    expect(fields.externalName.description).toBe('e');
    expect(fields.conditions.description).toBe('c');
    expect(Value.Check(fields.ownership, 'Adopted')).toBe(true);
    expect(Value.Check(fields.ownership, 'Stolen')).toBe(false);
  });
});
