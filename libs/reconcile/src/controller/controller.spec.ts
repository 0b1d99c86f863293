import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { ControllerBuilder } from './controller.ts';
import type { InformerSource } from './controller.ts';
import { TerminalError } from '../core/errors.ts';
import type { Informer, InformerRequest } from '../cache/informer.ts';
import { generationChanged } from './predicate.ts';
import type { ChangeListener } from '../cache/reflector.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { resourceType } from '../client/resource-type.ts';
import { Result } from '../core/result.ts';
import type { ReconcileContext } from './reconciler.ts';
import { StoreWriter } from '../cache/store.ts';

const widgets = resourceType({ group: 'example.io', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
const parts = resourceType({ group: 'example.io', version: 'v1', kind: 'Part', plural: 'parts', namespaced: true });
const secrets = resourceType({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true });

/** A fake of our own InformerSource: a real StoreWriter per kind, changes pushed by the test. */
class FakeInformers implements InformerSource {
  readonly #informers = new Map<string, { writer: StoreWriter; listeners: Set<ChangeListener<KubernetesObject>>; synced: boolean; waiters: (() => void)[] }>();

  informerFor<T extends KubernetesObject>(type: ResourceType<T>, request: InformerRequest<T> = {}): Informer<T> {
    let entry = this.#informers.get(type.plural);
    if (entry === undefined) {
      entry = { writer: new StoreWriter({ indexers: (request.indexers ?? {}) as Record<string, (o: KubernetesObject) => string[]> }), listeners: new Set(), synced: false, waiters: [] };
      this.#informers.set(type.plural, entry);
    }
    const e = entry;
    const informer: Informer = {
      type,
      store: e.writer.reader(),
      onChange: (listener) => {
        e.listeners.add(listener);
        return () => e.listeners.delete(listener);
      },
      hasSynced: () => e.synced,
      waitForSync: (signal) =>
        e.synced
          ? Promise.resolve()
          : new Promise<void>((resolve, reject) => {
              e.waiters.push(resolve);
              signal?.addEventListener('abort', () => {
                reject(signal.reason as Error);
              });
            }),
      health: () => ({ state: 'Watching', lastEventTime: undefined, lastActivityTime: undefined, consecutiveFailures: 0, lastError: undefined }) as unknown as ReturnType<Informer['health']>,
    };
    return informer as unknown as Informer<T>;
  }

  sync(plural: string): void {
    const e = this.#informers.get(plural)!;
    e.synced = true;
    e.writer.markSynced();
    for (const w of e.waiters) w();
  }

  put(plural: string, object: KubernetesObject): void {
    const e = this.#informers.get(plural)!;
    const change = e.writer.apply(object);
    if (change) for (const l of e.listeners) l(change);
  }

  /** A full list (the initial list or a relist), as the reflector hands it on: every change marked `fromList`. */
  list(plural: string, objects: KubernetesObject[]): void {
    const e = this.#informers.get(plural)!;
    for (const change of e.writer.replace(objects)) for (const l of e.listeners) l(change);
  }

  remove(plural: string, object: KubernetesObject): void {
    const e = this.#informers.get(plural)!;
    const change = e.writer.delete(object);
    for (const l of e.listeners) l(change);
  }
}

function widget(name: string, generation = 1, rv = '1', extra: Partial<NonNullable<KubernetesObject['metadata']>> = {}): KubernetesObject {
  return { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name, namespace: 'ns', uid: `uid-${name}`, generation, resourceVersion: rv, ...extra } };
}

/** Records reconciles and lets each test script the outcome. */
function recorder(outcome: (object: KubernetesObject, n: number, ctx: ReconcileContext) => Promise<Result>) {
  const calls: string[] = [];
  let running = 0;
  let maxRunning = 0;
  return {
    calls,
    maxRunning: () => maxRunning,
    reconciler: {
      async reconcile(object: KubernetesObject, ctx: ReconcileContext): Promise<Result> {
        calls.push(object.metadata!.name!);
        running++;
        maxRunning = Math.max(maxRunning, running);
        try {
          return await outcome(object, calls.length, ctx);
        } finally {
          running--;
        }
      },
    },
  };
}

function setup(outcome: Parameters<typeof recorder>[0], configure: (b: ControllerBuilder) => ControllerBuilder = (b) => b, workers = 1) {
  const clock = new VirtualClock();
  const informers = new FakeInformers();
  const rec = recorder(outcome);
  const builder = configure(new ControllerBuilder({ informers }, 'widgets').for(widgets)).withOptions({ clock, maxConcurrentReconciles: workers, reconcileTimeoutMs: 1_000 });
  const controller = builder.complete(rec.reconciler);
  const stop = new AbortController();
  informers.informerFor(widgets);
  const running = controller.start(stop.signal);
  return { clock, informers, rec, controller, stop, running };
}

describe('Controller', () => {
  it('waits for the cache, then reconciles every object once however many events arrived', async () => {
    const t = setup(() => Promise.resolve(Result.done()));
    t.informers.put('widgets', widget('a', 1, '1'));
    t.informers.put('widgets', widget('a', 2, '2'));
    t.informers.put('widgets', widget('b'));
    await t.clock.advance(10);
    expect(t.rec.calls).toEqual([]);
    t.informers.sync('widgets');
    await t.clock.advance(10);
    expect(t.rec.calls).toEqual(['a', 'b']);
    t.stop.abort();
    await t.running;
  });

  it('queues the changes of a full list behind watch events, and a watch event lifts a listed key', async () => {
    const t = setup(() => Promise.resolve(Result.done()));
    t.informers.list('widgets', [widget('l1'), widget('l2'), widget('l3')]);
    t.informers.put('widgets', widget('w'));
    t.informers.put('widgets', widget('l3', 2, '2'));
    expect(t.controller.queue.len()).toBe(4);
    t.informers.sync('widgets');
    await t.clock.advance(10);
    expect(t.rec.calls).toEqual(['w', 'l3', 'l1', 'l2']);
    t.stop.abort();
    await t.running;
  });

  it('never runs two reconciles of one key at once, and runs a change made meanwhile once afterwards', async () => {
    let release: () => void = () => undefined;
    const t = setup(
      (_o, n) =>
        n === 1
          ? new Promise<Result>((resolve) => {
              release = () => {
                resolve(Result.done());
              };
            })
          : Promise.resolve(Result.done()),
      (b) => b,
      4,
    );
    t.informers.sync('widgets');
    t.informers.put('widgets', widget('a', 1, '1'));
    await t.clock.advance(1);
    t.informers.put('widgets', widget('a', 2, '2'));
    t.informers.put('widgets', widget('a', 3, '3'));
    await t.clock.advance(1);
    expect(t.rec.calls).toEqual(['a']);
    release();
    await t.clock.advance(1);
    expect(t.rec.calls).toEqual(['a', 'a']);
    expect(t.rec.maxRunning()).toBe(1);
    t.stop.abort();
    await t.running;
  });

  it('requeues after the asked delay', async () => {
    const t = setup((_o, n) => Promise.resolve(n === 1 ? Result.requeueAfter(30_000) : Result.done()));
    t.informers.sync('widgets');
    t.informers.put('widgets', widget('a'));
    await t.clock.advance(29_999);
    expect(t.rec.calls).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.rec.calls).toHaveLength(2);
    t.stop.abort();
    await t.running;
  });

  it('retries a thrown error with per-key exponential backoff: 5, 10, 20 ms …', async () => {
    const at: number[] = [];
    const t = setup((_o, n) => {
      at.push(t.clock.now());
      return n <= 4 ? Promise.reject(new Error('backend down')) : Promise.resolve(Result.done());
    });
    t.informers.sync('widgets');
    t.informers.put('widgets', widget('a'));
    await t.clock.advance(1_000);
    const gaps = at.slice(1).map((v, i) => v - at[i]!);
    expect(gaps).toEqual([5, 10, 20, 40]);
    expect(t.controller.queue.numRequeues('ns/a')).toBe(0);
    t.stop.abort();
    await t.running;
  });

  it('does not retry a TerminalError until the object changes', async () => {
    const t = setup((_o, n) => (n === 1 ? Promise.reject(new TerminalError('bad spec', 'InvalidSpec')) : Promise.resolve(Result.done())));
    t.informers.sync('widgets');
    t.informers.put('widgets', widget('a', 1, '1'));
    await t.clock.advance(60_000);
    expect(t.rec.calls).toHaveLength(1);
    t.informers.put('widgets', widget('a', 2, '2'));
    await t.clock.advance(1);
    expect(t.rec.calls).toHaveLength(2);
    t.stop.abort();
    await t.running;
  });

  it('survives reconcilers that throw synchronously, throw non-errors or return garbage', async () => {
    const outcomes: (() => Promise<Result>)[] = [
      () => {
        throw new Error('sync throw');
      },
      () => Promise.reject(new Error('plain')),
      () => Promise.resolve(undefined as unknown as Result),
      () => Promise.resolve(Result.done()),
    ];
    const t = setup((_o, n) => outcomes[n - 1]!());
    t.informers.sync('widgets');
    t.informers.put('widgets', widget('a'));
    await t.clock.advance(1_000);
    expect(t.rec.calls).toHaveLength(4);
    t.stop.abort();
    await t.running;
  });

  it('aborts a slow reconcile at its timeout, counts it failed and retries', async () => {
    let aborted = false;
    const t = setup((_o, n, ctx) =>
      n === 1
        ? new Promise<Result>((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(ctx.signal.reason as Error);
            });
          })
        : Promise.resolve(Result.done()),
    );
    t.informers.sync('widgets');
    t.informers.put('widgets', widget('a'));
    await t.clock.advance(1_010);
    expect(aborted).toBe(true);
    expect(t.rec.calls).toHaveLength(2);
    t.stop.abort();
    await t.running;
  });

  it('skips a key whose object is gone from the cache', async () => {
    const t = setup(() => Promise.resolve(Result.done()));
    t.informers.put('widgets', widget('a'));
    t.informers.remove('widgets', widget('a'));
    t.informers.sync('widgets');
    await t.clock.advance(10);
    expect(t.rec.calls).toEqual([]);
    t.stop.abort();
    await t.running;
  });

  it('filters with predicates: status-only updates do not wake it', async () => {
    const clock = new VirtualClock();
    const informers = new FakeInformers();
    const rec = recorder(() => Promise.resolve(Result.done()));
    const controller = new ControllerBuilder({ informers }, 'w').for(widgets, generationChanged).withOptions({ clock }).complete(rec.reconciler);
    const stop = new AbortController();
    const running = controller.start(stop.signal);
    informers.sync('widgets');
    informers.put('widgets', widget('a', 1, '1'));
    await clock.advance(1);
    informers.put('widgets', widget('a', 1, '2'));
    await clock.advance(1);
    informers.put('widgets', widget('a', 2, '3'));
    await clock.advance(1);
    expect(rec.calls).toEqual(['a', 'a']);
    stop.abort();
    await running;
  });

  it('maps owned objects to their controlling owner and watched objects through a map function', async () => {
    const t = setup(
      () => Promise.resolve(Result.done()),
      (b) =>
        b.owns(parts).watches(secrets, (secret) => [{ namespace: secret.metadata?.namespace, name: `w-${secret.metadata?.name}` }]),
    );
    t.informers.sync('widgets');
    t.informers.sync('parts');
    t.informers.sync('secrets');
    t.informers.put('widgets', widget('owner'));
    t.informers.put('widgets', widget('w-creds'));
    await t.clock.advance(1);
    t.rec.calls.length = 0;
    t.informers.put('parts', {
      metadata: { name: 'p', namespace: 'ns', resourceVersion: '1', ownerReferences: [{ apiVersion: 'example.io/v1', kind: 'Widget', name: 'owner', uid: 'uid-owner', controller: true }] },
    });
    t.informers.put('parts', { metadata: { name: 'orphan', namespace: 'ns', resourceVersion: '1' } });
    t.informers.put('secrets', { metadata: { name: 'creds', namespace: 'ns', resourceVersion: '1' } });
    await t.clock.advance(1);
    expect(t.rec.calls.sort()).toEqual(['owner', 'w-creds']);
    t.stop.abort();
    await t.running;
  });

  it('tells each reconcile why it ran: the object, an owned or related object, a requeue, a drift check, a retry', async () => {
    const triggers: (string | undefined)[] = [];
    const script: (() => Promise<Result>)[] = [
      () => Promise.resolve(Result.requeueAfter(100)),
      () => Promise.resolve(Result.checkDriftAfter(100)),
      () => Promise.reject(new Error('backend down')),
    ];
    const t = setup(
      (_object, n, ctx) => {
        triggers.push(ctx.trigger);
        return script[n - 1]?.() ?? Promise.resolve(Result.done());
      },
      (b) => b.owns(parts).watches(secrets, () => [{ namespace: 'ns', name: 'owner' }]),
    );
    t.informers.sync('widgets');
    t.informers.sync('parts');
    t.informers.sync('secrets');
    t.informers.put('widgets', widget('owner'));
    await t.clock.advance(1);
    await t.clock.advance(100);
    await t.clock.advance(100);
    await t.clock.advance(10);
    t.informers.put('parts', {
      metadata: { name: 'p', namespace: 'ns', resourceVersion: '1', ownerReferences: [{ apiVersion: 'example.io/v1', kind: 'Widget', name: 'owner', uid: 'uid-owner', controller: true }] },
    });
    await t.clock.advance(1);
    t.informers.put('secrets', { metadata: { name: 'creds', namespace: 'ns', resourceVersion: '1' } });
    await t.clock.advance(1);

    expect(triggers).toEqual(['ObjectChanged', 'Requeue', 'DriftCheck', 'RetryAfterError', 'OwnedObjectChanged', 'RelatedObjectChanged']);
    t.stop.abort();
    await t.running;
  });

  it('lets the reconciler forget an object the cache reports deleted', async () => {
    const clock = new VirtualClock();
    const informers = new FakeInformers();
    const forgotten: string[] = [];
    const reconciler = {
      reconcile: () => Promise.resolve(Result.done()),
      forget: (request: { readonly namespace?: string | undefined; readonly name: string }) => {
        forgotten.push(`${request.namespace ?? ''}/${request.name}`);
      },
    };
    const ignoreDeletes = (event: { readonly type: string }): boolean => event.type !== 'delete';
    const controller = new ControllerBuilder({ informers }, 'w').for(widgets, ignoreDeletes).withOptions({ clock }).complete(reconciler);
    const stop = new AbortController();
    const running = controller.start(stop.signal);
    informers.sync('widgets');
    informers.put('widgets', widget('a'));
    await clock.advance(1);
    expect(forgotten).toEqual([]);

    // Even a predicate that ignores deletes does not stop the forgetting.
    informers.remove('widgets', widget('a'));
    await clock.advance(1);

    expect(forgotten).toEqual(['ns/a']);
    stop.abort();
    await running;
  });

  it('fails to start when the cache does not sync in time', async () => {
    const clock = new VirtualClock();
    const informers = new FakeInformers();
    const controller = new ControllerBuilder({ informers }, 'w').for(widgets).withOptions({ clock, cacheSyncTimeoutMs: 5_000 }).complete(recorder(() => Promise.resolve(Result.done())).reconciler);
    const started = controller.start(new AbortController().signal);
    const assertion = expect(started).rejects.toThrow(/caches did not sync within 5000 ms/);
    await clock.advance(5_000);
    await assertion;
  });

  it('lets an in-flight reconcile finish when stopped', async () => {
    let finished = false;
    const t = setup(async (_o, _n) => {
      await new Promise<void>((resolve) => {
        t.clock.setTimeout(resolve, 500);
      });
      finished = true;
      return Result.done();
    });
    t.informers.sync('widgets');
    t.informers.put('widgets', widget('a'));
    await t.clock.advance(1);
    t.stop.abort();
    await t.clock.advance(500);
    await t.running;
    expect(finished).toBe(true);
  });
});
