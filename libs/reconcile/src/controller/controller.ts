import type { KubernetesObject } from '@kubernetes/client-node';
import type { Clock } from '../core/clock.ts';
import { systemClock } from '../core/clock.ts';
import type { ControllerMetrics } from '../observability/controller-metrics.ts';
import { noopControllerMetrics } from '../observability/controller-metrics.ts';
import { enqueueControllerOwner } from './handler.ts';
import type { MapFunc } from './handler.ts';
import type { Informer, InformerRequest } from '../cache/informer.ts';
import { runWorker } from './loop.ts';
import type { Logger } from '../core/logger.ts';
import { silentLogger } from '../core/logger.ts';
import type { ChangeEvent, Predicate } from './predicate.ts';
import { WorkQueue } from '../queue/queue.ts';
import type { WorkQueuePriority } from '../queue/queue.ts';
import type { WorkQueueMetricsProvider } from '../observability/queue-metrics.ts';
import type { RateLimiter } from '../queue/rate-limiter.ts';
import type { Reconciler } from './reconciler.ts';
import { objectKey, requestFor, requestKey } from '../core/request.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { StoreChange } from '../cache/store.ts';
import { TriggerLedger } from './trigger.ts';

/** Where a controller gets its shared informers; `SharedInformers` is one. */
export interface InformerSource {
  informerFor<T extends KubernetesObject>(type: ResourceType<T>, request?: InformerRequest<T>): Informer<T>;
}

/** Tuning of a controller; every field is optional. */
export interface ControllerOptions {
  /** Workers; never two on one key (default 1, as controller-runtime). */
  readonly maxConcurrentReconciles?: number;
  /** A reconcile's signal is aborted after this long and the attempt counts as failed (default 5 minutes). */
  readonly reconcileTimeoutMs?: number;
  /** `start` fails if the caches have not synced by then (default 2 minutes). */
  readonly cacheSyncTimeoutMs?: number;
  readonly clock?: Clock;
  /** Default: max(per-key 5 ms → 1000 s, 10 qps burst 100). */
  readonly rateLimiter?: RateLimiter<string>;
  readonly logger?: Logger;
  readonly metrics?: ControllerMetrics;
  readonly queueMetrics?: WorkQueueMetricsProvider;
  /** How long an initial-list or relist key may wait behind watch events (default 1000 ms; see `WorkQueueOptions`). */
  readonly lowPriorityMaxWaitMs?: number;
}

interface Watch {
  readonly type: ResourceType;
  readonly map: MapFunc;
  readonly predicates: readonly Predicate[];
  readonly request: InformerRequest<KubernetesObject>;
  readonly trigger: 'OwnedObjectChanged' | 'RelatedObjectChanged';
}

/** How a watched kind is watched: predicates every change must pass, and the informer's scope and indexers. */
export interface WatchOptions<W extends KubernetesObject> {
  readonly predicates?: readonly Predicate<W>[];
  readonly request?: InformerRequest<W>;
}

/**
 * Declares a controller: the kind it reconciles (`for`), the kinds it creates (`owns`) and other kinds that
 * should wake it (`watches`), then `complete(reconciler)`. Builders are single-use and do no work.
 */
export class ControllerBuilder<T extends KubernetesObject = KubernetesObject> {
  readonly #name: string;
  readonly #informers: InformerSource;
  #primary: { readonly type: ResourceType<T>; readonly predicates: readonly Predicate<T>[] } | undefined;
  readonly #watches: Watch[] = [];
  #options: ControllerOptions = {};

  /** `name` labels metrics and logs and must be unique per process. */
  constructor(deps: { readonly informers: InformerSource }, name: string) {
    this.#informers = deps.informers;
    this.#name = name;
  }

  /** The kind this controller reconciles; each change that passes every predicate enqueues the object itself. */
  for<U extends KubernetesObject>(type: ResourceType<U>, ...predicates: Predicate<U>[]): ControllerBuilder<U> {
    const self = this as unknown as ControllerBuilder<U>;
    self.#primary = { type, predicates };
    return self;
  }

