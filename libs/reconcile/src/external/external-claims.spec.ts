import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { byExternalName, claimWinner, storeClaimIndex } from './external-claims.ts';
import { StoreWriter } from '../cache/store.ts';

function claimant(name: string, uid: string, created: string | undefined, topic = 'orders'): KubernetesObject & { spec: { topic: string } } {
  return {
    metadata: { name, namespace: 'ns', uid, ...(created !== undefined && { creationTimestamp: created as unknown as Date }) },
    spec: { topic },
  };
}

describe('claimWinner', () => {
  it('picks the oldest, then the smaller uid; a missing creationTimestamp sorts last', () => {
    const a = claimant('a', 'uid-2', '2026-12-01T00:00:05Z');
    const b = claimant('b', 'uid-9', '2026-12-01T00:00:00Z');
    const c = claimant('c', 'uid-1', '2026-12-01T00:00:00Z');
    const d = claimant('d', 'uid-0', undefined);
    expect(claimWinner([a, b, c, d])).toBe(c);
    expect(claimWinner([d, a])).toBe(a);
    expect(claimWinner([a, b, c, d].reverse())).toBe(c);
    expect(claimWinner<KubernetesObject>([])).toBeUndefined();
  });

  it('accepts Date creation timestamps as client-node models hold them', () => {
    const a = { metadata: { uid: 'x', creationTimestamp: new Date('2026-01-01T00:00:00Z') } };
    const b = { metadata: { uid: 'a', creationTimestamp: new Date('2026-06-01T00:00:00Z') } };
    expect(claimWinner([b, a])).toBe(a);
  });

  it('puts a claimant that already manages the name before any older one', () => {
    const old = claimant('old', 'uid-1', '2026-12-01T00:00:00Z');
    const owner = claimant('owner', 'uid-2', '2026-12-01T00:00:09Z');
    expect(claimWinner([old, owner], (c) => c === owner)).toBe(owner);
  });
});

describe('byExternalName and storeClaimIndex', () => {
  it('indexes by external name, skipping objects whose name cannot be computed', () => {
    const index = byExternalName<ReturnType<typeof claimant>>((o) => {
      if (o.spec.topic === '') throw new Error('invalid');
      return o.spec.topic;
    });
    const store = new StoreWriter<ReturnType<typeof claimant>>({ indexers: { externalName: index } });
    store.replace([claimant('a', '1', undefined), claimant('b', '2', undefined, 'payments'), claimant('c', '3', undefined, '')]);
    const claims = storeClaimIndex(store.reader(), 'externalName');
    expect(claims.claimants('orders').map((o) => o.metadata?.name)).toEqual(['a']);
    expect(claims.claimants('')).toEqual([]);
  });
});
