import { describe, expect, it } from 'vitest';
import { nameBatches } from './name-batches.ts';

describe('nameBatches', () => {
  it('keeps names in order, in as few groups as fit the limit (commas counted)', () => {
    expect(nameBatches(['aaa', 'bbb', 'ccc'], 7)).toEqual([['aaa', 'bbb'], ['ccc']]);
    expect(nameBatches(['aaa', 'bbb', 'ccc'], 11)).toEqual([['aaa', 'bbb', 'ccc']]);
  });

  it('counts the URL-encoded length, and gives an over-long name a group of its own', () => {
    expect(nameBatches(['a b', 'c'], 4)).toEqual([['a b'], ['c']]);
    expect(nameBatches(['x'.repeat(10), 'y'], 5)).toEqual([['x'.repeat(10)], ['y']]);
  });

  it('gives no groups for no names, and one group for 50 restore targets at the default limit', () => {
    expect(nameBatches([])).toEqual([]);
    expect(nameBatches(Array.from({ length: 50 }, (_, i) => `team-a-restored-logs-${i}`))).toHaveLength(1);
  });
});
