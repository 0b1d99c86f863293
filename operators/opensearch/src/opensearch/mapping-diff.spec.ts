import { describe, expect, it } from 'vitest';
import { diffMappings } from './mapping-diff.ts';

// Observed shapes are what OpenSearch 2.19 returns from GET /<index>/_mapping (defaults left out, `dynamic` as a string).
const observed = {
  dynamic: 'false',
  properties: {
    title: { type: 'text', fields: { kw: { type: 'keyword', ignore_above: 256 } } },
    n: { type: 'integer' },
    when: { type: 'date', format: 'yyyy' },
    user: { properties: { name: { type: 'keyword' } } },
    extra: { type: 'long' },
  },
};

describe('diffMappings', () => {
  it('is up to date when the desired mapping restates what exists, defaults included', () => {
    const result = diffMappings(
      {
        dynamic: false,
        _source: { enabled: true },
        properties: {
          title: { type: 'text', analyzer: 'standard', index: true, fields: { kw: { type: 'keyword', ignore_above: 256, norms: false } } },
          n: { type: 'integer', doc_values: true },
          when: { type: 'date', format: 'yyyy' },
          user: { type: 'object', properties: { name: { type: 'keyword' } } },
        },
      },
      observed,
    );
    expect(result).toEqual({ conflicts: [], changes: [], body: undefined });
  });

  it('adds new fields, sub-properties and multi-fields with only those in the body', () => {
    const result = diffMappings(
      {
        properties: {
          title: { type: 'text', fields: { raw: { type: 'keyword' } } },
          user: { properties: { name: { type: 'keyword' }, email: { type: 'keyword' } } },
          tags: { type: 'keyword' },
        },
      },
      observed,
    );
    expect(result.conflicts).toEqual([]);
    expect(result.changes).toEqual(['mappings: add multi-field title.raw (keyword)', 'mappings: add field user.email (keyword)', 'mappings: add field tags (keyword)']);
    expect(result.body).toEqual({
      properties: {
        title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        user: { properties: { email: { type: 'keyword' } } },
        tags: { type: 'keyword' },
      },
    });
  });

  it('updates updatable parameters and root settings, restating the fixed ones', () => {
    const result = diffMappings({ dynamic: 'strict', properties: { title: { type: 'text', search_analyzer: 'english' } } }, observed);
    expect(result.conflicts).toEqual([]);
    expect(result.body).toEqual({ dynamic: 'strict', properties: { title: { type: 'text', search_analyzer: 'english' } } });
    expect(result.changes).toContain('mappings.dynamic: want strict, have false');
  });

  it.each([
    [{ properties: { title: { type: 'keyword' } } }, 'field title cannot change type from text to keyword'],
    [{ properties: { user: { type: 'nested' } } }, 'field user cannot change type from object to nested'],
    [{ properties: { user: { properties: { name: { type: 'text' } } } } }, 'field user.name cannot change type from keyword to text'],
    [{ properties: { title: { type: 'text', analyzer: 'english' } } }, 'field title cannot change analyzer from default to english'],
    [{ properties: { when: { type: 'date' } } }, 'field when cannot change format from yyyy to default'],
    [{ properties: { n: { type: 'integer', index: false } } }, 'field n cannot change index from default to false'],
    [{ properties: { title: { type: 'text', fields: { kw: { type: 'text' } } } } }, 'field title.kw cannot change type from keyword to text'],
    [{ _source: { enabled: false } }, 'mappings._source cannot change'],
  ])('refuses a conflicting change %#', (desired, message) => {
    const result = diffMappings(desired, observed);
    expect(result.conflicts.join('\n')).toContain(message);
    expect(result.body).toBeUndefined();
    expect(result.changes).toEqual([]);
  });

  it('reports every conflict and sends nothing even when other changes are additive', () => {
    const result = diffMappings({ properties: { tags: { type: 'keyword' }, title: { type: 'keyword' }, n: { type: 'long' } } }, observed);
    expect(result.conflicts).toHaveLength(2);
    expect(result.body).toBeUndefined();
  });

  it('leaves mappings alone when the spec has none', () => {
    expect(diffMappings(undefined, observed)).toEqual({ conflicts: [], changes: [], body: undefined });
  });

  it('adds everything to an index without mappings', () => {
    expect(diffMappings({ properties: { a: { type: 'keyword' } } }, {}).body).toEqual({ properties: { a: { type: 'keyword' } } });
  });
});
