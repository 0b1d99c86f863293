// One informer measurement in a fresh process, the Node.js side of libs/testenv/go/cmd/informer-bench:
//   node --expose-gc libs/reconcile/bench/informer-peer.ts --mode ours|client-node --kubeconfig <file> --namespace <ns>
//     [--initial-list watchList|list]
// Caches the ConfigMaps of one namespace, then prints one JSON line {syncMs, heapBytes, objects, bytesPerObject}, and
// for ours also windowUs, the sync's start and end on the clock of a `node --cpu-prof` profile (see sync-profile.ts).
// `--initial-list` picks our informer's initial list (default: the informer's default, a paginated list).
import { parseArgs } from 'node:util';
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { HttpWatchTransport } from '../src/cache/http-watch-transport.ts';
import { SharedInformers } from '../src/cache/informer.ts';
import { coreTypes } from '../src/client/resource-type.ts';
import type { InitialListStrategy } from '../src/cache/watcher.ts';
import type { PeerResult } from './report.ts';

/** Live V8 heap after two full collections (the second sweeps what the first's weak callbacks released). */
function liveHeap(): number {
  if (gc === undefined) throw new Error('informer-peer: run node with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The monotonic clock in microseconds, the one a V8 CPU profile's timestamps use (for the profiled run). */
function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Our runtime: a namespace-scoped {@link SharedInformers} with the ConfigMap informer and default options (the
 * store strips managedFields and deep-freezes objects; the initial state from a paginated list unless
 * `initialList` says otherwise). Synced when `waitForSync` resolves.
 */
async function measureOurs(kubeConfig: KubeConfig, namespace: string, initialList: InitialListStrategy | undefined): Promise<PeerResult> {
  // Warm-up, not measured: load the code paths and open the keep-alive connection the informer will reuse.
  const warmup = new AbortController();
  await new HttpWatchTransport({ kubeConfig }, { resource: coreTypes.configMap, namespace }).list({ limit: 1, signal: warmup.signal });

  const informers = new SharedInformers({ kubeConfig }, { namespace, ...(initialList !== undefined && { watcher: { initialList } }) });
  const informer = informers.informerFor(coreTypes.configMap);
  const stop = new AbortController();
  const before = liveHeap();
  const startUs = monotonicUs();
  const start = performance.now();
  const running = informers.run(stop.signal);
  await informer.waitForSync();
  const syncMs = performance.now() - start;
  const endUs = monotonicUs();
  const after = liveHeap();
  const objects = informer.store.size();
  stop.abort();
  await running;
  return { ...result(syncMs, after - before, objects), windowUs: [startUs, endUs] };
}

/**
 * `@kubernetes/client-node`: `makeInformer` over `CoreV1Api.listNamespacedConfigMap` (its usual form; one
 * unpaginated list, objects deserialised into its model classes, nothing stripped). Synced when the last item of the
 * first list has been added to its cache (its `add` callbacks run synchronously as each item is stored).
 */
async function measureClientNode(kubeConfig: KubeConfig, namespace: string): Promise<PeerResult> {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  // Warm-up, not measured: the same request path with one item.
  await api.listNamespacedConfigMap({ namespace, limit: 1 });

  let expected: number | undefined;
  let added = 0;
  let syncedAt: number | undefined;
  const informer = makeInformer<V1ConfigMap>(kubeConfig, `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps`, async () => {
    const list = await api.listNamespacedConfigMap({ namespace });
    expected = list.items.length;
    return list;
  });
  informer.on('add', () => {
    added++;
    if (syncedAt === undefined && added === expected) syncedAt = performance.now();
  });
  const errors: unknown[] = [];
  informer.on('error', (error: unknown) => errors.push(error));

  const before = liveHeap();
  const start = performance.now();
  await informer.start();
  // start() resolves once the watch is open, after the list was stored; an empty list fires no `add`.
  syncedAt ??= performance.now();
  if (errors.length > 0) throw new Error('client-node informer failed', { cause: errors[0] });
  const syncMs = syncedAt - start;
  const after = liveHeap();
  const objects = informer.list(namespace).length;
  await informer.stop();
  return result(syncMs, after - before, objects);
}

function result(syncMs: number, heapBytes: number, objects: number): PeerResult {
  return { syncMs, heapBytes, objects, bytesPerObject: objects > 0 ? heapBytes / objects : 0 };
}

const { values } = parseArgs({
  options: {
    mode: { type: 'string' },
    kubeconfig: { type: 'string' },
    namespace: { type: 'string' },
    'initial-list': { type: 'string' },
  },
});
const { mode, kubeconfig, namespace } = values;
const initialList = values['initial-list'];
if (
  (mode !== 'ours' && mode !== 'client-node') ||
  kubeconfig === undefined ||
  namespace === undefined ||
  (initialList !== undefined && initialList !== 'watchList' && initialList !== 'list')
) {
  throw new Error('usage: informer-peer.ts --mode ours|client-node --kubeconfig <file> --namespace <ns> [--initial-list watchList|list]');
}
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfig);
const measured = mode === 'ours' ? await measureOurs(kubeConfig, namespace, initialList) : await measureClientNode(kubeConfig, namespace);
console.log(JSON.stringify(measured));
// Sockets kept alive by the agents would hold the process open for their idle timeout.
process.exit(0);
