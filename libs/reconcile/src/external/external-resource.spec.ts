import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Condition } from '../core/conditions.ts';
import { getCondition } from '../core/conditions.ts';
import { TerminalError } from '../core/errors.ts';
import type { DeletionPolicy } from '../crd/crd.ts';
import type { ExternalResourceOptions, ExternalResourceStatus, StatusWriter } from './external-resource.ts';
import { ExternalResourceReconciler } from './external-resource.ts';
import { statusChange } from '../status/status.ts';
import type { FakeObserved, FakeSpec } from '../testing/external-resource.ts';
import { FakeBackendError, FakeObjects, InMemoryExternalSystem, RecordingRecorder, withMeta } from '../testing/external-resource.ts';
import { silentLogger } from '../core/logger.ts';
import type { ReconcileContext } from '../controller/reconciler.ts';
import { Result } from '../core/result.ts';
import { kstatusVerdict } from '../testing/kstatus-rules.ts';

interface Widget extends KubernetesObject {
  spec: { topic?: string; tenant?: string; config: Record<string, string>; deletionPolicy?: DeletionPolicy };
  status?: ExternalResourceStatus;
}

const PREFIX = 'widgets.example.io';
const TEN_MINUTES = 600_000;

function externalNameOf(w: Widget): string {
  const name = w.spec.topic ?? w.metadata?.name ?? '';
  if (name.includes('/')) throw new TerminalError(`topic name ${name} may not contain "/"`, 'InvalidSpec');
  return name;
}

const kind: ExternalResourceOptions<Widget, FakeSpec> = {
  annotationPrefix: PREFIX,
  connect: (w) => {
    const externalName = externalNameOf(w);
    if (w.spec.tenant !== undefined && w.spec.tenant !== w.metadata?.namespace) {
      throw new TerminalError(`tenant ${w.spec.tenant} is not this namespace`, 'TenancyViolation');
    }
    return { externalName, desired: { name: externalName, config: w.spec.config } };
  },
  defaultDeletionPolicy: 'Retain',
  deletionPolicy: (w) => w.spec.deletionPolicy,
};

let uids = 0;

function widget(name: string, options: { topic?: string; config?: Record<string, string>; created?: string; uid?: string; annotations?: Record<string, string>; deletionPolicy?: DeletionPolicy; tenant?: string } = {}): Widget {
  return {
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    metadata: {
      name,
      namespace: 'team-a',
      uid: options.uid ?? `uid-${String(++uids).padStart(4, '0')}`,
      generation: 1,
      creationTimestamp: (options.created ?? '2026-12-01T00:00:00Z') as unknown as Date,
      ...(options.annotations !== undefined && { annotations: options.annotations }),
    },
    spec: {
      config: options.config ?? { partitions: '3' },
      ...(options.topic !== undefined && { topic: options.topic }),
      ...(options.deletionPolicy !== undefined && { deletionPolicy: options.deletionPolicy }),
      ...(options.tenant !== undefined && { tenant: options.tenant }),
    },
  };
}

function setup(options: Partial<ExternalResourceOptions<Widget, FakeSpec>> = {}, statusWriter?: (objects: FakeObjects<Widget>) => StatusWriter<Widget>) {
  const objects = new FakeObjects<Widget>(`${PREFIX}/external`);
  const system = new InMemoryExternalSystem();
  const recorder = new RecordingRecorder();
  const random = { value: 0.5 };
  const newReconciler = (): ExternalResourceReconciler<Widget, FakeSpec, FakeObserved> =>
    new ExternalResourceReconciler<Widget, FakeSpec, FakeObserved>(
      {
        adapter: system,
        claims: objects.claims(externalNameOf),
        finalizer: objects.finalizer,
        status: statusWriter?.(objects) ?? objects.statusWriter,
        events: recorder,
        now: () => new Date('2026-12-01T12:00:00Z'),
        random: () => random.value,
      },
      { ...kind, ...options },
    );
  let reconciler = newReconciler();
  const add = (w: Widget): string => {
    objects.put(w);
    return w.metadata!.uid!;
  };
  return {
    objects,
    system,
    recorder,
    random,
    add,
    /** A new process: same cluster and backend, no memory. */
    restart: () => {
      reconciler = newReconciler();
    },
    reconcileObject: (object: Widget) => reconciler.reconcile(object, contextFor(object)),
    forget: (uid: string) => {
      reconciler.forget(contextFor(objects.current(uid)).request);
    },
    reconcile: (uid: string) => reconciler.reconcile(objects.current(uid), contextFor(objects.current(uid))),
    status: (uid: string): ExternalResourceStatus => objects.current(uid).status ?? {},
    condition: (uid: string, type: string): Condition | undefined => getCondition(objects.current(uid).status?.conditions, type),
  };
}

function statusField(object: KubernetesObject | undefined, field: string): unknown {
  const status = (object as { status?: Record<string, unknown> } | undefined)?.status;
  return status?.[field];
}

