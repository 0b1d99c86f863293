import { describe, expect, it } from 'vitest';
import { CREATION_MARK_KEY, creationMarkOf, withCreationMark, withoutCreationMark } from './creation-mark.ts';

describe('the creation mark', () => {
  const mark = { uid: 'uid-1', aliases: ['team-a-logs'] };

  it('is added to the mappings’ _meta beside the spec’s own keys, and read back', () => {
    const marked = withCreationMark({ properties: { a: { type: 'keyword' } }, _meta: { owner: 'team-a' } }, mark);
    expect(marked).toEqual({ properties: { a: { type: 'keyword' } }, _meta: { owner: 'team-a', [CREATION_MARK_KEY]: { uid: 'uid-1', aliases: ['team-a-logs'] } } });
    expect(creationMarkOf(marked)).toEqual(mark);
    expect(withCreationMark(undefined, mark)).toEqual({ _meta: { [CREATION_MARK_KEY]: { uid: 'uid-1', aliases: ['team-a-logs'] } } });
  });

  it('is left out for planning, taking _meta with it when it was all of it', () => {
    expect(withoutCreationMark(withCreationMark({ _meta: { owner: 'team-a' } }, mark))).toEqual({ _meta: { owner: 'team-a' } });
    expect(withoutCreationMark(withCreationMark({ dynamic: 'strict' }, mark))).toEqual({ dynamic: 'strict' });
    const unmarked = { _meta: { owner: 'x' } };
    expect(withoutCreationMark(unmarked)).toBe(unmarked);
  });

  it('is absent from an index without one, or with something else under the key', () => {
    expect(creationMarkOf({})).toBeUndefined();
    expect(creationMarkOf({ _meta: { [CREATION_MARK_KEY]: 'someone' } })).toBeUndefined();
    expect(creationMarkOf({ _meta: { [CREATION_MARK_KEY]: { uid: '' } } })).toBeUndefined();
  });
});
