import type { KubernetesObject } from '@kubernetes/client-node';
import type { Store } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { claimsOnConnection, CONNECTION_INDEX } from './external-parts.ts';

function object(name: string): KubernetesObject {
  return { metadata: { name, namespace: 'team-a', uid: `uid-${name}` } };
}

describe('claimsOnConnection', () => {
  it('finds the objects on the name\u2019s connection that compute the same external name; one that cannot claims nothing', () => {
    const onMain = [object('orders'), object('orders-copy'), object('broken'), object('payments')];
    const lookups: string[] = [];
    const store = {
      byIndex: (index: string, key: string) => {
        lookups.push(`${index}=${key}`);
        return key === 'main' ? onMain : [];
      },
    } as unknown as Store;
    const externalName = (o: KubernetesObject): string => {
      const name = o.metadata?.name ?? '';
      if (name === 'broken') throw new Error('tenancy violation');
      return `main/${name === 'orders-copy' ? 'orders' : name}`;
    };
    const claims = claimsOnConnection(() => store, externalName);

    expect(claims.claimants('main/orders').map((o) => o.metadata?.name)).toEqual(['orders', 'orders-copy']);
    expect(claims.claimants('other/orders')).toEqual([]);
    expect(lookups).toEqual([`${CONNECTION_INDEX}=main`, `${CONNECTION_INDEX}=other`]);
  });
});