function contextFor(object: Widget): ReconcileContext {
  return { request: { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' }, reconcileId: 'test', log: silentLogger, signal: new AbortController().signal };
}

function withAnnotation(name: string, value: string | undefined): (w: Widget) => Widget {
  return (w) => {
    const annotations = { ...w.metadata?.annotations };
    if (value === undefined) Reflect.deleteProperty(annotations, `${PREFIX}/${name}`);
    else annotations[`${PREFIX}/${name}`] = value;
    return withMeta(w, { annotations });
  };
}

describe('ExternalResourceReconciler: create and steady state', () => {
  it('creates the external object, records ownership, reports Synced and Ready, and requeues after the drift interval', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));

    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(TEN_MINUTES));

    expect(t.system.objects.get('orders')).toEqual({ partitions: '3' });
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
    expect(t.status(uid)).toMatchObject({ externalName: 'orders', ownership: 'Created', observedGeneration: 1 });
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess', observedGeneration: 1 });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True', reason: 'Available', observedGeneration: 1 });
    expect(t.recorder.events).toEqual([{ type: 'Normal', reason: 'Created', action: 'Create', note: 'created orders', regarding: 'orders' }]);
  });

  it('at steady state only observes: no external write, no status write, no event', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    const writes = t.objects.statusWrites;
    t.system.calls.length = 0;
    t.recorder.events.length = 0;

    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(TEN_MINUTES));

    expect(t.system.calls).toEqual([{ op: 'observe', name: 'orders' }]);
    expect(t.objects.statusWrites).toBe(writes);
    expect(t.recorder.events).toEqual([]);
  });

  it('updates the external object when the spec changes (an Updated event, not drift)', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.objects.edit(uid, (w) => ({ ...w, spec: { ...w.spec, config: { partitions: '6' } } }));

    await t.reconcile(uid);

    expect(t.system.objects.get('orders')).toEqual({ partitions: '6' });
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }, { op: 'update', name: 'orders' }]);
    expect(t.status(uid).observedGeneration).toBe(2);
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'True', observedGeneration: 2 });
    expect(t.recorder.events.map((e) => e.reason)).toEqual(['Created', 'Updated']);
    expect(t.recorder.events[1]?.note).toContain('partitions: want 6, have 3');
  });

  it('survives a crash between the create and the status write: the pending claim makes the object ours', async () => {
    let failAfter = Number.POSITIVE_INFINITY;
    const t = setup({}, (objects) => ({
      patchStatus: (object, desired, now) => (failAfter-- <= 0 ? Promise.reject(new Error('apiserver gone')) : objects.statusWriter.patchStatus(object, desired, now)),
    }));
    const uid = t.add(widget('orders'));
    failAfter = 1; // the CreatePending write succeeds, the final write fails
    await expect(t.reconcile(uid)).rejects.toThrow('apiserver gone');
    expect(t.status(uid).ownership).toBe('CreatePending');
    failAfter = Number.POSITIVE_INFINITY;
    t.restart();

    await t.reconcile(uid);

    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
    expect(t.status(uid).ownership).toBe('Created');
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True' });
  });

  it('does not mistake its own object for a foreign one when the cache is stale after the create', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    const stale = t.objects.current(uid);
    await t.reconcile(uid);

    // The cached copy still lacks the finalizer and the status we wrote.
    await t.reconcileObject(withMeta(stale, { finalizers: [`${PREFIX}/external`] }));

    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess' });
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
  });

  it('refuses to change the external name of a managed object (ExternalNameChanged) and touches nothing', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.system.calls.length = 0;
    t.objects.edit(uid, (w) => ({ ...w, spec: { ...w.spec, topic: 'orders-v2' } }));

    await expect(t.reconcile(uid)).rejects.toMatchObject({ name: 'TerminalError', reason: 'ExternalNameChanged' });

    expect(t.system.calls).toEqual([]);
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'ExternalNameChanged' });
    // The new spec is not applied and will not be without a change: not Ready, and stalled for kstatus.
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'False', reason: 'ExternalNameChanged', observedGeneration: 2 });
    expect(t.condition(uid, 'Stalled')).toMatchObject({ status: 'True', reason: 'ExternalNameChanged', observedGeneration: 2 });
    expect(t.condition(uid, 'Reconciling')).toBeUndefined();
  });
});

