import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { KubeApiError } from '../core/errors.ts';
import { FakeWatchTransport } from '../testing/fake-watch-transport.ts';
import { Reflector } from './reflector.ts';
import { objectKey } from '../core/request.ts';
import { byOwnerUid, StoreWriter } from './store.ts';
import type { StoreChange } from './store.ts';
import { Watcher } from './watcher.ts';
import type { InitialListStrategy } from './watcher.ts';

function cm(name: string, resourceVersion: string, ownerUid?: string): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'ns',
      resourceVersion,
      managedFields: [{ manager: 'test' }],
      ...(ownerUid === undefined ? {} : { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'o', uid: ownerUid }] }),
    },
  };
}

function setup(initialList: InitialListStrategy = 'list') {
  const clock = new VirtualClock();
  const transport = new FakeWatchTransport(clock);
  const watcher = new Watcher({ transport, clock, random: () => 0.5 }, { initialList });
  const writer = new StoreWriter({ indexers: { owner: byOwnerUid } });
  const errors: unknown[] = [];
  const reflector = new Reflector({ watcher, writer }, { onListenerError: (e) => errors.push(e) });
  const changes: [StoreChange['type'], string, string | undefined][] = [];
  reflector.onChange((c) => changes.push([c.type, objectKey(c.object), c.object.metadata?.resourceVersion]));
  const controller = new AbortController();
  return { clock, transport, reflector, changes, errors, controller };
}

