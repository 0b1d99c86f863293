import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import type { Clock } from '../core/clock.ts';
import { systemClock } from '../core/clock.ts';
import { silentLogger } from '../core/logger.ts';
import type { Logger } from '../core/logger.ts';
import { HttpWatchTransport } from './http-watch-transport.ts';
import { Reflector } from './reflector.ts';
import type { ChangeListener } from './reflector.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { InformerScope } from './informer-scope.ts';
import { InformerScopeConflictError, informerId, informerName, sameScope } from './informer-scope.ts';
import type { IndexFunc, Store } from './store.ts';
import { StoreWriter } from './store.ts';
import type { WatcherHealth, WatcherOptions } from './watcher.ts';

/** An informer's condition as `SharedInformers.health()` reports it. */
export type InformerHealth = WatcherHealth & { readonly synced: boolean };
import { Watcher } from './watcher.ts';

/** A shared, cached view of one kind: its store, its changes, its health. */
export interface Informer<T extends KubernetesObject = KubernetesObject> {
  readonly type: ResourceType<T>;
  /** The cache. Reads may be stale (they trail the apiserver by the watch latency). */
  readonly store: Store<T>;
  /** Adds a listener for changes written to the store; returns its removal. Listeners must not block. */
  onChange(listener: ChangeListener<T>): () => void;
  hasSynced(): boolean;
  /** Resolves once the first full list is cached; rejects if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<void>;
  health(): WatcherHealth;
}

/** Options for {@link SharedInformers}. */
export interface SharedInformersOptions {
  /** Where to watch; namespaced kinds only. Absent: all namespaces. */
  readonly namespace?: string;
  readonly clock?: Clock;
  readonly random?: () => number;
  /**
   * Tuning of every informer's watcher (inactivity timeout, backoff, …); default: the watcher's defaults, among them
   * the initial state from a paginated list (`initialList: 'watchList'` for Kubernetes' streaming list).
   */
  readonly watcher?: WatcherOptions;
}

/** What {@link SharedInformers} needs from outside. */
export interface SharedInformersDeps {
  /** Names the apiserver and the credentials. */
  readonly kubeConfig: KubeConfig;
  /** Where informers log (each line bound to `informer: <plural>`); default: nowhere. */
  readonly logger?: Logger;
}

/**
 * How a controller asks for an informer: extra indexers are merged into the shared one before it starts; `scope`
 * (label and field selectors, passed to every list and watch) must be the same in every request for a kind.
 */
export interface InformerRequest<T extends KubernetesObject> {
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>>;
  /** Absent: every object of the kind (in the cache's namespaces). */
  readonly scope?: InformerScope;
}

/**
 * One informer per kind, shared by every controller of a process (controller-runtime's cache). Controllers ask
 * with {@link SharedInformers.informerFor}, usually before {@link SharedInformers.run}; asking again for a kind
 * returns the same informer with indexers merged, and asking with another scope throws
 * {@link InformerScopeConflictError} (never a silently shared cache). A kind watched through `metadataOnly(type)` has
 * its own informer, holding only metadata, beside the kind's full one. An informer's cache is built when it starts (or
 * when its store is first read), and its indexers are fixed from then on: adding one later throws.
 */
export class SharedInformers {
  readonly #kubeConfig: KubeConfig;
  readonly #logger: Logger;
  readonly #options: SharedInformersOptions;
  readonly #informers = new Map<string, LazyInformer>();
  #signal: AbortSignal | undefined;
  readonly #runs: Promise<void>[] = [];

  /** Stores its dependencies; starts nothing. */
  constructor(deps: SharedInformersDeps, options: SharedInformersOptions = {}) {
    this.#kubeConfig = deps.kubeConfig;
    this.#logger = deps.logger ?? silentLogger;
    this.#options = options;
  }

