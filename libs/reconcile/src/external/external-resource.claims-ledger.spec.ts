// The ExternalResourceReconciler with a claims ledger (ADR 0007, addendum "the claims ledger"): one status write per
// create, the claim in the ledger before the create, and the same guarantees as the CreatePending status claim.
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { getCondition } from '../core/conditions.ts';
import { VirtualClock } from '../core/clock.ts';
import { silentLogger } from '../core/logger.ts';
import type { ReconcileContext } from '../controller/reconciler.ts';
import type { EventInput, Recorder } from '../observability/events.ts';
import { statusChange } from '../status/status.ts';
import type { FakeObserved, FakeSpec } from '../testing/external-resource.ts';
import { FakeObjects, InMemoryExternalSystem } from '../testing/external-resource.ts';
import { InMemoryLedgerDocument } from '../testing/in-memory-ledger-document.ts';
import { ClaimsLedger } from './claims-ledger.ts';
import type { ExternalContext, ExternalCreation } from './external-adapter.ts';
import type { ExternalResourceOptions, ExternalResourceStatus, StatusWriter } from './external-resource.ts';
import { ExternalResourceReconciler } from './external-resource.ts';

interface Widget extends KubernetesObject {
  spec: { topic?: string; config: Record<string, string> };
  status?: ExternalResourceStatus;
}

const PREFIX = 'widgets.example.io';

const externalNameOf = (w: Widget): string => w.spec.topic ?? w.metadata?.name ?? '';

const kind: ExternalResourceOptions<Widget, FakeSpec> = {
  annotationPrefix: PREFIX,
  connect: (w) => ({ externalName: externalNameOf(w), desired: { name: externalNameOf(w), config: w.spec.config } }),
  defaultDeletionPolicy: 'Retain',
};

let uids = 0;

function widget(name: string, options: { topic?: string; uid?: string; created?: string } = {}): Widget {
  return {
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    metadata: {
      name,
      namespace: 'team-a',
      uid: options.uid ?? `uid-${String(++uids).padStart(4, '0')}`,
      generation: 1,
      creationTimestamp: (options.created ?? '2026-12-01T00:00:00Z') as unknown as Date,
    },
    spec: { config: { partitions: '3' }, ...(options.topic !== undefined && { topic: options.topic }) },
  };
}

/** An external system that notes, at each create, what the ledger document held. */
class SystemSeeingTheLedger extends InMemoryExternalSystem {
  readonly ledgerAtCreate: ReadonlyMap<string, string>[] = [];
  document: InMemoryLedgerDocument | undefined;

  override create(desired: FakeSpec, context: ExternalContext<KubernetesObject>): Promise<ExternalCreation> {
    this.ledgerAtCreate.push(new Map(this.document?.entries));
    return super.create(desired, context);
  }
}

/** Events in order, each with the number of status writes made before it was recorded. */
class OrderedRecorder implements Recorder {
  readonly events: (EventInput & { readonly regarding: string; readonly afterStatusWrites: number })[] = [];
  statusWrites = (): number => 0;

  record(regarding: KubernetesObject, event: EventInput): void {
    this.events.push({ ...event, regarding: regarding.metadata?.name ?? '', afterStatusWrites: this.statusWrites() });
  }
}

function setup(options: { maxBytes?: number; failStatusWrites?: () => boolean; adoptExactMatch?: boolean } = {}) {
  const objects = new FakeObjects<Widget>(`${PREFIX}/external`);
  const system = new SystemSeeingTheLedger();
  const document = new InMemoryLedgerDocument();
  system.document = document;
  const clock = new VirtualClock();
  const recorder = new OrderedRecorder();
  recorder.statusWrites = () => objects.statusWrites;
  const changes: Record<string, unknown>[] = [];
  const status: StatusWriter<Widget> = {
    patchStatus: (object, desired, now) => {
      if (options.failStatusWrites?.() === true) return Promise.reject(new Error('apiserver gone'));
      const change = statusChange(object, desired, now);
      if (change !== undefined) changes.push(change);
      return objects.statusWriter.patchStatus(object, desired, now);
    },
  };
  const newProcess = () => {
    const ledger = new ClaimsLedger({ document, clock }, { lingerMs: 10, releaseLingerMs: 1_000, ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }) });
    const reconciler = new ExternalResourceReconciler<Widget, FakeSpec, FakeObserved>(
      { adapter: system, claims: objects.claims(externalNameOf), finalizer: objects.finalizer, status, events: recorder, createClaims: ledger, now: () => new Date('2026-12-01T12:00:00Z'), random: () => 0.5 },
      { ...kind, ...(options.adoptExactMatch === true && { adoptExactMatch: true }) },
    );
    return { ledger, reconciler };
  };
  let process = newProcess();
  const add = (w: Widget): string => {
    objects.put(w);
    return w.metadata?.uid ?? '';
  };
  /** Runs reconciles of `uids` concurrently, moving virtual time until all settle; resolves to each outcome. */
  const reconcileAll = async (...ids: string[]): Promise<PromiseSettledResult<unknown>[]> => {
    const all = Promise.allSettled(ids.map((uid) => process.reconciler.reconcile(objects.current(uid), contextFor(objects.current(uid)))));
    await clock.runAll();
    return all;
  };
  return {
    objects,
    system,
    document,
    clock,
    recorder,
    changes,
    add,
    reconcileAll,
    ledger: () => process.ledger,
    restart: () => {
      process = newProcess();
    },
    status: (uid: string): ExternalResourceStatus => objects.current(uid).status ?? {},
    condition: (uid: string, type: string) => getCondition(objects.current(uid).status?.conditions, type),
  };
}