describe('Reflector', () => {
  it('is not synced, and reports nothing, while the first list is incomplete', async () => {
    const { clock, transport, reflector, changes, controller } = setup();
    transport.scriptList({ items: [cm('a', '1')], resourceVersion: '1', continue: 't' });
    const run = reflector.run(controller.signal);
    let synced = false;
    void reflector.waitForSync().then(() => (synced = true));
    await clock.advance(0);
    expect(reflector.hasSynced()).toBe(false);
    expect(reflector.store.size()).toBe(0);

    expect(transport.lists).toHaveLength(2); // the second page is still pending
    controller.abort();
    await run;
    expect(synced).toBe(false);
    expect(changes).toEqual([]);
  });

  it('fills the store, notifies listeners after writing, and turns synced', async () => {
    const { clock, transport, reflector, changes, controller } = setup();
    transport.scriptList(
      { items: [cm('a', '1')], resourceVersion: '1', continue: 't' },
      { items: [cm('b', '2')], resourceVersion: '2' },
    );
    const seenInStore: boolean[] = [];
    reflector.onChange((c) => seenInStore.push(reflector.store.get(objectKey(c.object)) === c.object));
    const run = reflector.run(controller.signal);
    const synced = reflector.waitForSync();
    await clock.advance(0);
    await synced;

    expect(reflector.hasSynced()).toBe(true);
    expect(changes).toEqual([
      ['Added', 'ns/a', '1'],
      ['Added', 'ns/b', '2'],
    ]);
    expect(seenInStore).toEqual([true, true]);
    expect(reflector.store.get('ns/a')?.metadata).not.toHaveProperty('managedFields');
    controller.abort();
    await run;
  });

  it('applies watch events to the store and its indexes', async () => {
    const { clock, transport, reflector, changes, controller } = setup();
    transport.scriptList({ items: [cm('a', '1', 'u1')], resourceVersion: '1' });
    const run = reflector.run(controller.signal);
    await clock.advance(0);
    const watch = transport.lastWatch();
    watch.push({ type: 'ADDED', object: cm('b', '2', 'u1') });
    watch.push({ type: 'MODIFIED', object: cm('a', '3', 'u2') });
    watch.push({ type: 'MODIFIED', object: cm('a', '3', 'u2') }); // replay: no change reported
    watch.push({ type: 'DELETED', object: cm('b', '4', 'u1') });
    await clock.advance(0);

    expect(changes.slice(1)).toEqual([
      ['Added', 'ns/b', '2'],
      ['Modified', 'ns/a', '3'],
      ['Deleted', 'ns/b', '4'],
    ]);
    expect(reflector.store.keys()).toEqual(['ns/a']);
    expect(reflector.store.byIndex('owner', 'u1')).toEqual([]);
    expect(reflector.store.byIndex('owner', 'u2').map(objectKey)).toEqual(['ns/a']);
    controller.abort();
    await run;
  });

  it('replaces the store on a relist after 410 Gone and reports deleted and changed keys', async () => {
    const { clock, transport, reflector, changes, controller } = setup();
    transport.scriptList(
      { items: [cm('a', '1'), cm('b', '1'), cm('c', '1')], resourceVersion: '1' },
      { items: [cm('a', '1'), cm('b', '5'), cm('d', '5')], resourceVersion: '5' },
    );
    const run = reflector.run(controller.signal);
    await clock.advance(0);
    changes.length = 0;
    await clock.advance(30_000);
    transport.lastWatch().fail(new KubeApiError('too old resource version', 410, 'Expired'));
    await clock.advance(0);

    expect(changes).toEqual([
      ['Modified', 'ns/b', '5'],
      ['Added', 'ns/d', '5'],
      ['Deleted', 'ns/c', '1'],
    ]);
    expect(reflector.store.keys().sort()).toEqual(['ns/a', 'ns/b', 'ns/d']);
    expect(transport.lastWatch().request.resourceVersion).toBe('5');
    controller.abort();
    await run;
  });

  it('with a watch-list: stores nothing before the end bookmark, then replaces the store at once; a later watch-list drops keys deleted while away', async () => {
    const { clock, transport, reflector, changes, controller } = setup('watchList');
    const run = reflector.run(controller.signal);
    await clock.advance(0);
    const first = transport.lastWatch();
    for (const name of ['a', 'b', 'c']) first.push({ type: 'ADDED', object: cm(name, '1') });
    await clock.advance(0);
    expect(reflector.store.size()).toBe(0);
    expect(reflector.hasSynced()).toBe(false);
    first.endInitialEvents('1');
    await clock.advance(0);
    expect(reflector.hasSynced()).toBe(true);
    expect(reflector.store.keys().sort()).toEqual(['ns/a', 'ns/b', 'ns/c']);
    expect(reflector.store.get('ns/a')?.metadata).not.toHaveProperty('managedFields');

    changes.length = 0;
    await clock.advance(30_000);
    first.fail(new KubeApiError('too old resource version', 410, 'Expired'));
    await clock.advance(0);
    const second = transport.lastWatch();
    second.push({ type: 'ADDED', object: cm('a', '1') });
    second.push({ type: 'ADDED', object: cm('b', '5') });
    second.push({ type: 'ADDED', object: cm('d', '5') });
    await clock.advance(0);
    expect(changes).toEqual([]);
    expect(reflector.store.keys().sort()).toEqual(['ns/a', 'ns/b', 'ns/c']);
    second.endInitialEvents('5');
    await clock.advance(0);

    expect(changes).toEqual([
      ['Modified', 'ns/b', '5'],
      ['Added', 'ns/d', '5'],
      ['Deleted', 'ns/c', '1'],
    ]);
    expect(reflector.store.keys().sort()).toEqual(['ns/a', 'ns/b', 'ns/d']);
    expect(transport.lists).toHaveLength(0);
    controller.abort();
    await run;
  });

  it('keeps going when a listener throws, and stops notifying a removed listener', async () => {
    const { clock, transport, reflector, changes, errors, controller } = setup();
    const unsubscribe = reflector.onChange(() => {
      throw new Error('listener bug');
    });
    transport.scriptList({ items: [cm('a', '1')], resourceVersion: '1' });
    const run = reflector.run(controller.signal);
    await clock.advance(0);
    expect(errors).toHaveLength(1);
    unsubscribe();
    transport.lastWatch().push({ type: 'ADDED', object: cm('b', '2') });
    await clock.advance(0);

    expect(errors).toHaveLength(1);
    expect(changes.map((c) => c[1])).toEqual(['ns/a', 'ns/b']);
    expect(reflector.hasSynced()).toBe(true);
    controller.abort();
    await run;
  });

  it('rejects waitForSync when its signal aborts first', async () => {
    const { reflector } = setup();
    const controller = new AbortController();
    const waiting = reflector.waitForSync(controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
  });
});