describe('ExternalResourceReconciler: ownership and adoption', () => {
  it('leaves an existing unowned object untouched: AlreadyExists with the diff in the message', async () => {
    const t = setup();
    t.system.createByHand('orders', { partitions: '12' });
    const uid = t.add(widget('orders'));

    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(TEN_MINUTES));

    expect(t.system.writes()).toEqual([]);
    expect(t.system.objects.get('orders')).toEqual({ partitions: '12' });
    expect(t.status(uid).ownership).toBeUndefined();
    for (const type of ['Synced', 'Ready']) {
      const condition = t.condition(uid, type);
      expect(condition).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
      expect(condition?.message).toContain('partitions: want 3, have 12');
      expect(condition?.message).toContain(`${PREFIX}/adopt`);
    }
  });

  it('adopts an existing object only with the adopt annotation, then brings it to the spec', async () => {
    const t = setup();
    t.system.createByHand('orders', { partitions: '12' });
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    expect(t.system.writes()).toEqual([]);

    t.objects.edit(uid, withAnnotation('adopt', 'true'));
    await t.reconcile(uid);

    expect(t.system.writes()).toEqual([{ op: 'update', name: 'orders' }]);
    expect(t.system.objects.get('orders')).toEqual({ partitions: '3' });
    expect(t.status(uid)).toMatchObject({ externalName: 'orders', ownership: 'Adopted' });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True', reason: 'Available' });
    expect(t.recorder.events.map((e) => e.reason)).toEqual(['Adopted']);
  });

  it('adopts an exact match without the annotation when the kind allows it, and only an exact match', async () => {
    const t = setup({ adoptExactMatch: true });
    t.system.createByHand('orders', { partitions: '3' });
    t.system.createByHand('payments', { partitions: '1' });
    const exact = t.add(widget('orders'));
    const different = t.add(widget('payments'));

    await t.reconcile(exact);
    await t.reconcile(different);

    expect(t.system.writes()).toEqual([]);
    expect(t.status(exact).ownership).toBe('Adopted');
    expect(t.condition(exact, 'Synced')).toMatchObject({ status: 'True' });
    expect(t.status(different).ownership).toBeUndefined();
    expect(t.condition(different, 'Synced')).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
  });

  it('does not adopt an exact match when the kind does not allow it', async () => {
    const t = setup();
    t.system.createByHand('orders', { partitions: '3' });
    const uid = t.add(widget('orders'));

    await t.reconcile(uid);

    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
    expect(t.condition(uid, 'Synced')?.message).toContain('it matches the spec');
  });
});

describe('ExternalResourceReconciler: conflicts', () => {
  it('lets the older claimant win; the newer touches nothing and names the winner', async () => {
    const t = setup();
    const newer = t.add(widget('orders-b', { topic: 'orders', created: '2026-12-01T00:00:05Z', config: { partitions: '9' } }));
    const older = t.add(widget('orders-a', { topic: 'orders', created: '2026-12-01T00:00:00Z' }));

    await t.reconcile(newer);
    expect(t.system.calls).toEqual([]);
    const conflict = t.condition(newer, 'Synced');
    expect(conflict).toMatchObject({ status: 'False', reason: 'ResourceConflict' });
    expect(conflict?.message).toContain(`team-a/orders-a (uid ${older})`);
    expect(t.condition(newer, 'Ready')).toMatchObject({ status: 'False', reason: 'ResourceConflict' });

    await t.reconcile(older);
    expect(t.system.objects.get('orders')).toEqual({ partitions: '3' });
    await t.reconcile(newer);
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
  });

  it('hands the name to the newer claimant once the older is deleted', async () => {
    const t = setup();
    const older = t.add(widget('orders-a', { topic: 'orders', created: '2026-12-01T00:00:00Z', deletionPolicy: 'Delete' }));
    const newer = t.add(widget('orders-b', { topic: 'orders', created: '2026-12-01T00:00:05Z', config: { partitions: '9' } }));
    await t.reconcile(older);
    await t.reconcile(newer);
    expect(t.condition(newer, 'Synced')?.reason).toBe('ResourceConflict');

    t.objects.delete(older);
    // While the older is being deleted it still holds the name.
    await t.reconcile(newer);
    expect(t.condition(newer, 'Synced')?.reason).toBe('ResourceConflict');
    await t.reconcile(older);
    expect(t.objects.has(older)).toBe(false);

    await t.reconcile(newer);
    expect(t.system.objects.get('orders')).toEqual({ partitions: '9' });
    expect(t.status(newer)).toMatchObject({ ownership: 'Created' });
    expect(t.condition(newer, 'Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess' });
  });

  it('breaks a same-second tie by uid, but never takes the name from the claimant that manages it', async () => {
    const t = setup();
    const owner = t.add(widget('orders-a', { topic: 'orders', uid: 'uid-z' }));
    await t.reconcile(owner);
    const sameSecond = t.add(widget('orders-b', { topic: 'orders', uid: 'uid-a' }));

    await t.reconcile(sameSecond);
    await t.reconcile(owner);

    expect(t.condition(sameSecond, 'Synced')?.reason).toBe('ResourceConflict');
    expect(t.condition(owner, 'Synced')?.reason).toBe('ReconcileSuccess');
  });
});

