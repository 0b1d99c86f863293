import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { InitialEvents } from './initial-events.ts';

function cm(name: string, resourceVersion: string, namespace = 'ns'): KubernetesObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, resourceVersion } };
}

describe('InitialEvents', () => {
  it('keeps ADDED objects in arrival order', () => {
    const initial = new InitialEvents();
    initial.apply('ADDED', cm('b', '2'));
    initial.apply('ADDED', cm('a', '1'));
    expect(initial.size).toBe(2);
    expect(initial.objects()).toEqual([cm('b', '2'), cm('a', '1')]);
  });

  it('applies a change sent before the end bookmark: the last event for a key wins, a deletion removes it', () => {
    const initial = new InitialEvents();
    initial.apply('ADDED', cm('a', '1'));
    initial.apply('ADDED', cm('b', '2'));
    initial.apply('ADDED', cm('a', '1', 'other'));
    initial.apply('MODIFIED', cm('a', '5'));
    initial.apply('DELETED', cm('b', '6'));
    initial.apply('ADDED', cm('c', '7'));
    expect(initial.size).toBe(3);
    expect(initial.objects()).toEqual([cm('a', '5'), cm('a', '1', 'other'), cm('c', '7')]);
  });

  it('holds nothing for an empty collection', () => {
    expect(new InitialEvents().objects()).toEqual([]);
  });
});
