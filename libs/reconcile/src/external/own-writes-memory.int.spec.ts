// The reconciler's memory of its own status writes against the real apiserver, through a real controller and
// informer: 1,000 Retain resources (no finalizer) made Ready and then deleted leave nothing remembered, because the
// controller reports each deletion (Reconciler.forget). Heap figures are printed, not asserted (STYLE: measurements
// are reports; the count of remembered objects is the assertion).
import { getHeapStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedInformers } from '../cache/informer.ts';
import { ControllerBuilder } from '../controller/controller.ts';
import { generationChanged } from '../controller/predicate.ts';
import { getCondition } from '../core/conditions.ts';
import { silentLogger } from '../core/logger.ts';
import { clientEventSink, EventRecorder } from '../observability/events.ts';
import { byExternalName, storeClaimIndex } from './external-claims.ts';
import { ExternalResourceReconciler, finalizerRunner, statusWriterFor } from './external-resource.ts';
import type { FakeObserved, FakeSpec } from '../testing/external-resource.ts';
import { InMemoryExternalSystem } from '../testing/external-resource.ts';
import { deleteNamespace, eventually, freshNamespace, gadgetType, installGadgetCrd, liveCluster } from '../testing/control-plane.ts';
import type { Gadget, LiveCluster } from '../testing/control-plane.ts';

const GROUP = 'test.domain-operators.io';
const COUNT = 1_000;

function usedHeapMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return getHeapStatistics().used_heap_size / 2 ** 20;
}

async function inBatches(count: number, size: number, each: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += size) {
    await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, k) => each(start + k)));
  }
}

describe('ExternalResourceReconciler memory of its own writes', () => {
  let cluster: LiveCluster;
  let recorder: EventRecorder;
  let namespace = '';

  beforeAll(async () => {
    cluster = await liveCluster();
    await installGadgetCrd(cluster);
    recorder = new EventRecorder({ sink: clientEventSink(cluster.client) }, { reportingController: `${GROUP}/memory-int`, reportingInstance: 'memory-int-0' });
    namespace = await freshNamespace(cluster, 'memory');
  });

  afterAll(async () => {
    await recorder.shutdown();
    await deleteNamespace(cluster, namespace);
  });

  it(`forgets all of ${COUNT} Retain resources deleted without finalizers`, { timeout: 600_000 }, async () => {
    const informers = new SharedInformers({ kubeConfig: cluster.kubeConfig }, { namespace });
    const externalName = (g: Gadget): string => g.spec.topic;
    const indexers = { externalName: byExternalName(externalName) };
    const informer = informers.informerFor(gadgetType, { indexers });
    const reconciler = new ExternalResourceReconciler<Gadget, FakeSpec, FakeObserved>(
      {
        adapter: new InMemoryExternalSystem(),
        claims: storeClaimIndex(informer.store, 'externalName'),
        finalizer: finalizerRunner(`${GROUP}/external`, { client: cluster.client, type: gadgetType, recorder, group: GROUP }),
        status: statusWriterFor(cluster.client, gadgetType),
        events: recorder,
      },
      { annotationPrefix: GROUP, connect: (g) => ({ externalName: externalName(g), desired: { name: g.spec.topic, config: g.spec.config } }), defaultDeletionPolicy: 'Retain' },
    );
    // Only spec changes wake a reconcile (as most operators filter): our own status writes do not, so nothing but
    // the deletion can clear what the reconciler remembers of an object.
    const controller = new ControllerBuilder({ informers }, 'gadgets')
      .for(gadgetType, generationChanged)
      .withOptions({ maxConcurrentReconciles: 8, logger: silentLogger })
      .complete(reconciler, { indexers });
    const stop = new AbortController();
    const running = Promise.all([informers.run(stop.signal), controller.start(stop.signal)]);
    try {
      const baseline = usedHeapMiB();
      await inBatches(COUNT, 50, (i) =>
        cluster.client.create(gadgetType, { apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name: `g-${i}`, namespace }, spec: { topic: `topic-${i}`, config: { n: String(i) } } }),
      );
      await eventually(
        () => Promise.resolve(informer.store.list().filter((g) => getCondition(g.status?.conditions, 'Ready')?.status === 'True').length === COUNT),
        300_000,
        `${COUNT} gadgets Ready`,
      );
      const whileReady = usedHeapMiB();
      const rememberedWhileReady = reconciler.remembered;

      await inBatches(COUNT, 50, (i) => cluster.client.delete(gadgetType, { namespace, name: `g-${i}` }));
      await eventually(() => Promise.resolve(informer.store.list().length === 0), 120_000, 'every gadget gone from the cache');
      const afterDelete = usedHeapMiB();

      process.stdout.write(
        `own-writes memory: ${COUNT} Retain gadgets; remembered while Ready ${rememberedWhileReady}, after delete ${reconciler.remembered}; ` +
          `used heap ${baseline.toFixed(1)} MiB before, ${whileReady.toFixed(1)} MiB Ready, ${afterDelete.toFixed(1)} MiB after delete` +
          `${(globalThis as { gc?: unknown }).gc === undefined ? ' (no --expose-gc: figures include garbage)' : ''}\n`,
      );
      expect(rememberedWhileReady).toBe(COUNT);
      expect(reconciler.remembered).toBe(0);
    } finally {
      stop.abort();
      await running;
    }
  });
});
