import { describe, expect, it } from 'vitest';
import type { Condition } from './conditions.ts';
import {
  conditionsEqual,
  getCondition,
  isFalse,
  isReasonValue,
  isTrue,
  MAX_CONDITION_MESSAGE_LENGTH,
  removeCondition,
  rfc3339,
  setCondition,
} from './conditions.ts';

const t0 = new Date('2026-11-30T10:00:00.123Z');
const t1 = new Date('2026-11-30T11:00:00.999Z');

describe('setCondition', () => {
  it('appends a new condition with lastTransitionTime = now in RFC 3339 seconds', () => {
    const next = setCondition(undefined, { type: 'Ready', status: 'False', reason: 'Creating', message: 'creating topic', observedGeneration: 1 }, t0);
    expect(next).toEqual([{ type: 'Ready', status: 'False', reason: 'Creating', message: 'creating topic', lastTransitionTime: '2026-11-30T10:00:00Z', observedGeneration: 1 }]);
  });

  it('keeps lastTransitionTime when the status is unchanged but replaces reason, message and observedGeneration', () => {
    const first = setCondition([], { type: 'Ready', status: 'False', reason: 'Creating', message: 'a', observedGeneration: 1 }, t0);
    const second = setCondition(first, { type: 'Ready', status: 'False', reason: 'BrokerDown', message: 'b', observedGeneration: 2 }, t1);
    expect(second).toEqual([{ type: 'Ready', status: 'False', reason: 'BrokerDown', message: 'b', lastTransitionTime: '2026-11-30T10:00:00Z', observedGeneration: 2 }]);
  });

  it('moves lastTransitionTime when the status changes', () => {
    const first = setCondition([], { type: 'Ready', status: 'False', reason: 'Creating', message: '' }, t0);
    const second = setCondition(first, { type: 'Ready', status: 'True', reason: 'Created', message: '' }, t1);
    expect(second[0]?.lastTransitionTime).toBe('2026-11-30T11:00:00Z');
  });

  it('returns the same array when nothing changed, and never mutates its input', () => {
    const first = setCondition([], { type: 'Ready', status: 'True', reason: 'Created', message: 'ok', observedGeneration: 3 }, t0);
    const frozen = Object.freeze([...first]);
    expect(setCondition(frozen, { type: 'Ready', status: 'True', reason: 'Created', message: 'ok', observedGeneration: 3 }, t1)).toBe(frozen);
    const changed = setCondition(frozen, { type: 'Ready', status: 'True', reason: 'Created', message: 'ok', observedGeneration: 4 }, t1);
    expect(changed).not.toBe(frozen);
    expect(frozen[0]?.observedGeneration).toBe(3);
  });

  it('keeps the position of an existing condition among others', () => {
    let list = setCondition([], { type: 'Ready', status: 'True', reason: 'Created', message: '' }, t0);
    list = setCondition(list, { type: 'Synced', status: 'True', reason: 'Applied', message: '' }, t0);
    list = setCondition(list, { type: 'Ready', status: 'False', reason: 'Broken', message: '' }, t1);
    expect(list.map((c) => c.type)).toEqual(['Ready', 'Synced']);
  });

  it('refuses reasons and types that are not CamelCase, and cuts over-long messages', () => {
    expect(() => setCondition([], { type: 'Ready', status: 'True', reason: 'not camel', message: '' }, t0)).toThrow(RangeError);
    expect(() => setCondition([], { type: 'ready-now', status: 'True', reason: 'Ok', message: '' }, t0)).toThrow(RangeError);
    const long = setCondition([], { type: 'Ready', status: 'True', reason: 'Ok', message: 'x'.repeat(40_000) }, t0);
    expect(long[0]?.message).toHaveLength(MAX_CONDITION_MESSAGE_LENGTH);
  });
});

describe('condition helpers', () => {
  const list: Condition[] = [
    { type: 'Ready', status: 'True', reason: 'Created', message: '', lastTransitionTime: '2026-11-30T10:00:00Z', observedGeneration: 1 },
    { type: 'Synced', status: 'False', reason: 'BrokerDown', message: 'x', lastTransitionTime: '2026-11-30T10:00:00Z' },
  ];

  it('getCondition, isTrue and isFalse read by type; a missing condition is neither true nor false', () => {
    expect(getCondition(list, 'Synced')?.reason).toBe('BrokerDown');
    expect(isTrue(list, 'Ready')).toBe(true);
    expect(isFalse(list, 'Synced')).toBe(true);
    expect(isTrue(list, 'Missing')).toBe(false);
    expect(isFalse(undefined, 'Missing')).toBe(false);
  });

  it('removeCondition drops one type and returns the same array when absent', () => {
    expect(removeCondition(list, 'Synced').map((c) => c.type)).toEqual(['Ready']);
    expect(removeCondition(list, 'Missing')).toBe(list);
  });

  it('conditionsEqual ignores order and nothing else', () => {
    const [ready, synced] = list as [Condition, Condition];
    expect(conditionsEqual(list, [synced, ready])).toBe(true);
    expect(conditionsEqual(undefined, [])).toBe(true);
    expect(conditionsEqual(list, [ready])).toBe(false);
    expect(conditionsEqual(list, [ready, { ...synced, lastTransitionTime: '2026-11-30T10:00:01Z' }])).toBe(false);
    expect(conditionsEqual(list, [{ ...ready, observedGeneration: 2 }, synced])).toBe(false);
    expect(conditionsEqual([ready, ready], [ready, synced])).toBe(false);
  });

  it('isReasonValue and rfc3339 follow the Kubernetes formats', () => {
    expect(isReasonValue('ReconcileError')).toBe(true);
    expect(isReasonValue('Reconcile_Error')).toBe(false);
    expect(isReasonValue('')).toBe(false);
    expect(rfc3339(t0)).toBe('2026-11-30T10:00:00Z');
  });
});
