import type { KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { objectKey } from '../core/request.ts';
import { byOwnerUid, bySecretRef, storeReader, StoreWriter, stripManagedFields } from './store.ts';

interface App extends KubernetesObject {
  spec?: { secretName?: string; tls?: { secretRef?: { name: string; namespace?: string } } };
}

function app(name: string, resourceVersion: string, extra: Partial<V1ObjectMeta> = {}, spec: App['spec'] = {}): App {
  return { apiVersion: 'x/v1', kind: 'App', metadata: { name, namespace: 'ns', resourceVersion, ...extra }, spec };
}

const owner = (uid: string) => ({ apiVersion: 'v1', kind: 'Owner', name: uid, uid });

describe('stripManagedFields', () => {
  it('drops managedFields and the last-applied annotation without touching the input', () => {
    const input = app('a', '1', {
      managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"big":true}', keep: 'me' },
      labels: { l: 'v' },
    });
    const snapshot = structuredClone(input);
    const out = stripManagedFields(input);
    expect(out.metadata).toEqual({ name: 'a', namespace: 'ns', resourceVersion: '1', annotations: { keep: 'me' }, labels: { l: 'v' } });
    expect(input).toEqual(snapshot);
    expect(out.spec).toBe(input.spec); // shared, not copied
  });

  it('drops an annotations map left empty, and returns the input itself when nothing needs stripping', () => {
    const lastAppliedOnly = app('a', '1', { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } });
    expect(stripManagedFields(lastAppliedOnly).metadata).not.toHaveProperty('annotations');
    const clean = app('b', '1', { annotations: { keep: 'me' } });
    expect(stripManagedFields(clean)).toBe(clean);
  });
});