function contextFor(object: Widget): ReconcileContext {
  return { request: { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' }, reconcileId: 'test', log: silentLogger, signal: new AbortController().signal };
}

describe('ExternalResourceReconciler with a claims ledger', () => {
  it('claims in the ledger before the create, writes one status patch, then the Created Event, then releases the claim', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));

    const [outcome] = await t.reconcileAll(uid);

    expect(outcome?.status).toBe('fulfilled');
    expect(t.system.ledgerAtCreate).toEqual([new Map([[uid, 'orders']])]);
    expect(t.changes).toHaveLength(1);
    expect(t.changes[0]).toMatchObject({ externalName: 'orders', ownership: 'Created', observedGeneration: 1 });
    expect(t.recorder.events.map((e) => [e.reason, e.afterStatusWrites])).toEqual([['Created', 1]]);
    expect(t.document.entries.size).toBe(0);
    expect(t.document.writes).toBe(2);
  });

  it('puts the claims of concurrent creates in one ledger write: a burst costs one status write per create', async () => {
    const t = setup();
    const ids = Array.from({ length: 30 }, (_, i) => t.add(widget(`topic-${i}`)));

    const outcomes = await t.reconcileAll(...ids);

    expect(outcomes.every((o) => o.status === 'fulfilled')).toBe(true);
    expect(t.system.writes()).toHaveLength(30);
    expect(t.objects.statusWrites).toBe(30);
    // One write with every claim, one with every release.
    expect(t.document.writes).toBe(2);
    expect(t.system.ledgerAtCreate.every((ledger) => ledger.size === 30)).toBe(true);
    expect(ids.every((uid) => t.status(uid).ownership === 'Created')).toBe(true);
  });

  it('survives a crash between the create and the status write: the ledger claim makes the object its own (Created, never Adopted)', async () => {
    let failing = true;
    const t = setup({ failStatusWrites: () => failing, adoptExactMatch: true });
    const uid = t.add(widget('orders'));
    const [first] = await t.reconcileAll(uid);
    expect(first?.status).toBe('rejected');
    expect(t.system.objects.has('orders')).toBe(true);
    expect(t.status(uid).ownership).toBeUndefined();
    expect(t.recorder.events).toEqual([]);
    failing = false;
    t.restart();

    await t.reconcileAll(uid);

    expect(t.system.writes()).toEqual([{ op: 'create', name: 'orders' }]);
    expect(t.status(uid)).toMatchObject({ externalName: 'orders', ownership: 'Created' });
    expect(t.condition(uid, 'Ready')).toMatchObject({ status: 'True' });
    expect(t.recorder.events.map((e) => e.reason)).toEqual(['Created']);
    expect(t.document.entries.size).toBe(0);
  });

  it('creates after a crash between the ledger write and the create: a claim without an object is no conflict', async () => {
    const t = setup();
    const uid = t.add(widget('orders'));
    t.system.fail('create', new Error('killed'));
    await t.reconcileAll(uid);
    expect(t.document.entries.get(uid)).toBe('orders');
    expect(t.system.objects.has('orders')).toBe(false);
    t.system.heal();
    t.restart();

    await t.reconcileAll(uid);

    expect(t.system.objects.get('orders')).toEqual({ partitions: '3' });
    expect(t.status(uid)).toMatchObject({ ownership: 'Created' });
    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'True' });
  });

  it('does not take an object claimed in the ledger by another resource as its own', async () => {
    const t = setup({ adoptExactMatch: false });
    const uid = t.add(widget('orders'));
    t.system.createByHand('orders', { partitions: '3' });
    t.document.writeByOther((entries) => entries.set('uid-of-someone-else', 'orders'));

    await t.reconcileAll(uid);

    expect(t.condition(uid, 'Synced')).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
    expect(t.status(uid).ownership).toBeUndefined();
    expect(t.system.writes()).toEqual([]);
  });

  it('counts a ledger claim as managing the name: a same-second claimant with a smaller uid does not take it', async () => {
    let failing = true;
    const t = setup({ failStatusWrites: () => failing, adoptExactMatch: true });
    const owner = t.add(widget('orders', { uid: 'uid-b' }));
    await t.reconcileAll(owner); // created, its status write lost; the claim stays in the ledger
    failing = false;
    const rival = t.add(widget('orders-too', { topic: 'orders', uid: 'uid-a' }));

    await t.reconcileAll(rival);

    expect(t.condition(rival, 'Synced')).toMatchObject({ status: 'False', reason: 'ResourceConflict' });
    expect(t.status(rival).ownership).toBeUndefined();
    await t.reconcileAll(owner);
    expect(t.status(owner).ownership).toBe('Created');
  });

  it('falls back to the CreatePending status write when the ledger is full', async () => {
    const t = setup({ maxBytes: 10 });
    const uid = t.add(widget('orders'));

    await t.reconcileAll(uid);

    expect(t.changes).toHaveLength(2);
    expect(t.changes[0]).toEqual({ externalName: 'orders', ownership: 'CreatePending' });
    expect(t.status(uid).ownership).toBe('Created');
    expect(t.document.entries.size).toBe(0);
  });
});
