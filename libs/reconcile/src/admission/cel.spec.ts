import { describe, expect, it } from 'vitest';
import { celPresent, celRenderedPrefix, celString, celStringList } from './cel.ts';

describe('CEL building blocks', () => {
  it('test every field on the way to a path, since has() tests only the last one', () => {
    expect(celPresent('params.spec.tenancy.indexPrefix')).toBe('has(params.spec) && has(params.spec.tenancy) && has(params.spec.tenancy.indexPrefix)');
    expect(celRenderedPrefix('params.spec.p')).toBe('has(params.spec) && has(params.spec.p) ? params.spec.p.replace("{namespace}", request.namespace) : ""');
  });

  it('quote strings as CEL reads them', () => {
    expect(celString('a "b" \\')).toBe('"a \\"b\\" \\\\"');
    expect(celStringList(['x', 'y'])).toBe('["x", "y"]');
  });
});
