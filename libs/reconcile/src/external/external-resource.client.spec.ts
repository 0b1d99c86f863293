import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { getCondition } from '../core/conditions.ts';
import type { DeletionPolicy } from '../crd/crd.ts';
import type { ExternalAdapter, ExternalContext } from './external-adapter.ts';
import type { ExternalResourceOptions, ExternalResourceStatus } from './external-resource.ts';
import { ExternalResourceReconciler } from './external-resource.ts';
import type { FakeObserved, FakeSpec } from '../testing/external-resource.ts';
import { FakeObjects, InMemoryExternalSystem, RecordingRecorder } from '../testing/external-resource.ts';
import { silentLogger } from '../core/logger.ts';
import type { ReconcileContext } from '../controller/reconciler.ts';

interface Widget extends KubernetesObject {
  spec: { topic: string; deletionPolicy?: DeletionPolicy };
  status?: ExternalResourceStatus;
}

/** The client the tests bind: which external name it was built for. */
interface FakeClient {
  readonly boundTo: string;
}

const PREFIX = 'widgets.example.io';

/** The fake system, asking for its client on every call (as a real adapter does) and recording what it got. */
function clientAsking(system: InMemoryExternalSystem, seen: string[]): ExternalAdapter<Widget, FakeSpec, FakeObserved, FakeClient> {
  const ask = async (context: ExternalContext<Widget, FakeClient>): Promise<void> => {
    seen.push((await context.client()).boundTo);
  };
  return {
    observe: async (desired, context) => (await ask(context), system.observe(desired, context)),
    create: async (desired, context) => (await ask(context), system.create(desired, context)),
    update: async (desired, observed, context) => (await ask(context), system.update(desired, observed, context)),
    // The fake system keys objects by their bare name; the external name adds the connection.
    delete: async (target, context) => (await ask(context), system.delete({ ...target, externalName: target.externalName.replace(/^main\//, '') }, context)),
  };
}

function widget(name: string, topic: string): Widget {
  return {
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}`, generation: 1, creationTimestamp: '2026-12-01T00:00:00Z' as unknown as Date },
    spec: { topic, deletionPolicy: 'Delete' },
  };
}

function contextFor(object: Widget): ReconcileContext {
  return { request: { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' }, reconcileId: 'test', log: silentLogger, signal: new AbortController().signal };
}

function setup(client: ExternalResourceOptions<Widget, FakeSpec, FakeClient>['client']) {
  const objects = new FakeObjects<Widget>(`${PREFIX}/external`);
  const system = new InMemoryExternalSystem();
  const seen: string[] = [];
  const connects: string[] = [];
  const reconciler = new ExternalResourceReconciler<Widget, FakeSpec, FakeObserved, FakeClient>(
    { adapter: clientAsking(system, seen), claims: objects.claims((w) => `main/${w.spec.topic}`), finalizer: objects.finalizer, status: objects.statusWriter, events: new RecordingRecorder() },
    {
      annotationPrefix: PREFIX,
      connect: (w) => {
        connects.push(w.metadata?.name ?? '');
        return { externalName: `main/${w.spec.topic}`, desired: { name: w.spec.topic, config: {} } };
      },
      ...(client !== undefined && { client }),
      defaultDeletionPolicy: 'Retain',
      deletionPolicy: (w) => w.spec.deletionPolicy,
    },
  );
  const reconcile = (uid: string) => reconciler.reconcile(objects.current(uid), contextFor(objects.current(uid)));
  return { objects, system, seen, connects, reconcile };
}

describe('ExternalResourceReconciler: one connect and one client per reconcile', () => {
  it('connects once and builds the client once, for the external name, however many adapter calls ask for it', async () => {
    const built: string[] = [];
    const t = setup((externalName) => (built.push(externalName), Promise.resolve({ boundTo: externalName })));
    const object = widget('orders', 'orders');
    t.objects.put(object);

    await t.reconcile('uid-orders');

    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
    expect(t.seen).toEqual(['main/orders', 'main/orders']); // observe, then create
    expect(built).toEqual(['main/orders']);
    expect(t.connects).toEqual(['orders']);
  });

  it('a deletion binds the client to the recorded name, even when the spec now names another', async () => {
    const built: string[] = [];
    const t = setup((externalName) => (built.push(externalName), Promise.resolve({ boundTo: externalName })));
    t.objects.put(widget('orders', 'orders'));
    await t.reconcile('uid-orders');
    t.objects.edit('uid-orders', (w) => ({ ...w, spec: { ...w.spec, topic: 'renamed' } }));
    built.length = 0;
    t.seen.length = 0;

    t.objects.delete('uid-orders');
    await t.reconcile('uid-orders');

    expect(t.system.objects.has('orders')).toBe(false);
    expect(built).toEqual(['main/orders']);
    expect(t.seen).toEqual(['main/orders']);
  });

  it('a client that cannot be built (a missing Secret) fails the reconcile with its reason and touches nothing', async () => {
    const missing = Object.assign(new Error('Secret "team-a/login" not found'), { reason: 'SecretNotFound' });
    const t = setup(() => Promise.reject(missing));
    t.objects.put(widget('orders', 'orders'));

    await expect(t.reconcile('uid-orders')).rejects.toBe(missing);

    expect(t.system.writes()).toEqual([]);
    expect(getCondition(t.objects.current('uid-orders').status?.conditions, 'Ready')).toMatchObject({ status: 'False', reason: 'SecretNotFound' });
  });

  it('a kind that binds no client: an adapter asking for one fails the reconcile instead of getting undefined', async () => {
    const t = setup(undefined);
    t.objects.put(widget('orders', 'orders'));

    await expect(t.reconcile('uid-orders')).rejects.toThrow('no client is bound to main/orders');
    expect(t.system.writes()).toEqual([]);
  });
});