describe('ExternalResourceReconciler: pause', () => {
  it('makes no adapter call while paused, keeps Ready, and resumes when the annotation goes', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.system.calls.length = 0;
    t.objects.edit(uid, (w) => withAnnotation('paused', 'true')({ ...w, spec: { ...w.spec, config: { partitions: '6' } } }));

    await expect(t.reconcile(uid)).resolves.toEqual(Result.done());

    expect(t.system.calls).toEqual([]);
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'Paused' });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True', reason: 'Available', observedGeneration: 1 });

    t.objects.edit(uid, withAnnotation('paused', undefined));
    await t.reconcile(uid);
    expect(t.system.objects.get('orders')).toEqual({ partitions: '6' });
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess' });
  });

  it('does not even add the finalizer to a resource that is paused from the start', async () => {
    const t = setup();
    const uid = t.add(widget('orders', { annotations: { [`${PREFIX}/paused`]: 'true' } }));

    await t.reconcile(uid);

    expect(t.system.calls).toEqual([]);
    expect(t.objects.current(uid).metadata?.finalizers).toBeUndefined();
    expect(t.condition(uid, 'Ready')).toBeUndefined();
  });

  it('on deletion while paused: Delete of an owned object waits (finalizer kept, Paused); Retain releases at once', async () => {
    const t = setup();
    const deleting = t.add(widget('orders', { deletionPolicy: 'Delete' }));
    const retaining = t.add(widget('payments', { deletionPolicy: 'Delete' }));
    await t.reconcile(deleting);
    await t.reconcile(retaining);
    t.system.calls.length = 0;
    // Paused first, so the switch to Retain cannot release the finalizer before the deletion.
    t.objects.edit(retaining, withAnnotation('paused', 'true'));
    t.objects.edit(retaining, (w) => ({ ...w, spec: { ...w.spec, deletionPolicy: 'Retain' } }));
    t.objects.edit(deleting, withAnnotation('paused', 'true'));
    for (const uid of [deleting, retaining]) t.objects.delete(uid);

    await expect(t.reconcile(deleting)).resolves.toEqual(Result.checkDriftAfter(TEN_MINUTES));
    await t.reconcile(retaining);

    expect(t.system.calls).toEqual([]);
    expect(t.objects.has(deleting)).toBe(true);
    expect(t.condition(deleting, 'Synced')).toMatchObject({ status: 'False', reason: 'Paused' });
    expect(t.objects.has(retaining)).toBe(false);

    t.objects.edit(deleting, withAnnotation('paused', undefined));
    await t.reconcile(deleting);
    expect(t.objects.has(deleting)).toBe(false);
    expect(t.system.objects.has('orders')).toBe(false);
  });
});

describe('ExternalResourceReconciler: deletion', () => {
  it('Retain (the kind default here) adds no finalizer: the resource goes at once and the external object stays', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    expect(t.objects.current(uid).metadata?.finalizers).toBeUndefined();

    t.objects.delete(uid);

    expect(t.objects.has(uid)).toBe(false);
    expect(t.system.objects.get('orders')).toEqual({ partitions: '3' });
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
  });

  it('Delete adds the finalizer before touching the external system; a switch to Retain removes it, back to Delete adds it', async () => {
    const t = setup();
    const uid = t.add(widget('orders', { deletionPolicy: 'Delete' }));
    t.system.fail('observe', new Error('backend down'));
    await expect(t.reconcile(uid)).rejects.toThrow('backend down');
    expect(t.objects.current(uid).metadata?.finalizers).toEqual([`${PREFIX}/external`]);
    t.system.heal();
    await t.reconcile(uid);

    t.objects.edit(uid, (w) => ({ ...w, spec: { ...w.spec, deletionPolicy: 'Retain' } }));
    await t.reconcile(uid);
    expect(t.objects.current(uid).metadata?.finalizers).toEqual([]);
    expect(t.objects.finalizerReleases).toBe(1);

    t.objects.edit(uid, (w) => ({ ...w, spec: { ...w.spec, deletionPolicy: 'Delete' } }));
    await t.reconcile(uid);
    expect(t.objects.current(uid).metadata?.finalizers).toEqual([`${PREFIX}/external`]);
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
  });

  it('Delete deletes the owned external object first, then releases', async () => {
    const t = setup();
    const uid = t.add(widget('orders', { deletionPolicy: 'Delete' }));
    await t.reconcile(uid);
    t.objects.delete(uid);

    await t.reconcile(uid);

    expect(t.objects.has(uid)).toBe(false);
    expect(t.system.objects.has('orders')).toBe(false);
    expect(t.recorder.events.map((e) => e.reason)).toEqual(['Created', 'Deleted']);
  });

  it('a kind whose default is Delete deletes without a per-resource policy', async () => {
    const t = setup({ defaultDeletionPolicy: 'Delete' });
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.objects.delete(uid);

    await t.reconcile(uid);

    expect(t.system.objects.has('orders')).toBe(false);
  });

  it('Delete never deletes what it does not own (AlreadyExists, or the loser of a conflict)', async () => {
    const t = setup();
    t.system.createByHand('orders', { partitions: '12' });
    const foreign = t.add(widget('orders', { deletionPolicy: 'Delete' }));
    const winner = t.add(widget('payments-a', { topic: 'payments', created: '2026-12-01T00:00:00Z' }));
    const loser = t.add(widget('payments-b', { topic: 'payments', created: '2026-12-01T00:00:09Z', deletionPolicy: 'Delete' }));
    for (const uid of [foreign, winner, loser]) await t.reconcile(uid);

    for (const uid of [foreign, loser]) {
      t.objects.delete(uid);
      await t.reconcile(uid);
      expect(t.objects.has(uid)).toBe(false);
    }

    expect(t.system.objects.get('orders')).toEqual({ partitions: '12' });
    expect(t.system.objects.get('payments')).toEqual({ partitions: '3' });
    expect(t.system.calls.filter((c) => c.op === 'delete')).toEqual([]);
  });

  it('deletes by name when the spec can no longer be computed', async () => {
    const t = setup();
    const uid = t.add(widget('orders', { deletionPolicy: 'Delete' }));
    await t.reconcile(uid);
    t.objects.edit(uid, (w) => ({ ...w, spec: { ...w.spec, tenant: 'someone-else' } }));
    t.objects.delete(uid);

    await t.reconcile(uid);

    expect(t.system.objects.has('orders')).toBe(false);
    expect(t.objects.has(uid)).toBe(false);
  });

  it('keeps the finalizer and reports the reason when the external delete fails', async () => {
    const t = setup();
    const uid = t.add(widget('orders', { deletionPolicy: 'Delete' }));
    await t.reconcile(uid);
    t.objects.delete(uid);
    t.system.fail('delete', new FakeBackendError('broker 1 unreachable', 'KafkaUnavailable'));

    await expect(t.reconcile(uid)).rejects.toThrow('broker 1 unreachable');

    expect(t.objects.has(uid)).toBe(true);
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'KafkaUnavailable', message: 'broker 1 unreachable' });
    t.system.heal();
    await t.reconcile(uid);
    expect(t.objects.has(uid)).toBe(false);
  });
});

