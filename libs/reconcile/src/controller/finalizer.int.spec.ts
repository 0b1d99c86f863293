import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInvalid, isNotFound } from '../core/errors.ts';
import { clientEventSink, EventRecorder, eventType } from '../observability/events.ts';
import type { FinalizerHandlers } from './finalizer.ts';
import { forceDeleteAnnotation, withFinalizer } from './finalizer.ts';
import { Result } from '../core/result.ts';
import type { Widget } from '../testing/control-plane.ts';
import { deleteNamespace, eventually, freshNamespace, installWidgetCrd, liveCluster, widgetType } from '../testing/control-plane.ts';
import type { LiveCluster } from '../testing/control-plane.ts';

const GROUP = 'test.domain-operators.io';
const FINALIZER = `${GROUP}/cleanup`;

describe('withFinalizer against the real apiserver', () => {
  let cluster: LiveCluster;
  let recorder: EventRecorder;
  const namespaces: string[] = [];

  beforeAll(async () => {
    cluster = await liveCluster();
    await installWidgetCrd(cluster);
    recorder = new EventRecorder({ sink: clientEventSink(cluster.client) }, { reportingController: `${GROUP}/finalizer-int`, reportingInstance: 'finalizer-int-0' });
  });

  afterAll(async () => {
    await recorder.shutdown();
    for (const ns of namespaces) await deleteNamespace(cluster, ns);
  });

  async function setup(name: string) {
    const namespace = await freshNamespace(cluster, 'finalizer');
    namespaces.push(namespace);
    const request = { namespace, name };
    await cluster.client.create(widgetType, { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: request, spec: { size: 1 } });
    const calls: string[] = [];
    const handlers: FinalizerHandlers<Widget> & { failCleanup: boolean } = {
      finalizer: FINALIZER,
      failCleanup: false,
      apply: () => {
        calls.push('apply');
        return Promise.resolve(Result.done());
      },
      cleanup: () => {
        calls.push('cleanup');
        return handlers.failCleanup ? Promise.reject(new Error('backend refused the delete')) : Promise.resolve(Result.done());
      },
    };
    const deps = { client: cluster.client, type: widgetType, recorder, group: GROUP };
    const reconcile = async (): Promise<Result> => withFinalizer(await cluster.client.get(widgetType, request), handlers, deps);
    const gone = async (): Promise<boolean> => {
      try {
        await cluster.client.get(widgetType, request);
        return false;
      } catch (err) {
        if (isNotFound(err)) return true;
        throw err;
      }
    };
    const warnings = async (reason: string) =>
      (await cluster.client.listAll(eventType, { namespace })).filter((e) => e.type === 'Warning' && e.reason === reason && e.regarding.name === name);
    return { namespace, request, calls, handlers, reconcile, gone, warnings };
  }

  it('adds the finalizer on the first reconcile, and removes it after a successful cleanup so the object goes', async () => {
    const { request, calls, reconcile, gone } = await setup('w-ok');
    await reconcile();
    expect((await cluster.client.get(widgetType, request)).metadata?.finalizers).toEqual([FINALIZER]);
    await reconcile();
    expect((await cluster.client.get(widgetType, request)).metadata?.finalizers).toEqual([FINALIZER]);
    expect(calls).toEqual(['apply', 'apply']);

    await cluster.client.delete(widgetType, request);
    expect((await cluster.client.get(widgetType, request)).metadata?.deletionTimestamp).toBeDefined();
    await reconcile();
    expect(calls).toEqual(['apply', 'apply', 'cleanup']);
    await eventually(gone, 10_000, 'widget deleted');
  });

  it('keeps a object whose cleanup fails, with a Warning Event, until force-delete releases it', async () => {
    const { request, calls, handlers, reconcile, gone, warnings } = await setup('w-stuck');
    await reconcile();
    await cluster.client.delete(widgetType, request);
    handlers.failCleanup = true;
    await expect(reconcile()).rejects.toThrow('backend refused the delete');
    await expect(reconcile()).rejects.toThrow('backend refused the delete');

    const stuck = await cluster.client.get(widgetType, request);
    expect(stuck.metadata?.deletionTimestamp).toBeDefined();
    expect(stuck.metadata?.finalizers).toEqual([FINALIZER]);
    await eventually(async () => (await warnings('CleanupFailed')).length === 1, 10_000, 'CleanupFailed event');
    expect((await warnings('CleanupFailed'))[0]?.note).toContain('backend refused the delete');

    await cluster.client.patch(widgetType, request, { type: 'merge', body: { metadata: { annotations: { [forceDeleteAnnotation(GROUP)]: 'true' } } } });
    expect(await reconcile()).toEqual(Result.done());
    expect(calls).toEqual(['apply', 'cleanup', 'cleanup']);
    await eventually(gone, 10_000, 'widget deleted');
    await eventually(async () => (await warnings('ForceDeleted')).length === 1, 10_000, 'ForceDeleted event');
  });

  it('fails the add with 422 instead of overwriting a finalizer someone else added since the read', async () => {
    const { request, reconcile } = await setup('w-race');
    const stale = await cluster.client.get(widgetType, request);
    await cluster.client.patch(widgetType, request, { type: 'merge', body: { metadata: { finalizers: ['other.example.com/keep'] } } });
    const handlers = { finalizer: FINALIZER, apply: () => Promise.resolve(Result.done()), cleanup: () => Promise.resolve(Result.done()) };
    const error = await withFinalizer(stale, handlers, { client: cluster.client, type: widgetType, recorder, group: GROUP }).catch((err: unknown) => err);
    expect(isInvalid(error)).toBe(true);
    expect((await cluster.client.get(widgetType, request)).metadata?.finalizers).toEqual(['other.example.com/keep']);
    // With a fresh read it appends after the other finalizer.
    await reconcile();
    expect((await cluster.client.get(widgetType, request)).metadata?.finalizers).toEqual(['other.example.com/keep', FINALIZER]);
    await cluster.client.patch(widgetType, request, { type: 'merge', body: { metadata: { finalizers: null } } });
  });
});
