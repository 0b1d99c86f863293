import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from './predicate.ts';
import { and, annotationsChanged, generationChanged, labelsChanged, not, or } from './predicate.ts';

function obj(generation: number, labels?: Record<string, string>, annotations?: Record<string, string>): KubernetesObject {
  return { metadata: { name: 'a', namespace: 'ns', generation, ...(labels && { labels }), ...(annotations && { annotations }) } };
}
const update = (oldObject: KubernetesObject, object: KubernetesObject): ChangeEvent => ({ type: 'update', object, oldObject });

describe('predicates', () => {
  it('generationChanged passes spec changes and drops status-only updates', () => {
    expect(generationChanged(update(obj(1), obj(2)))).toBe(true);
    expect(generationChanged(update(obj(2), obj(2)))).toBe(false);
    expect(generationChanged({ type: 'create', object: obj(1) })).toBe(true);
    expect(generationChanged({ type: 'delete', object: obj(1) })).toBe(true);
    expect(generationChanged(update({ metadata: { name: 'cm' } }, { metadata: { name: 'cm' } }))).toBe(true);
  });

  it('labelsChanged and annotationsChanged compare maps, not identity', () => {
    expect(labelsChanged(update(obj(1, { a: '1' }), obj(1, { a: '1' })))).toBe(false);
    expect(labelsChanged(update(obj(1, { a: '1' }), obj(1, { a: '2' })))).toBe(true);
    expect(labelsChanged(update(obj(1), obj(1, { a: '1' })))).toBe(true);
    expect(labelsChanged(update(obj(1, { a: '1' }), obj(1, { b: '1' })))).toBe(true);
    expect(annotationsChanged(update(obj(1, undefined, { x: 'y' }), obj(1, undefined, { x: 'y' })))).toBe(false);
    expect(annotationsChanged(update(obj(1, undefined, { x: 'y' }), obj(1)))).toBe(true);
  });

  it('combines with and, or, not', () => {
    const labelOnly = update(obj(1, { a: '1' }), obj(1, { a: '2' }));
    expect(or(generationChanged, labelsChanged)(labelOnly)).toBe(true);
    expect(and(generationChanged, labelsChanged)(labelOnly)).toBe(false);
    expect(not(generationChanged)(labelOnly)).toBe(true);
    expect(and()(labelOnly)).toBe(true);
    expect(or()(labelOnly)).toBe(false);
  });
});
