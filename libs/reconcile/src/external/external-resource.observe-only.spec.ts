import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { getCondition } from '../core/conditions.ts';
import type { DeletionPolicy } from '../crd/crd.ts';
import type { ExternalResourceStatus } from './external-resource.ts';
import { ExternalResourceReconciler } from './external-resource.ts';
import type { FakeObserved, FakeSpec } from '../testing/external-resource.ts';
import { FakeObjects, InMemoryExternalSystem, RecordingRecorder, withMeta } from '../testing/external-resource.ts';
import { kstatusVerdict } from '../testing/kstatus-rules.ts';
import { silentLogger } from '../core/logger.ts';
import type { ReconcileContext } from '../controller/reconciler.ts';

interface Widget extends KubernetesObject {
  spec: { topic: string; config: Record<string, string>; deletionPolicy?: DeletionPolicy };
  status?: ExternalResourceStatus;
}

const PREFIX = 'widgets.example.io';
const OBSERVE_ONLY = { [`${PREFIX}/observe-only`]: 'true' };

function widget(name: string, options: { annotations?: Record<string, string>; created?: string; config?: Record<string, string> } = {}): Widget {
  return {
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    metadata: {
      name,
      namespace: 'team-a',
      uid: `uid-${name}`,
      generation: 1,
      creationTimestamp: (options.created ?? '2026-12-01T00:00:00Z') as unknown as Date,
      ...(options.annotations !== undefined && { annotations: options.annotations }),
    },
    spec: { topic: 'orders', config: options.config ?? { partitions: '3' }, deletionPolicy: 'Delete' },
  };
}

function contextFor(object: Widget): ReconcileContext {
  return { request: { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' }, reconcileId: 'test', log: silentLogger, signal: new AbortController().signal };
}

function setup() {
  const objects = new FakeObjects<Widget>(`${PREFIX}/external`);
  const system = new InMemoryExternalSystem();
  const reconciler = new ExternalResourceReconciler<Widget, FakeSpec, FakeObserved>(
    { adapter: system, claims: objects.claims((w) => w.spec.topic), finalizer: objects.finalizer, status: objects.statusWriter, events: new RecordingRecorder(), random: () => 0.5 },
    {
      annotationPrefix: PREFIX,
      connect: (w) => ({ externalName: w.spec.topic, desired: { name: w.spec.topic, config: w.spec.config } }),
      defaultDeletionPolicy: 'Retain',
      deletionPolicy: (w) => w.spec.deletionPolicy,
      adoptExactMatch: true,
    },
  );
  const reconcile = (uid: string) => reconciler.reconcile(objects.current(uid), contextFor(objects.current(uid)));
  const condition = (uid: string, type: string) => getCondition(objects.current(uid).status?.conditions, type);
  return { objects, system, reconcile, condition };
}

describe('ExternalResourceReconciler: observe-only (import)', () => {
  it('reads an existing object into status and writes nothing to it, saying how it differs from the spec', async () => {
    const t = setup();
    t.system.objects.set('orders', { partitions: '6' });
    t.objects.put(widget('reader', { annotations: OBSERVE_ONLY }));

    await t.reconcile('uid-reader');

    expect(t.system.writes()).toEqual([]);
    expect(t.condition('uid-reader', 'Synced')).toMatchObject({ status: 'True', reason: 'Observed', message: 'observed; it differs from the spec: partitions: want 3, have 6' });
    expect(t.condition('uid-reader', 'Ready')).toMatchObject({ status: 'True', reason: 'Available', observedGeneration: 1 });
    expect(t.objects.current('uid-reader').status).toMatchObject({ externalName: 'orders', observedGeneration: 1 });
    expect(t.objects.current('uid-reader').status?.ownership).toBeUndefined();
    expect(t.objects.current('uid-reader').metadata?.finalizers ?? []).toEqual([]);
    expect(kstatusVerdict(t.objects.current('uid-reader'))).toBe('Current');
  });

  it('a missing object is Ready=False/ExternalNotFound and in progress, never created', async () => {
    const t = setup();
    t.objects.put(widget('reader', { annotations: OBSERVE_ONLY }));

    await t.reconcile('uid-reader');

    expect(t.system.writes()).toEqual([]);
    expect(t.condition('uid-reader', 'Ready')).toMatchObject({ status: 'False', reason: 'ExternalNotFound' });
    expect(kstatusVerdict(t.objects.current('uid-reader'))).toBe('InProgress');
  });

  it('a managed resource switched to observe-only drops its finalizer, and its deletion leaves the object', async () => {
    const t = setup();
    t.objects.put(widget('owner'));
    await t.reconcile('uid-owner');
    expect(t.objects.current('uid-owner').metadata?.finalizers).toEqual([`${PREFIX}/external`]);

    t.objects.edit('uid-owner', (w) => withMeta(w, { annotations: OBSERVE_ONLY }));
    await t.reconcile('uid-owner');
    expect(t.objects.current('uid-owner').metadata?.finalizers).toEqual([]);
    t.objects.delete('uid-owner');

    expect(t.objects.has('uid-owner')).toBe(false);
    expect(t.system.objects.get('orders')).toEqual({ partitions: '3' });
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
  });

  it('claims nothing: an older observe-only resource does not keep a managed one from the name', async () => {
    const t = setup();
    t.objects.put(widget('reader', { annotations: OBSERVE_ONLY, created: '2026-11-01T00:00:00Z' }));
    t.objects.put(widget('owner', { created: '2026-12-01T00:00:00Z' }));

    await t.reconcile('uid-reader');
    await t.reconcile('uid-owner');

    expect(t.condition('uid-owner', 'Ready')).toMatchObject({ status: 'True', reason: 'Available' });
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
  });
});
