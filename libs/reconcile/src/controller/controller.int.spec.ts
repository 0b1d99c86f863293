import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlPlanePids, ensureTestEnv, resolvePaths } from '@domain-operators/testenv';
import { ControllerBuilder } from './controller.ts';
import { SharedInformers } from '../cache/informer.ts';
import { Result } from '../core/result.ts';
import { coreTypes } from '../client/resource-type.ts';
import type { Widget } from '../testing/control-plane.ts';
import { deleteNamespace, eventually, freshNamespace, installWidgetCrd, liveCluster, widgetType } from '../testing/control-plane.ts';
import type { LiveCluster } from '../testing/control-plane.ts';

const FINALIZER = 'test.domain-operators.io/cleanup';

/** A controller over Widgets that records what it saw and writes status.observedGeneration. */
function startWidgetController(cluster: LiveCluster, namespace: string) {
  const seen: { name: string; generation: number | undefined; deleting: boolean }[] = [];
  const informers = new SharedInformers({ kubeConfig: cluster.kubeConfig }, { namespace });
  const controller = new ControllerBuilder({ informers }, 'widgets')
    .for(widgetType)
    .complete({
      async reconcile(widget: Widget, ctx) {
        const name = widget.metadata?.name ?? '';
        const deleting = widget.metadata?.deletionTimestamp !== undefined;
        seen.push({ name, generation: widget.metadata?.generation, deleting });
        if (deleting) {
          const finalizers = (widget.metadata?.finalizers ?? []).filter((f) => f !== FINALIZER);
          await cluster.client.patch(widgetType, ctx.request, { type: 'merge', body: { metadata: { finalizers, resourceVersion: widget.metadata?.resourceVersion } } });
          return Result.done();
        }
        if (widget.status?.observedGeneration !== widget.metadata?.generation) {
          await cluster.client.patchStatus(widgetType, ctx.request, { type: 'merge', body: { status: { observedGeneration: widget.metadata?.generation } } });
        }
        return Result.done();
      },
    });
  const stop = new AbortController();
  const running = Promise.all([informers.run(stop.signal), controller.start(stop.signal)]);
  return {
    seen,
    informers,
    stop: async () => {
      stop.abort();
      await running;
    },
  };
}

describe('Controller against the real apiserver', () => {
  let cluster: LiveCluster;
  const namespaces: string[] = [];

  beforeAll(async () => {
    cluster = await liveCluster();
    await installWidgetCrd(cluster);
  });

  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(cluster, ns);
  });

  it('sees create, update and delete of a custom resource', async () => {
    const ns = await freshNamespace(cluster, 'ctrl');
    namespaces.push(ns);
    const run = startWidgetController(cluster, ns);
    try {
      await cluster.client.create(widgetType, { apiVersion: 'test.domain-operators.io/v1', kind: 'Widget', metadata: { name: 'w1', namespace: ns, finalizers: [FINALIZER] }, spec: { size: 1 } });
      await eventually(async () => (await cluster.client.get(widgetType, { namespace: ns, name: 'w1' })).status?.observedGeneration === 1, 20_000, 'status for generation 1');

      await cluster.client.patch(widgetType, { namespace: ns, name: 'w1' }, { type: 'merge', body: { spec: { size: 2 } } });
      await eventually(async () => (await cluster.client.get(widgetType, { namespace: ns, name: 'w1' })).status?.observedGeneration === 2, 20_000, 'status for generation 2');

      await cluster.client.delete(widgetType, { namespace: ns, name: 'w1' });
      await eventually(async () => (await cluster.client.reader(widgetType).get({ namespace: ns, name: 'w1' })) === undefined, 20_000, 'finalizer released and object gone');

      expect(run.seen.filter((s) => !s.deleting).map((s) => s.generation)).toEqual(expect.arrayContaining([1, 2]));
      expect(run.seen.some((s) => s.deleting)).toBe(true);
    } finally {
      await run.stop();
    }
  });

  it('does not lose an update made while the apiserver and etcd were down and restarted', async () => {
    const ns = await freshNamespace(cluster, 'restart');
    namespaces.push(ns);
    await cluster.client.create(widgetType, { apiVersion: 'test.domain-operators.io/v1', kind: 'Widget', metadata: { name: 'w', namespace: ns }, spec: { size: 1 } });
    const run = startWidgetController(cluster, ns);
    try {
      await eventually(async () => (await cluster.client.get(widgetType, { namespace: ns, name: 'w' })).status?.observedGeneration === 1, 20_000, 'first reconcile');
      const pids = await controlPlanePids(resolvePaths());
      expect(pids.apiserver).toBeTypeOf('number');
      expect(pids.etcd).toBeTypeOf('number');
      process.kill(pids.apiserver!, 'SIGKILL');
      process.kill(pids.etcd!, 'SIGKILL');
      // Bring etcd and the apiserver back with their data, then change the spec while the watch reconnects.
      await ensureTestEnv(['apiserver']);
      await eventually(async () => {
        await cluster.client.patch(widgetType, { namespace: ns, name: 'w' }, { type: 'merge', body: { spec: { size: 5 } } });
        return true;
      }, 60_000, 'apiserver accepts writes again');
      await eventually(async () => (await cluster.client.get(widgetType, { namespace: ns, name: 'w' })).status?.observedGeneration === 2, 90_000, 'update reconciled after restart');
      expect(run.seen.some((s) => s.name === 'w' && s.generation === 2)).toBe(true);
    } finally {
      await run.stop();
    }
  });

  it('syncs a cache of 10,000 objects and reconciles each once', async () => {
    const ns = await freshNamespace(cluster, 'sync10k');
    namespaces.push(ns);
    const total = 10_000;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        const i = next++;
        await cluster.client.create(coreTypes.configMap, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: ns }, data: { index: String(i) } });
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const reconciled = new Set<string>();
    let calls = 0;
    const informers = new SharedInformers({ kubeConfig: cluster.kubeConfig }, { namespace: ns });
    const controller = new ControllerBuilder({ informers }, 'configmaps')
      .for(coreTypes.configMap)
      .withOptions({ maxConcurrentReconciles: 4 })
      .complete({
        reconcile(cm) {
          calls++;
          reconciled.add(cm.metadata?.name ?? '');
          return Promise.resolve(Result.done());
        },
      });
    const stop = new AbortController();
    const running = Promise.all([informers.run(stop.signal), controller.start(stop.signal)]);
    try {
      await informers.waitForSync();
      expect(informers.informerFor(coreTypes.configMap).store.size()).toBeGreaterThanOrEqual(total);
      await eventually(() => Promise.resolve(reconciled.size >= total), 60_000, 'every ConfigMap reconciled');
      // Each object once: the namespace may also hold kube-root-ca.crt, published by the controller-manager.
      expect([...reconciled].filter((name) => name.startsWith('cm-'))).toHaveLength(total);
      expect(calls).toBe(reconciled.size);
    } finally {
      stop.abort();
      await running;
    }
  });
});
