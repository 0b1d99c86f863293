import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { APPLIED_HASH_ANNOTATION, canonicalJson, isApplied, withAppliedHash } from './apply.ts';

describe('applied hash', () => {
  it('does not depend on key order and changes with any value', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonicalJson({ a: [{ c: 3, d: 2 }], b: 1 }));
    const one = withAppliedHash<KubernetesObject & { data: object }>({ metadata: { name: 'x' }, data: { a: '1' } });
    const two = withAppliedHash<KubernetesObject & { data: object }>({ metadata: { name: 'x' }, data: { a: '2' } });
    expect(one.metadata?.annotations?.[APPLIED_HASH_ANNOTATION]).not.toBe(two.metadata?.annotations?.[APPLIED_HASH_ANNOTATION]);
  });

  it('an object carrying the same hash is applied; a missing or different one is not', () => {
    const stamped = withAppliedHash<KubernetesObject>({ metadata: { name: 'x', annotations: { keep: 'me' } } });
    expect(stamped.metadata?.annotations).toMatchObject({ keep: 'me' });
    expect(isApplied(stamped, stamped)).toBe(true);
    expect(isApplied(stamped, undefined)).toBe(false);
    expect(isApplied(stamped, withAppliedHash({ metadata: { name: 'y' } }))).toBe(false);
  });
});
