import type { KubernetesObject, V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../core/clock.ts';
import { metadataOnly } from '../client/metadata-only.ts';
import { coreTypes } from '../client/resource-type.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { LiveCluster } from '../testing/control-plane.ts';
import { deleteNamespace, eventually, freshNamespace, liveCluster } from '../testing/control-plane.ts';
import { HttpWatchTransport } from './http-watch-transport.ts';
import { SharedInformers } from './informer.ts';
import type { ListPage, ListRequest, WatchEvent, WatchRequest, WatchTransport } from './watch-transport.ts';
import { Watcher } from './watcher.ts';
import type { WatcherEvent } from './watcher.ts';

const PREFIX = 'wl-';

function configMap(namespace: string, name: string): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, labels: { test: 'watch-list' } }, data: { text: `"quoted" \\ ü ${name}` } };
}

const ours = (objects: readonly KubernetesObject[]): string[] =>
  objects
    .map((object) => object.metadata?.name ?? '')
    .filter((name) => name.startsWith(PREFIX))
    .sort();

/** Our real transport, with the requests it was asked to make written down (the apiserver answers them all). */
class RecordingTransport<T extends KubernetesObject> implements WatchTransport<T> {
  readonly lists: ListRequest[] = [];
  readonly watches: WatchRequest[] = [];
  readonly #inner: WatchTransport<T>;

  constructor(inner: WatchTransport<T>) {
    this.#inner = inner;
  }

  list(request: ListRequest): Promise<ListPage<T>> {
    this.lists.push(request);
    return this.#inner.list(request);
  }

  watch(request: WatchRequest): AsyncIterable<WatchEvent<T>> {
    this.watches.push(request);
    return this.#inner.watch(request);
  }
}

/** Reads a stream until `until` says stop; returns what it read. */
async function readUntil<T extends KubernetesObject>(iterator: AsyncIterator<WatchEvent<T>>, until: (event: WatchEvent<T>) => boolean): Promise<WatchEvent<T>[]> {
  const events: WatchEvent<T>[] = [];
  for (;;) {
    const result = await iterator.next();
    if (result.done === true) throw new Error(`the stream ended after ${events.length} event(s)`);
    events.push(result.value);
    if (until(result.value)) return events;
  }
}