describe('ExternalResourceReconciler: drift', () => {
  it('corrects a change made by hand and records a DriftCorrected event with the diff', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.system.editByHand('orders', { partitions: '1', 'cleanup.policy': 'compact' });

    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(TEN_MINUTES));

    expect(t.system.objects.get('orders')).toEqual({ partitions: '3' });
    const drift = t.recorder.events.at(-1);
    expect(drift).toMatchObject({ type: 'Normal', reason: 'DriftCorrected', action: 'Update' });
    expect(drift?.note).toContain('partitions: want 3, have 1');
    expect(drift?.note).toContain('cleanup.policy: want (unset), have compact');
  });

  it('recreates an owned object deleted by hand, as drift', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.system.deleteByHand('orders');

    await t.reconcile(uid);

    expect(t.system.objects.get('orders')).toEqual({ partitions: '3' });
    expect(t.recorder.events.at(-1)).toMatchObject({ reason: 'DriftCorrected', action: 'Create' });
    expect(t.status(uid).ownership).toBe('Created');
  });

  it('turns Ready False when an owned object is seen missing and its re-create fails, and True again once recreated', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.system.deleteByHand('orders');
    t.system.fail('create', new FakeBackendError('broker 1 unreachable', 'KafkaUnavailable'));

    await expect(t.reconcile(uid)).rejects.toThrow('broker 1 unreachable');

    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'False', reason: 'KafkaUnavailable', message: 'broker 1 unreachable' });
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'KafkaUnavailable' });
    t.system.heal();
    await t.reconcile(uid);
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True', reason: 'Available' });
  });

  it('keeps Ready as it was when a later sync of an object that exists fails', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.system.editByHand('orders', { partitions: '1' });
    t.system.fail('update', new FakeBackendError('backend refused', 'BackendRefused'));

    await expect(t.reconcile(uid)).rejects.toThrow('backend refused');

    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True', reason: 'Available' });
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'BackendRefused' });
  });

  it('never shows a secret in a drift event', async () => {
    const t = setup();
    const uid = t.add(widget('app-user', { config: { password: 's3cr3t-value' } }));
    await t.reconcile(uid);
    t.system.editByHand('app-user', { password: 'hunter2' });

    await t.reconcile(uid);

    const text = JSON.stringify([t.recorder.events, t.status(uid)]);
    expect(text).toContain('password: differs');
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('hunter2');
  });

  it('jitters the drift interval by ±10 % and honours the per-kind and per-resource intervals', async () => {
    const t = setup({ driftCheckIntervalMs: 120_000 });
    const uid = t.add(widget('orders'));
    t.random.value = 0;
    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(108_000));
    t.random.value = 0.999_999;
    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(132_000));

    t.random.value = 0.5;
    t.objects.edit(uid, withAnnotation('drift-check-interval', '5m'));
    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(300_000));
    t.objects.edit(uid, withAnnotation('drift-check-interval', '1s'));
    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(10_000));
    t.objects.edit(uid, withAnnotation('drift-check-interval', 'soon'));
    await expect(t.reconcile(uid)).resolves.toEqual(Result.checkDriftAfter(120_000));
  });
});

