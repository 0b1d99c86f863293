import type { KubernetesObject, V1Namespace } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ChangeListener } from '../cache/reflector.ts';
import { StoreWriter } from '../cache/store.ts';
import { connectionClaimIndex } from './claim-index.ts';
import type { ConnectionDependent, ConnectionObject } from './connection-object.ts';
import { byConnectionRef, CONNECTION_INDEX } from './dependents.ts';

/** A store with change listeners, as an informer has: each write tells the listeners what changed. */
class Feed<T extends KubernetesObject> {
  readonly store: StoreWriter<T>;
  readonly #listeners: ChangeListener<T>[] = [];

  constructor(store: StoreWriter<T> = new StoreWriter<T>()) {
    this.store = store;
  }

  onChange(listener: ChangeListener<T>): () => void {
    this.#listeners.push(listener);
    return () => undefined;
  }

  apply(object: T): void {
    const change = this.store.apply(object);
    if (change !== undefined) for (const listener of this.#listeners) listener(change);
  }

  delete(object: T): void {
    const change = this.store.delete(object);
    for (const listener of this.#listeners) listener(change);
  }
}

interface Thing extends ConnectionDependent {
  readonly spec: { readonly connectionRef: { readonly name: string }; readonly thingName?: string };
}

function thing(namespace: string, name: string, thingName?: string, connection = 'main'): Thing {
  return { metadata: { namespace, name, uid: `${namespace}-${name}` }, spec: { connectionRef: { name: connection }, ...(thingName !== undefined && { thingName }) } };
}

function connection(name: string, prefix: string, generation = 1): ConnectionObject & { spec: { prefix: string } } {
  return { metadata: { name, generation }, spec: { prefix } };
}

/** Three caches and a name function like a kind's: `<connection>/<prefix><name>`, refusing a namespace labelled `blocked`. */
function setup() {
  const things = new Feed<Thing>(new StoreWriter<Thing>({ indexers: { [CONNECTION_INDEX]: byConnectionRef } }));
  const connections = new Feed<ConnectionObject & { spec: { prefix: string } }>();
  const namespaces = new Feed<V1Namespace>();
  let calls = 0;
  const externalName = (object: Thing): string => {
    calls += 1;
    const conn = connections.store.get(object.spec.connectionRef.name);
    if (conn === undefined) throw new Error('no connection');
    if (namespaces.store.get(object.metadata.namespace ?? '')?.metadata?.labels?.['blocked'] === 'yes') throw new Error('tenancy');
    const prefix = conn.spec.prefix.replace('{namespace}', object.metadata.namespace ?? '');
    return `${object.spec.connectionRef.name}/${object.spec.thingName ?? prefix + (object.metadata.name ?? '')}`;
  };
  const index = connectionClaimIndex({ dependents: things, connections, namespaces, externalName });
  return { things, connections, namespaces, index, calls: () => calls };
}

const names = (objects: readonly KubernetesObject[]): string[] => objects.map((o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`).sort();

describe('connectionClaimIndex', () => {
  it('finds the claimants of a name from names computed when things change, not when asked', () => {
    const fx = setup();
    fx.connections.apply(connection('main', '{namespace}.'));
    for (let i = 0; i < 100; i++) fx.things.apply(thing('team-a', `t${i}`));
    fx.things.apply(thing('team-b', 'copy', 'team-a.t7'));
    expect(fx.calls()).toBe(101);

    // What every reconcile asks: the claimants of its own name. No name is computed for it.
    for (let i = 0; i < 100; i++) fx.index.claimants(`main/team-a.t${i}`);
    expect(names(fx.index.claimants('main/team-a.t7'))).toEqual(['team-a/t7', 'team-b/copy']);
    expect(fx.index.claimants('other/team-a.t7')).toEqual([]);
    expect(fx.calls()).toBe(101);
    expect(fx.index.computed()).toBe(101);

    // One thing changes: one name is computed.
    fx.things.apply({ ...thing('team-b', 'copy', 'team-a.t8'), metadata: { namespace: 'team-b', name: 'copy', uid: 'team-b-copy', resourceVersion: '2' } });
    expect(fx.calls()).toBe(102);
    expect(names(fx.index.claimants('main/team-a.t7'))).toEqual(['team-a/t7']);
    expect(names(fx.index.claimants('main/team-a.t8'))).toEqual(['team-a/t8', 'team-b/copy']);

    fx.things.delete(thing('team-a', 't8'));
    expect(names(fx.index.claimants('main/team-a.t8'))).toEqual(['team-b/copy']);
  });

  it('recomputes a connection\u2019s things when it arrives after them or changes its spec, and no others', () => {
    const fx = setup();
    fx.things.apply(thing('team-a', 'orders'));
    fx.things.apply(thing('team-a', 'elsewhere', undefined, 'other'));
    expect(fx.index.claimants('main/team-a.orders')).toEqual([]); // no connection yet: claims nothing

    fx.connections.apply(connection('main', '{namespace}.'));
    expect(names(fx.index.claimants('main/team-a.orders'))).toEqual(['team-a/orders']);
    expect(fx.calls()).toBe(3);

    // A status write (same generation) recomputes nothing; a spec change recomputes the connection's things.
    fx.connections.apply({ ...connection('main', '{namespace}.'), metadata: { name: 'main', generation: 1, resourceVersion: '5' }, status: { conditions: [] } });
    expect(fx.calls()).toBe(3);
    fx.connections.apply(connection('main', '{namespace}_', 2));
    expect(fx.calls()).toBe(4);
    expect(fx.index.claimants('main/team-a.orders')).toEqual([]);
    expect(names(fx.index.claimants('main/team-a_orders'))).toEqual(['team-a/orders']);

    fx.connections.delete(connection('main', '{namespace}_', 2));
    expect(fx.index.claimants('main/team-a_orders')).toEqual([]);
  });

  it('recomputes a namespace\u2019s things when its labels change (tenancy), not on other namespace writes', () => {
    const fx = setup();
    fx.connections.apply(connection('main', ''));
    fx.namespaces.apply({ metadata: { name: 'team-a', labels: { blocked: 'yes' } } });
    fx.things.apply(thing('team-a', 'orders'));
    fx.things.apply(thing('team-b', 'orders'));
    expect(names(fx.index.claimants('main/orders'))).toEqual(['team-b/orders']);
    const before = fx.calls();
    fx.namespaces.apply({ metadata: { name: 'team-a', labels: { blocked: 'yes' }, annotations: { x: 'y' }, resourceVersion: '2' } });
    expect(fx.calls()).toBe(before);
    fx.namespaces.apply({ metadata: { name: 'team-a', labels: {}, resourceVersion: '3' } });
    expect(fx.calls()).toBe(before + 1);
    expect(names(fx.index.claimants('main/orders'))).toEqual(['team-a/orders', 'team-b/orders']);
  });
});