describe('StoreWriter', () => {
  it('keys objects by namespace/name, or name when cluster-scoped', () => {
    const store = new StoreWriter();
    const node: KubernetesObject = { kind: 'Node', metadata: { name: 'n1', resourceVersion: '1' } };
    store.replace([app('a', '1'), { ...app('b', '1'), metadata: { name: 'b', namespace: 'other', resourceVersion: '1' } }, node]);

    expect(objectKey(node)).toBe('n1');
    expect(store.get('ns/a')?.metadata?.name).toBe('a');
    expect(store.get('n1')).toMatchObject({ kind: 'Node' });
    expect(store.get('ns/missing')).toBeUndefined();
    expect(store.keys().sort()).toEqual(['n1', 'ns/a', 'other/b']);
    expect(store.list('ns').map(objectKey)).toEqual(['ns/a']);
    expect(store.list()).toHaveLength(3);
    expect(store.size()).toBe(3);
  });

  it('caches the transformed object, deep-frozen', () => {
    const store = new StoreWriter<App>();
    const input = app('a', '1', { managedFields: [{ manager: 'm' }] }, { secretName: 's' });
    store.apply(input);
    const cached = store.get('ns/a');

    expect(cached?.metadata).not.toHaveProperty('managedFields');
    expect(input.metadata).toHaveProperty('managedFields');
    expect(Object.isFrozen(cached)).toBe(true);
    expect(Object.isFrozen(cached?.spec)).toBe(true);
    expect(() => {
      if (cached?.spec) cached.spec.secretName = 'changed';
    }).toThrow(TypeError);
  });

  it('uses a custom transform, and skips freezing when asked', () => {
    const store = new StoreWriter<App>({ transform: (o) => ({ ...o, spec: {} }), freeze: false });
    store.apply(app('a', '1', {}, { secretName: 's' }));
    expect(store.get('ns/a')?.spec).toEqual({});
    expect(Object.isFrozen(store.get('ns/a'))).toBe(false);
  });

  it('reports Added, Modified and Deleted from replace, keeping unchanged instances', () => {
    const store = new StoreWriter();
    store.replace([app('a', '1'), app('b', '1'), app('c', '1')]);
    const unchanged = store.get('ns/a');
    const changes = store.replace([app('a', '1'), app('b', '2'), app('d', '1')]);

    expect(changes.map((c) => [c.type, objectKey(c.object), c.oldObject?.metadata?.resourceVersion])).toEqual([
      ['Modified', 'ns/b', '1'],
      ['Added', 'ns/d', undefined],
      ['Deleted', 'ns/c', '1'],
    ]);
    expect(changes.every((c) => c.fromList === true)).toBe(true);
    expect(store.get('ns/a')).toBe(unchanged);
    expect(store.get('ns/c')).toBeUndefined();
    expect(store.size()).toBe(3);
  });

  it('reports a key whose UID changed between two lists as Deleted then Added, not Modified', () => {
    const store = new StoreWriter();
    store.replace([app('a', '1', { uid: 'u-old' }), app('b', '1', { uid: 'u-b' })]);
    const changes = store.replace([app('a', '7', { uid: 'u-new' }), app('b', '2', { uid: 'u-b' })]);

    expect(changes.map((c) => [c.type, objectKey(c.object), c.object.metadata?.uid])).toEqual([
      ['Deleted', 'ns/a', 'u-old'],
      ['Added', 'ns/a', 'u-new'],
      ['Modified', 'ns/b', 'u-b'],
    ]);
    expect(store.get('ns/a')?.metadata?.uid).toBe('u-new');
    expect(store.size()).toBe(2);
  });

  it('ignores a replayed event with the cached resourceVersion; reports a delete even for an unknown key', () => {
    const store = new StoreWriter();
    const added = store.apply(app('a', '1'));
    expect(added?.type).toBe('Added');
    expect(added).not.toHaveProperty('fromList');
    expect(store.apply(app('a', '1'))).toBeUndefined();
    expect(store.apply(app('a', '2'))).toMatchObject({ type: 'Modified', oldObject: { metadata: { resourceVersion: '1' } } });
    expect(store.delete(app('a', '3'))).toMatchObject({ type: 'Deleted', oldObject: { metadata: { resourceVersion: '2' } } });
    expect(store.delete(app('zz', '4'))).toEqual({ type: 'Deleted', object: app('zz', '4') });
    expect(store.size()).toBe(0);
    expect(store.list()).toEqual([]);
  });

  it('maintains the owner-UID index on add, modify and delete', () => {
    const store = new StoreWriter({ indexers: { owner: byOwnerUid } });
    store.replace([app('a', '1', { ownerReferences: [owner('u1')] }), app('b', '1', { ownerReferences: [owner('u1'), owner('u2')] })]);
    expect(store.byIndex('owner', 'u1').map(objectKey).sort()).toEqual(['ns/a', 'ns/b']);

    store.apply(app('a', '2', { ownerReferences: [owner('u2')] }));
    expect(store.byIndex('owner', 'u1').map(objectKey)).toEqual(['ns/b']);
    expect(store.byIndex('owner', 'u2').map(objectKey).sort()).toEqual(['ns/a', 'ns/b']);
    expect(store.byIndex('owner', 'u2').find((o) => o.metadata?.name === 'a')?.metadata?.resourceVersion).toBe('2');

    store.delete(app('b', '3'));
    expect(store.byIndex('owner', 'u1')).toEqual([]);
    expect(store.byIndex('owner', 'u2').map(objectKey)).toEqual(['ns/a']);

    store.replace([]);
    expect(store.byIndex('owner', 'u2')).toEqual([]);
  });

  it('indexes Secret references by namespace/name, defaulting to the object namespace', () => {
    const secrets = bySecretRef<App>((o) => [o.spec?.secretName, o.spec?.tls?.secretRef]);
    const store = new StoreWriter<App>({ indexers: { secret: secrets } });
    store.apply(app('a', '1', {}, { secretName: 'creds' }));
    store.apply(app('b', '1', {}, { tls: { secretRef: { name: 'tls', namespace: 'certs' } } }));
    expect(store.byIndex('secret', 'ns/creds').map(objectKey)).toEqual(['ns/a']);
    expect(store.byIndex('secret', 'certs/tls').map(objectKey)).toEqual(['ns/b']);

    store.apply(app('a', '2', {}, { secretName: 'other' }));
    expect(store.byIndex('secret', 'ns/creds')).toEqual([]);
    expect(store.byIndex('secret', 'ns/other').map(objectKey)).toEqual(['ns/a']);
    expect(() => store.byIndex('nope', 'x')).toThrow("no indexer named 'nope'");
  });

  it('hands out a read-only view and reports synced only once marked', () => {
    const store = new StoreWriter();
    const reader = store.reader();
    expect(reader).toBe(store.reader());
    expect(reader).not.toHaveProperty('replace');
    expect(reader.hasSynced()).toBe(false);
    store.replace([app('a', '1')]);
    expect(reader.hasSynced()).toBe(false);
    store.markSynced();
    expect(reader.hasSynced()).toBe(true);
    expect(reader.get('ns/a')).toBe(store.get('ns/a'));
  });
});

describe('storeReader', () => {
  it('answers the client read interface from the cache', async () => {
    const writer = new StoreWriter();
    writer.apply({ metadata: { name: 'a', namespace: 'ns', resourceVersion: '1' } });
    writer.apply({ metadata: { name: 'b', namespace: 'other', resourceVersion: '1' } });
    const reader = storeReader(writer.reader());
    expect((await reader.get({ namespace: 'ns', name: 'a' }))?.metadata?.name).toBe('a');
    expect(await reader.get({ namespace: 'ns', name: 'missing' })).toBeUndefined();
    expect((await reader.list({ namespace: 'other' })).map((o) => o.metadata?.name)).toEqual(['b']);
    expect(await reader.list()).toHaveLength(2);
    await expect(reader.list({ labelSelector: 'a=b' })).rejects.toThrow(/selectors are not supported/);
  });
});