describe('ExternalResourceReconciler: the adapter\'s status fields', () => {
  it('are written in the same patch as the conditions, and a steady state writes nothing', async () => {
    const t = setup();
    t.system.offerStatusFields = true;
    const uid = t.add(widget('orders', { config: { partitions: '3', retention: '1d' } }));

    await t.reconcile(uid);

    // The pending claim before the create, then conditions, ownership and the adapter's fields in one patch.
    expect(t.objects.statusWrites).toBe(2);
    expect(t.status(uid)).toMatchObject({ ownership: 'Created', keys: 2 });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True' });

    await t.reconcile(uid);
    expect(t.objects.statusWrites).toBe(2);
  });

  it('go out with a failure as well, in its one status write', async () => {
    const t = setup();
    t.system.offerStatusFields = true;
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    const writes = t.objects.statusWrites;
    t.system.editByHand('orders', { extra: 'by hand' });
    t.system.fail('update', new FakeBackendError('backend refused', 'BackendRefused'));

    await expect(t.reconcile(uid)).rejects.toThrow('backend refused');

    expect(t.objects.statusWrites).toBe(writes + 1);
    expect(t.status(uid)).toMatchObject({ keys: 2 });
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'BackendRefused' });
  });
});

describe('ExternalResourceReconciler: one status path', () => {
  /** A status writer that records what each patch changed, on top of the fake objects. */
  function recordingSetup() {
    const changes: Record<string, unknown>[] = [];
    const t = setup({}, (objects) => ({
      patchStatus: (object, desired, now) => {
        const change = statusChange(object, desired, now);
        if (change !== undefined) changes.push(change);
        return objects.statusWriter.patchStatus(object, desired, now);
      },
    }));
    return { t, changes };
  }

  it('never moves observedGeneration ahead of the conditions: a failed update leaves it at the generation last applied (kstatus: InProgress)', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    t.objects.edit(uid, (w) => ({ ...w, spec: { ...w.spec, config: { partitions: '6' } } }));
    t.system.fail('update', new FakeBackendError('backend refused', 'BackendRefused'));

    await expect(t.reconcile(uid)).rejects.toThrow('backend refused');

    expect(t.status(uid).observedGeneration).toBe(1);
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'BackendRefused', observedGeneration: 2 });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True', observedGeneration: 1 });
    expect(kstatusVerdict(t.objects.current(uid))).toBe('InProgress');

    t.system.heal();
    await t.reconcile(uid);
    expect(t.status(uid).observedGeneration).toBe(2);
    expect(t.status(uid).conditions?.map((c) => c.observedGeneration)).toEqual([2, 2]);
  });

  it('writes the pending claim as fields alone, and observedGeneration only with every condition', async () => {
    const { t, changes } = recordingSetup();
    const uid = t.add(widget('orders'));

    await t.reconcile(uid);

    expect(changes).toHaveLength(2);
    expect(changes[0]).toEqual({ externalName: 'orders', ownership: 'CreatePending' });
    expect(changes[1]).toMatchObject({ ownership: 'Created', observedGeneration: 1 });
    expect(changes[1]?.['conditions']).toHaveLength(2);
  });

  it('writes one status patch per create for an adapter that marks its creates: no CreatePending, the intent with the rest', async () => {
    const { t, changes } = recordingSetup();
    t.system.marksCreator = true;
    t.system.recordIntent = true;
    const uid = t.add(widget('orders'));

    await t.reconcile(uid);

    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ intended: ['partitions'], externalName: 'orders', ownership: 'Created', observedGeneration: 1 });
    expect(t.system.marks.get('orders')).toBe(uid);
    expect(t.recorder.events.map((e) => e.reason)).toEqual(['Created']);
  });

  it('takes an object marked with its own UID as its create whose status write was lost, and one marked by another as foreign', async () => {
    const { t, changes } = recordingSetup();
    t.system.marksCreator = true;
    const uid = t.add(widget('orders'));
    // A create that went through, then the process died before its status write.
    t.system.createByHand('orders', { partitions: '3' });
    t.system.marks.set('orders', uid);
    await t.reconcile(uid);
    expect(t.status(uid)).toMatchObject({ externalName: 'orders', ownership: 'Created' });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True' });
    expect(t.system.writes()).toEqual([]);
    expect(changes).toHaveLength(1);

    const other = t.add(widget('invoices'));
    t.system.createByHand('invoices', { partitions: '3' });
    t.system.marks.set('invoices', 'uid-of-someone-else');
    await t.reconcile(other);
    expect(t.condition(other, 'Synced')).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
    expect(t.status(other).ownership).toBeUndefined();
  });

  it("writes the adapter's intent ahead of a create and of an update, and the adapter reads it from the object", async () => {
    const { t, changes } = recordingSetup();
    t.system.recordIntent = true;
    const uid = t.add(widget('orders', { config: { partitions: '3' } }));

    await t.reconcile(uid);
    expect(changes[0]).toEqual({ intended: ['partitions'], externalName: 'orders', ownership: 'CreatePending' });
    expect(statusField(t.system.seen[0], 'intended')).toEqual(['partitions']);

    t.objects.edit(uid, (w) => ({ ...w, spec: { ...w.spec, config: { partitions: '3', retention: '1d' } } }));
    changes.length = 0;
    await t.reconcile(uid);

    expect(changes[0]).toEqual({ intended: ['partitions', 'retention'] });
    expect(statusField(t.system.seen[1], 'intended')).toEqual(['partitions', 'retention']);
    expect(changes[1]).toMatchObject({ observedGeneration: 2 });
    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }, { op: 'update', name: 'orders' }]);
  });

  it('reads its own writes until the cache shows them, then forgets them', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    const stale = t.objects.current(uid);
    await t.reconcile(uid);
    // The cache catches up: a reconcile of the fresh object drops the memory of the write.
    await t.reconcile(uid);

    await t.reconcileObject(stale);

    // Judged on the stale copy alone, our own object looks foreign: proof that nothing was kept.
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
  });

  it('with its memory, the same stale read is seen with our own write (what the tests around it take away)', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    const stale = t.objects.current(uid);
    await t.reconcile(uid);

    await t.reconcileObject(stale);

    // Still remembered: the stale copy is seen with our own write, so nothing changes.
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess' });
    expect(t.recorder.events.map((e) => e.reason)).toEqual(['Created']);
  });

  it('forgets an object when the controller reports it deleted (forget), without a reconcile', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    const stale = t.objects.current(uid);
    await t.reconcile(uid);

    t.forget(uid);
    await t.reconcileObject(stale);

    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
  });
});