  /**
   * The shared informer for `type` (created on first request; started at once if the cache already runs). Throws
   * {@link InformerScopeConflictError} when the kind's informer exists with another scope.
   */
  informerFor<T extends KubernetesObject>(type: ResourceType<T>, request: InformerRequest<T> = {}): Informer<T> {
    const id = informerId(type);
    const scope = request.scope ?? {};
    let informer = this.#informers.get(id);
    if (informer !== undefined && !sameScope(informer.scope, scope)) throw new InformerScopeConflictError(type, informer.scope, scope);
    if (informer === undefined) {
      informer = new LazyInformer(type, scope, (built) => this.#build(built));
      this.#informers.set(id, informer);
      if (this.#signal !== undefined) this.#runs.push(informer.run(this.#signal));
    }
    informer.addIndexers((request.indexers ?? {}) as Readonly<Record<string, IndexFunc>>);
    return informer as unknown as Informer<T>;
  }

  /** Starts every informer; they run until `signal` aborts. Resolves once all have stopped. */
  async run(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    for (const informer of this.#informers.values()) this.#runs.push(informer.run(signal));
    await Promise.all(this.#runs);
  }

  /** Resolves when every informer has synced; rejects when `signal` aborts first. */
  async waitForSync(signal?: AbortSignal): Promise<void> {
    await Promise.all([...this.#informers.values()].map((informer) => informer.waitForSync(signal)));
  }

  /** Health of every informer by plural name (`secrets(metadata)` for a metadata-only one), for readiness. */
  health(): Record<string, WatcherHealth & { readonly synced: boolean }> {
    const result: Record<string, WatcherHealth & { readonly synced: boolean }> = {};
    for (const informer of this.#informers.values()) result[informerName(informer.type)] = { ...informer.health(), synced: informer.hasSynced() };
    return result;
  }

  #build(informer: LazyInformer): { reflector: Reflector; watcher: Watcher } {
    const { type, scope } = informer;
    const transport = new HttpWatchTransport(
      { kubeConfig: this.#kubeConfig },
      {
        resource: type,
        ...(type.namespaced && this.#options.namespace !== undefined && { namespace: this.#options.namespace }),
        ...(scope.labelSelector !== undefined && { labelSelector: scope.labelSelector }),
        ...(scope.fieldSelector !== undefined && { fieldSelector: scope.fieldSelector }),
      },
    );
    const watcher = new Watcher(
      {
        transport,
        clock: this.#options.clock ?? systemClock,
        logger: this.#logger.child({ informer: informerName(type) }),
        ...(this.#options.random && { random: this.#options.random }),
      },
      this.#options.watcher,
    );
    const writer = new StoreWriter({ indexers: informer.indexers });
    return { reflector: new Reflector({ watcher, writer }), watcher };
  }
}

/** Holds listeners and indexers until the cache is built, so controllers can register in any order. */
class LazyInformer implements Informer {
  readonly type: ResourceType;
  readonly scope: InformerScope;
  readonly indexers: Record<string, IndexFunc> = {};
  readonly #listeners = new Set<ChangeListener<KubernetesObject>>();
  readonly #factory: (self: LazyInformer) => { reflector: Reflector; watcher: Watcher };
  #built: { reflector: Reflector; watcher: Watcher } | undefined;
  #running = false;

  constructor(
    type: ResourceType,
    scope: InformerScope,
    factory: (self: LazyInformer) => { reflector: Reflector; watcher: Watcher },
  ) {
    this.type = type;
    this.scope = scope;
    this.#factory = factory;
  }

  addIndexers(indexers: Readonly<Record<string, IndexFunc>>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexers[name] === fn) continue;
      if (name in this.indexers) throw new Error(`indexer ${name} for ${this.type.plural} is registered twice with different functions`);
      if (this.#built !== undefined) throw new Error(`the ${this.type.plural} cache is already built; cannot add indexer ${name}`);
      this.indexers[name] = fn;
    }
  }

  get store(): Store {
    return this.#build().reflector.store;
  }

  onChange(listener: ChangeListener<KubernetesObject>): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  hasSynced(): boolean {
    return this.#built?.reflector.hasSynced() ?? false;
  }

  waitForSync(signal?: AbortSignal): Promise<void> {
    return this.#build().reflector.waitForSync(signal);
  }

  health(): WatcherHealth {
    return this.#build().watcher.health();
  }

  /** Runs the reflector until `signal` aborts; a second call while running resolves at once. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    await this.#build().reflector.run(signal);
  }

  #build(): { reflector: Reflector; watcher: Watcher } {
    if (this.#built === undefined) {
      this.#built = this.#factory(this);
      this.#built.reflector.onChange((change) => {
        for (const listener of this.#listeners) listener(change);
      });
    }
    return this.#built;
  }
}