describe('watch-list (sendInitialEvents) against the apiserver', () => {
  let cluster: LiveCluster;
  let namespace: string;

  beforeAll(async () => {
    cluster = await liveCluster();
    namespace = await freshNamespace(cluster, 'watch-list');
    for (let i = 0; i < 3; i++) await cluster.client.create(coreTypes.configMap, configMap(namespace, `${PREFIX}${i}`));
  });

  afterAll(async () => {
    await deleteNamespace(cluster, namespace);
  });

  it('streams every object as ADDED, then the bookmark annotated k8s.io/initial-events-end, then changes on the same stream', async () => {
    const transport = new HttpWatchTransport<V1ConfigMap>({ kubeConfig: cluster.kubeConfig }, { resource: coreTypes.configMap, namespace });
    const controller = new AbortController();
    const stream = transport.watch({ resourceVersion: '', sendInitialEvents: true, timeoutSeconds: 60, allowWatchBookmarks: true, signal: controller.signal, onActivity: () => undefined });
    const iterator = stream[Symbol.asyncIterator]();
    try {
      const initial = await readUntil(iterator, (event) => event.type === 'BOOKMARK' && event.initialEventsEnd === true);
      const end = initial.at(-1);
      const objects = initial.flatMap((event) => (event.type === 'BOOKMARK' ? [] : [event]));
      expect(objects.every((event) => event.type === 'ADDED')).toBe(true);
      expect(ours(objects.map((event) => event.object))).toEqual([`${PREFIX}0`, `${PREFIX}1`, `${PREFIX}2`]);
      expect(objects.find((event) => event.object.metadata?.name === `${PREFIX}1`)?.object.data).toEqual(configMap(namespace, `${PREFIX}1`).data);
      // Created before the request, so a consistent watch-list (resourceVersion "") must hold them: nothing trails.
      expect(end?.type === 'BOOKMARK' && Number(end.resourceVersion)).toBeGreaterThanOrEqual(Math.max(...objects.map((event) => Number(event.object.metadata?.resourceVersion))));

      await cluster.client.create(coreTypes.configMap, configMap(namespace, `${PREFIX}later`));
      const [change] = await readUntil(iterator, (event) => event.type !== 'BOOKMARK');
      expect(change).toMatchObject({ type: 'ADDED', object: { metadata: { name: `${PREFIX}later` } } });
    } finally {
      controller.abort();
      await iterator.return().catch(() => undefined);
      await cluster.client.delete(coreTypes.configMap, { namespace, name: `${PREFIX}later` });
    }
  });

  it('a metadata-only watch-list streams metadata and ends with the annotated bookmark too', async () => {
    const type: ResourceType = metadataOnly(coreTypes.configMap);
    const transport = new HttpWatchTransport({ kubeConfig: cluster.kubeConfig }, { resource: type, namespace });
    const controller = new AbortController();
    const stream = transport.watch({ resourceVersion: '', sendInitialEvents: true, timeoutSeconds: 60, allowWatchBookmarks: true, signal: controller.signal, onActivity: () => undefined });
    const iterator = stream[Symbol.asyncIterator]();
    try {
      const initial = await readUntil(iterator, (event) => event.type === 'BOOKMARK' && event.initialEventsEnd === true);
      const objects = initial.flatMap((event) => (event.type === 'BOOKMARK' ? [] : [event.object]));
      expect(ours(objects)).toEqual([`${PREFIX}0`, `${PREFIX}1`, `${PREFIX}2`]);
      for (const object of objects) expect(Object.keys(object).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    } finally {
      controller.abort();
      await iterator.return().catch(() => undefined);
    }
  });

  it('the watcher syncs from one watch-list, with no list request, and watches on the same stream', async () => {
    const transport = new RecordingTransport(new HttpWatchTransport<V1ConfigMap>({ kubeConfig: cluster.kubeConfig }, { resource: coreTypes.configMap, namespace }));
    const watcher = new Watcher({ transport, clock: systemClock }, { initialList: 'watchList' });
    const controller = new AbortController();
    const events = watcher.events(controller.signal)[Symbol.asyncIterator]();
    try {
      const first = await events.next();
      const restarted = first.value as WatcherEvent;
      expect(restarted.type).toBe('Restarted');
      expect(restarted.type === 'Restarted' && ours(restarted.objects)).toEqual([`${PREFIX}0`, `${PREFIX}1`, `${PREFIX}2`]);
      expect(watcher.health()).toMatchObject({ state: 'Watching', consecutiveFailures: 0 });

      await cluster.client.delete(coreTypes.configMap, { namespace, name: `${PREFIX}0` });
      const next = await events.next();
      expect(next.value).toMatchObject({ type: 'Deleted', object: { metadata: { name: `${PREFIX}0` } } });
      expect(transport.lists).toEqual([]);
      expect(transport.watches).toHaveLength(1);
      expect(transport.watches[0]).toMatchObject({ resourceVersion: '', sendInitialEvents: true, allowWatchBookmarks: true });
    } finally {
      controller.abort();
      await events.return(undefined);
      await cluster.client.create(coreTypes.configMap, configMap(namespace, `${PREFIX}0`)).catch(() => undefined);
    }
  });

  it('an informer with initialList watchList syncs exactly what the apiserver lists at the time, and a paginated one the same', async () => {
    const listed = ours(await cluster.client.listAll(coreTypes.configMap, { namespace }));
    const stop = new AbortController();
    const streamed = new SharedInformers({ kubeConfig: cluster.kubeConfig }, { namespace, watcher: { initialList: 'watchList' } });
    const paginated = new SharedInformers({ kubeConfig: cluster.kubeConfig }, { namespace, watcher: { pageSize: 2 } });
    const informers = [streamed.informerFor(coreTypes.configMap), paginated.informerFor(coreTypes.configMap)];
    const runs = [streamed.run(stop.signal), paginated.run(stop.signal)];
    try {
      await Promise.all([streamed.waitForSync(stop.signal), paginated.waitForSync(stop.signal)]);
      expect(ours(informers[0]?.store.list(namespace) ?? [])).toEqual(listed);
      expect(streamed.health()['configmaps']).toMatchObject({ state: 'Watching', synced: true });
      expect(informers[0]?.store.get(`${namespace}/${PREFIX}2`)?.metadata).not.toHaveProperty('managedFields');
      expect(Object.isFrozen(informers[0]?.store.get(`${namespace}/${PREFIX}2`))).toBe(true);
      // The paginated list reads resourceVersion "0" from the watch cache, which may trail the last write by a moment.
      await eventually(() => Promise.resolve(ours(informers[1]?.store.list(namespace) ?? []).join() === listed.join()), 10_000, 'the paginated informer holds what the apiserver lists');
    } finally {
      stop.abort();
      await Promise.allSettled(runs);
    }
  });
});
