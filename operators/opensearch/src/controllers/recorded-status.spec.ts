import { describe, expect, it } from 'vitest';
import { recordedStatus, recordedStrings } from './recorded-status.ts';

const object = (status: unknown) => ({ apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, status });

describe('recordedStatus', () => {
  it('reads a top-level status field, undefined without status or field', () => {
    expect(recordedStatus(object({ uuid: 'u-1' }), 'uuid')).toBe('u-1');
    expect(recordedStatus(object(undefined), 'uuid')).toBeUndefined();
    expect(recordedStatus(object('nonsense'), 'uuid')).toBeUndefined();
    expect(recordedStatus(object({}), 'uuid')).toBeUndefined();
  });

  it('reads a list of strings, dropping what is not a string', () => {
    expect(recordedStrings(object({ aliases: ['a', 1, 'b'] }), 'aliases')).toEqual(['a', 'b']);
    expect(recordedStrings(object({ aliases: 'a' }), 'aliases')).toEqual([]);
    expect(recordedStrings(object({}), 'aliases')).toEqual([]);
  });
});