  /**
   * A kind this controller creates. Exactly {@link ControllerBuilder.watches} with the map
   * `enqueueControllerOwner(<the primary kind>)` (a change enqueues the object's controlling owner of the primary
   * kind) and the same options; its reconciles are logged as `OwnedObjectChanged`.
   */
  owns<W extends KubernetesObject>(type: ResourceType<W>, options: WatchOptions<W> = {}): this {
    // The owner kind is known only once `for` was called, which may come later: resolve it at event time.
    const map: MapFunc = (object) => (this.#primary === undefined ? [] : enqueueControllerOwner(this.#primary.type)(object));
    return this.#watch(type, map, options, 'OwnedObjectChanged');
  }

  /**
   * Another kind whose changes should wake reconciles: `map` turns a changed object into requests (for example
   * a Secret into every resource referencing it, through an index registered with `options.request.indexers`);
   * its reconciles are logged as `RelatedObjectChanged`.
   */
  watches<W extends KubernetesObject>(type: ResourceType<W>, map: MapFunc<W>, options: WatchOptions<W> = {}): this {
    return this.#watch(type, map, options, 'RelatedObjectChanged');
  }

  #watch<W extends KubernetesObject>(type: ResourceType<W>, map: MapFunc<W>, options: WatchOptions<W>, trigger: Watch['trigger']): this {
    this.#watches.push({
      type,
      map: map as MapFunc,
      predicates: (options.predicates ?? []) as readonly Predicate[],
      request: (options.request ?? {}) as InformerRequest<KubernetesObject>,
      trigger,
    });
    return this;
  }

  /** Options for the controller (merged over earlier calls). */
  withOptions(options: ControllerOptions): this {
    this.#options = { ...this.#options, ...options };
    return this;
  }

  /**
   * Registers the event handlers on the shared informers (so no event is missed before `start`) and returns
   * the controller. Throws if `for` was not called.
   */
  complete(reconciler: Reconciler<T>, primaryRequest: InformerRequest<T> = {}): Controller<T> {
    if (this.#primary === undefined) throw new Error(`controller ${this.#name}: call for(type) before complete()`);
    const options = this.#options;
    const clock = options.clock ?? systemClock;
    const queue = new WorkQueue<string>({
      clock,
      name: this.#name,
      ...(options.rateLimiter && { rateLimiter: options.rateLimiter }),
      ...(options.queueMetrics && { metrics: options.queueMetrics }),
      ...(options.lowPriorityMaxWaitMs !== undefined && { lowPriorityMaxWaitMs: options.lowPriorityMaxWaitMs }),
    });
    const triggers = new TriggerLedger();
    const primary = this.#informers.informerFor(this.#primary.type, primaryRequest);
    const primaryPredicates = this.#primary.predicates;
    primary.onChange((change) => {
      if (change.type === 'Deleted') reconciler.forget?.(requestFor(change.object));
      const event = toEvent(change);
      if (!primaryPredicates.every((p) => p(event))) return;
      const key = objectKey(change.object);
      triggers.noteEvent(key, 'ObjectChanged');
      queue.add(key, priorityOf(change));
    });
    const informers: Informer[] = [primary];
    for (const watch of this.#watches) {
      const informer = this.#informers.informerFor(watch.type, watch.request);
      informer.onChange((change) => {
        const event = toEvent(change);
        if (!watch.predicates.every((p) => p(event))) return;
        const objects = change.type === 'Modified' ? [change.object, change.oldObject] : [change.object];
        const priority = priorityOf(change);
        for (const object of objects) {
          for (const request of watch.map(object)) {
            const key = requestKey(request);
            triggers.noteEvent(key, watch.trigger);
            queue.add(key, priority);
          }
        }
      });
      informers.push(informer);
    }
    return new Controller<T>({ name: this.#name, queue, store: primary.store, primary, informers, reconciler, clock, triggers }, options);
  }
}

interface ControllerDeps<T extends KubernetesObject> {
  readonly name: string;
  readonly queue: WorkQueue;
  readonly store: Informer<T>['store'];
  readonly primary: Informer<T>;
  readonly informers: readonly Informer[];
  readonly reconciler: Reconciler<T>;
  readonly clock: Clock;
  readonly triggers: TriggerLedger;
}

/**
 * A running reconcile loop for one kind. Build it with {@link ControllerBuilder}. `start` waits for the caches,
 * then runs the workers until the signal aborts.
 */
export class Controller<T extends KubernetesObject = KubernetesObject> {
  readonly name: string;
  readonly #deps: ControllerDeps<T>;
  readonly #options: ControllerOptions;

  /** Use {@link ControllerBuilder}; does no work. */
  constructor(deps: ControllerDeps<T>, options: ControllerOptions) {
    this.name = deps.name;
    this.#deps = deps;
    this.#options = options;
  }

  /** The controller's queue, for metrics and tests. */
  get queue(): WorkQueue {
    return this.#deps.queue;
  }

  /**
   * Waits until every informer this controller uses has synced (rejecting after `cacheSyncTimeoutMs`), then
   * runs `maxConcurrentReconciles` workers. When `signal` aborts it stops taking new keys, lets in-flight
   * reconciles finish and resolves. Never rejects because a reconcile failed.
   */
  async start(signal: AbortSignal): Promise<void> {
    const { clock, queue } = this.#deps;
    const logger = (this.#options.logger ?? silentLogger).child({ controller: this.name });
    const metrics = this.#options.metrics ?? noopControllerMetrics;
    const workers = this.#options.maxConcurrentReconciles ?? 1;
    const syncTimeoutMs = this.#options.cacheSyncTimeoutMs ?? 120_000;
    const syncAbort = new AbortController();
    const timer = clock.setTimeout(() => {
      syncAbort.abort(new Error(`controller ${this.name}: caches did not sync within ${syncTimeoutMs} ms`));
    }, syncTimeoutMs);
    const onStop = (): void => {
      syncAbort.abort(signal.reason);
    };
    signal.addEventListener('abort', onStop, { once: true });
    try {
      await Promise.all(this.#deps.informers.map((informer) => informer.waitForSync(syncAbort.signal)));
    } finally {
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', onStop);
    }
    metrics.setMaxConcurrentReconciles(this.name, workers);
    logger.info({ workers }, 'starting workers');
    const stop = (): void => {
      void queue.shutDownWithDrain();
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    const loopDeps = {
      name: this.name,
      queue,
      store: this.#deps.store,
      reconciler: this.#deps.reconciler,
      triggers: this.#deps.triggers,
      clock,
      logger,
      metrics,
      reconcileTimeoutMs: this.#options.reconcileTimeoutMs ?? 300_000,
    };
    await Promise.all(Array.from({ length: workers }, () => runWorker(loopDeps)));
    logger.info({}, 'workers stopped');
  }
}

// A full list's changes (initial list, relist) go behind the watch events' (controller-runtime v0.23's default).
function priorityOf(change: StoreChange): WorkQueuePriority {
  return change.fromList === true ? 'low' : 'high';
}

function toEvent<T extends KubernetesObject>(change: StoreChange<T>): ChangeEvent<T> {
  switch (change.type) {
    case 'Added':
      return { type: 'create', object: change.object };
    case 'Modified':
      return { type: 'update', object: change.object, oldObject: change.oldObject };
    case 'Deleted':
      return { type: 'delete', object: change.object };
  }
}