describe('ExternalResourceReconciler: errors', () => {
  it.each([
    ['an invalid external name', widget('bad', { topic: 'a/b' }), 'InvalidSpec'],
    ['a tenancy violation', widget('orders', { tenant: 'team-b' }), 'TenancyViolation'],
  ])('writes the terminal reason for %s, touches nothing external, and rethrows the TerminalError', async (_what, object, reason) => {
    const t = setup();
    const uid = t.add(object);

    await expect(t.reconcile(uid)).rejects.toMatchObject({ name: 'TerminalError', reason });

    expect(t.system.calls).toEqual([]);
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason, observedGeneration: 1 });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'False', reason });
    expect(t.status(uid).observedGeneration).toBe(1);
  });

  it('looks again after the drift interval at a refusal whose reason is listed as rechecked, instead of waiting for a change', async () => {
    const t = setup({ recheckedReasons: ['TenancyViolation'] });
    const refused = t.add(widget('orders', { tenant: 'team-b' }));
    const invalid = t.add(widget('bad', { topic: 'a/b' }));

    await expect(t.reconcile(refused)).resolves.toEqual(Result.checkDriftAfter(TEN_MINUTES));
    expect(t.condition(refused, 'Synced')).toMatchObject({ status: 'False', reason: 'TenancyViolation' });
    expect(t.condition(refused, 'Ready')).toMatchObject({ status: 'False', reason: 'TenancyViolation' });
    // A reason not listed still waits for a change.
    await expect(t.reconcile(invalid)).rejects.toMatchObject({ name: 'TerminalError', reason: 'InvalidSpec' });
    expect(t.system.calls).toEqual([]);

    // Once the world (here: the spec) allows it, the next look creates the object.
    t.objects.edit(refused, (w) => ({ ...w, spec: { ...w.spec, tenant: 'team-a' } }));
    await expect(t.reconcile(refused)).resolves.toEqual(Result.checkDriftAfter(TEN_MINUTES));
    expect(t.condition(refused, 'Ready')).toMatchObject({ status: 'True' });
  });

  it('surfaces a retryable error with its own reason, writes status first, then rethrows', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    await t.reconcile(uid);
    const failure = new FakeBackendError('no broker reachable at kafka:9092', 'KafkaUnavailable');
    t.system.fail('observe', failure);

    await expect(t.reconcile(uid)).rejects.toBe(failure);

    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'KafkaUnavailable', message: 'no broker reachable at kafka:9092' });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True', reason: 'Available' });

    t.system.heal();
    await t.reconcile(uid);
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess' });
  });

  it('uses ReconcileError for an error without a usable reason', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    t.system.fail('create', Object.assign(new Error('socket hang up'), { reason: 'not camel case!' }));

    await expect(t.reconcile(uid)).rejects.toThrow('socket hang up');

    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'ReconcileError', message: 'socket hang up' });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'False', reason: 'ReconcileError' });
  });

  it('still rethrows the original error when the status write fails too', async () => {
    const t = setup({}, () => ({ patchStatus: () => Promise.reject(new Error('apiserver down')) }));
    const uid = t.add(widget('orders'));
    const failure = new FakeBackendError('auth failed for user operator', 'AuthenticationFailed');
    t.system.fail('observe', failure);

    await expect(t.reconcile(uid)).rejects.toBe(failure);
  });
});

