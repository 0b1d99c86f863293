// The external-resource reconciler wired to the real runtime pieces (withFinalizer, patchStatusIfChanged, a Store
// index for claims, the Event recorder) against the real apiserver. The external system is the in-memory one: what is
// under test here is the Kubernetes side (finalizer, status subresource, schema round trip), not a backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeletionPolicy } from '../crd/crd.ts';
import { isNotFound } from '../core/errors.ts';
import { clientEventSink, EventRecorder } from '../observability/events.ts';
import { byExternalName, storeClaimIndex } from './external-claims.ts';
import { ExternalResourceReconciler, finalizerRunner, statusWriterFor } from './external-resource.ts';
import type { FakeObserved, FakeSpec } from '../testing/external-resource.ts';
import { InMemoryExternalSystem } from '../testing/external-resource.ts';
import { silentLogger } from '../core/logger.ts';
import { Result } from '../core/result.ts';
import { StoreWriter } from '../cache/store.ts';
import { deleteNamespace, eventually, freshNamespace, gadgetType, installGadgetCrd, liveCluster } from '../testing/control-plane.ts';
import type { Gadget, LiveCluster } from '../testing/control-plane.ts';

const GROUP = 'test.domain-operators.io';

describe('ExternalResourceReconciler against the real apiserver', () => {
  let cluster: LiveCluster;
  let recorder: EventRecorder;
  const namespaces: string[] = [];

  beforeAll(async () => {
    cluster = await liveCluster();
    await installGadgetCrd(cluster);
    recorder = new EventRecorder({ sink: clientEventSink(cluster.client) }, { reportingController: `${GROUP}/external-int`, reportingInstance: 'external-int-0' });
  });

  afterAll(async () => {
    await recorder.shutdown();
    for (const ns of namespaces) await deleteNamespace(cluster, ns);
  });

  it('creates, stays quiet at steady state, settles a name conflict, deletes, and hands the name over', async () => {
    const namespace = await freshNamespace(cluster, 'external');
    namespaces.push(namespace);
    const system = new InMemoryExternalSystem();
    const externalName = (g: Gadget): string => g.spec.topic;
    const store = new StoreWriter<Gadget>({ indexers: { externalName: byExternalName(externalName) } });
    const reconciler = new ExternalResourceReconciler<Gadget, FakeSpec, FakeObserved>(
      {
        adapter: system,
        claims: storeClaimIndex(store.reader(), 'externalName'),
        finalizer: finalizerRunner(`${GROUP}/external`, { client: cluster.client, type: gadgetType, recorder, group: GROUP }),
        status: statusWriterFor(cluster.client, gadgetType),
        events: recorder,
        random: () => 0.5,
      },
      { annotationPrefix: GROUP, connect: (g) => ({ externalName: externalName(g), desired: { name: g.spec.topic, config: g.spec.config } }), defaultDeletionPolicy: 'Retain', deletionPolicy: (g) => g.spec.deletionPolicy },
    );
    const reconcile = async (name: string): Promise<Result> => {
      store.replace(await cluster.client.listAll(gadgetType, { namespace }));
      const object = await cluster.client.get(gadgetType, { namespace, name });
      return reconciler.reconcile(object, { request: { namespace, name }, reconcileId: name, log: silentLogger, signal: new AbortController().signal });
    };
    const get = (name: string): Promise<Gadget> => cluster.client.get(gadgetType, { namespace, name });
    const gadget = (name: string, deletionPolicy: DeletionPolicy): Gadget => ({
      apiVersion: `${GROUP}/v1`,
      kind: 'Gadget',
      metadata: { name, namespace },
      spec: { topic: 'orders', config: { partitions: name === 'first' ? '3' : '6' }, deletionPolicy },
    });

    await cluster.client.create(gadgetType, gadget('first', 'Delete'));
    await expect(reconcile('first')).resolves.toEqual(Result.checkDriftAfter(600_000));
    const first = await get('first');
    expect(first.metadata?.finalizers).toEqual([`${GROUP}/external`]);
    expect(first.status).toMatchObject({ externalName: 'orders', ownership: 'Created', observedGeneration: 1 });
    expect(first.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Synced', 'True', 'ReconcileSuccess'],
      ['Ready', 'True', 'Available'],
    ]);
    expect(system.objects.get('orders')).toEqual({ partitions: '3' });

    await reconcile('first');
    expect((await get('first')).metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);

    // Created a second or more later: the older one keeps the name.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await cluster.client.create(gadgetType, gadget('second', 'Retain'));
    await reconcile('second');
    const second = await get('second');
    expect(second.status?.conditions?.find((c) => c.type === 'Synced')).toMatchObject({ status: 'False', reason: 'ResourceConflict' });
    expect(second.status?.ownership).toBeUndefined();

    await cluster.client.delete(gadgetType, { namespace, name: 'first' });
    await reconcile('first');
    await eventually(async () => {
      try {
        await get('first');
        return false;
      } catch (err) {
        if (isNotFound(err)) return true;
        throw err;
      }
    }, 10_000, 'first deleted');
    expect(system.objects.has('orders')).toBe(false);

    await reconcile('second');
    expect((await get('second')).status).toMatchObject({ ownership: 'Created' });
    expect(system.objects.get('orders')).toEqual({ partitions: '6' });
  });
});
