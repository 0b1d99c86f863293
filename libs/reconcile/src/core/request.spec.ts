import { describe, expect, it } from 'vitest';
import { objectKey, parseRequestKey, requestFor, requestKey } from './request.ts';
import { Result } from './result.ts';

describe('requests', () => {
  it('key namespaced and cluster-scoped objects and parse them back', () => {
    expect(requestKey({ namespace: 'ns', name: 'a' })).toBe('ns/a');
    expect(requestKey({ namespace: undefined, name: 'conn' })).toBe('conn');
    expect(parseRequestKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(parseRequestKey('conn')).toEqual({ namespace: undefined, name: 'conn' });
    expect(objectKey({ metadata: { name: 'a', namespace: 'ns' } })).toBe('ns/a');
  });

  it('refuse an object without a name', () => {
    expect(() => requestFor({ metadata: {} })).toThrow(/no metadata.name/);
  });
});

describe('Result', () => {
  it('has named constructors and refuses a negative delay', () => {
    expect(Result.done()).toEqual({ kind: 'done' });
    expect(Result.requeueAfter(500)).toEqual({ kind: 'requeueAfter', delayMs: 500 });
    expect(() => Result.requeueAfter(-1)).toThrow(RangeError);
    expect(() => Result.requeueAfter(Number.NaN)).toThrow(RangeError);
  });
});