describe('ExternalResourceReconciler: what kstatus (Flux, kpt) reads', () => {
  const verdict = (t: ReturnType<typeof setup>, uid: string): string => kstatusVerdict(t.objects.current(uid));

  it('a created object is Current, with neither Stalled nor Reconciling', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    expect(verdict(t, uid)).toBe('Current'); // no status yet: kstatus cannot tell; our tools wait for Ready as well
    await t.reconcile(uid);
    expect(verdict(t, uid)).toBe('Current');
    expect(t.condition(uid, 'Stalled')).toBeUndefined();
    expect(t.condition(uid, 'Reconciling')).toBeUndefined();
  });

  it('terminal refusals are Failed at once: TenancyViolation, AlreadyExists, ResourceConflict', async () => {
    const t = setup();
    const tenancy = t.add(widget('tenancy', { tenant: 'team-b' }));
    await expect(t.reconcile(tenancy)).rejects.toMatchObject({ reason: 'TenancyViolation' });
    expect(verdict(t, tenancy)).toBe('Failed');
    expect(t.condition(tenancy, 'Stalled')).toMatchObject({ status: 'True', reason: 'TenancyViolation', observedGeneration: 1 });
    expect(t.condition(tenancy, 'Ready')).toMatchObject({ status: 'False', reason: 'TenancyViolation' });

    t.system.createByHand('foreign', { partitions: '3' });
    const foreign = t.add(widget('foreign'));
    await t.reconcile(foreign);
    expect(verdict(t, foreign)).toBe('Failed');
    expect(t.condition(foreign, 'Stalled')).toMatchObject({ reason: 'AlreadyExists' });
    t.objects.edit(foreign, withAnnotation('adopt', 'true'));
    await t.reconcile(foreign);
    expect(verdict(t, foreign)).toBe('Current');
    expect(t.condition(foreign, 'Stalled')).toBeUndefined();

    const older = t.add(widget('a', { topic: 'shared', created: '2026-12-01T00:00:00Z' }));
    const newer = t.add(widget('b', { topic: 'shared', created: '2026-12-01T00:00:09Z' }));
    await t.reconcile(older);
    await t.reconcile(newer);
    expect(verdict(t, older)).toBe('Current');
    expect(verdict(t, newer)).toBe('Failed');
    expect(t.condition(newer, 'Stalled')).toMatchObject({ reason: 'ResourceConflict' });
  });

  it('a retryable failure is InProgress (Reconciling) and Current again once it passes', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    t.system.fail('observe', new FakeBackendError('no broker reachable', 'KafkaUnavailable'));
    await expect(t.reconcile(uid)).rejects.toThrow('no broker reachable');
    expect(verdict(t, uid)).toBe('InProgress');
    expect(t.condition(uid, 'Reconciling')).toMatchObject({ status: 'True', reason: 'KafkaUnavailable' });
    expect(t.condition(uid, 'Stalled')).toBeUndefined();

    t.system.heal();
    await t.reconcile(uid);
    expect(verdict(t, uid)).toBe('Current');
    expect(t.condition(uid, 'Reconciling')).toBeUndefined();
  });

  it('waiting for a dependency that is not Ready (a non-stalling TerminalError) is InProgress, not Failed', async () => {
    const t = setup({
      connect: () => {
        throw new TerminalError('KafkaConnection "main" is not ready: no broker', 'KafkaUnavailable', { stalls: false });
      },
    });
    const uid = t.add(widget('orders'));
    await expect(t.reconcile(uid)).rejects.toMatchObject({ name: 'TerminalError' });
    expect(verdict(t, uid)).toBe('InProgress');
    expect(t.condition(uid, 'Reconciling')).toMatchObject({ reason: 'KafkaUnavailable' });
  });

  it('paused: Current while Ready, Failed (Paused) while not, since nothing moves until the annotation goes', async () => {
    const t = setup();
    const ready = t.add(widget('ready'));
    await t.reconcile(ready);
    t.objects.edit(ready, withAnnotation('paused', 'true'));
    await t.reconcile(ready);
    expect(verdict(t, ready)).toBe('Current');

    const never = t.add(widget('never', { annotations: { [`${PREFIX}/paused`]: 'true' } }));
    await t.reconcile(never);
    expect(verdict(t, never)).toBe('Failed');
    expect(t.condition(never, 'Stalled')).toMatchObject({ reason: 'Paused' });
  });
});
