import type { KubernetesObject } from '@kubernetes/client-node';
import type { ChangeListener } from './reflector.ts';
import type { Informer, InformerHealth, InformerRequest, SharedInformersDeps, SharedInformersOptions } from './informer.ts';
import { SharedInformers } from './informer.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { informerId } from './informer-scope.ts';
import type { Store } from './store.ts';
import type { WatcherHealth } from './watcher.ts';

/** The informer cache a manager runs: hands out informers, runs them, waits for and reports their sync and health. */
export interface InformerCache {
  informerFor<T extends KubernetesObject>(type: ResourceType<T>, request?: InformerRequest<T>): Informer<T>;
  /** Runs every informer until `signal` aborts; resolves once all have stopped. */
  run(signal: AbortSignal): Promise<void>;
  /** Resolves when every informer has synced; rejects when `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<void>;
  /** Health per informer, keyed by kind (and `@namespace` when watching a list of namespaces). */
  health(): Record<string, InformerHealth>;
}

/**
 * The cache for a list of namespaces: one {@link SharedInformers} per namespace (as controller-runtime's
 * multi-namespace cache), so an operator needs RBAC only in the namespaces it watches (a Role per namespace, no
 * ClusterRole to list everything) and never holds objects of other namespaces in memory. The informer it hands
 * out for a namespaced kind merges the per-namespace caches behind one {@link Store}; a cluster-scoped kind is
 * watched once. Costs one watch per kind per namespace, so for many namespaces prefer watching all of them.
 */
export class MultiNamespaceInformers implements InformerCache {
  readonly #parts: ReadonlyMap<string, SharedInformers>;
  readonly #clusterScoped: SharedInformers;
  readonly #merged = new Map<string, Informer>();

  /** One SharedInformers per namespace, none started. `namespaces` must not be empty. */
  constructor(deps: SharedInformersDeps, options: Omit<SharedInformersOptions, 'namespace'> & { readonly namespaces: readonly string[] }) {
    if (options.namespaces.length === 0) throw new Error('MultiNamespaceInformers needs at least one namespace');
    const { namespaces, ...shared } = options;
    this.#parts = new Map(namespaces.map((namespace) => [namespace, new SharedInformers(deps, { ...shared, namespace })]));
    // SharedInformers ignores its namespace for cluster-scoped kinds: any one of them watches those once.
    this.#clusterScoped = new SharedInformers(deps, shared);
  }

  informerFor<T extends KubernetesObject>(type: ResourceType<T>, request: InformerRequest<T> = {}): Informer<T> {
    if (!type.namespaced) return this.#clusterScoped.informerFor(type, request);
    const informers = new Map([...this.#parts.entries()].map(([namespace, part]) => [namespace, part.informerFor(type, request)]));
    const id = informerId(type);
    let merged = this.#merged.get(id);
    if (merged === undefined) {
      merged = new MergedInformer(type, informers);
      this.#merged.set(id, merged);
    }
    return merged as unknown as Informer<T>;
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.#clusterScoped, ...this.#parts.values()].map((part) => part.run(signal)));
  }

  async waitForSync(signal?: AbortSignal): Promise<void> {
    await Promise.all([this.#clusterScoped, ...this.#parts.values()].map((part) => part.waitForSync(signal)));
  }

  health(): Record<string, InformerHealth> {
    const result: Record<string, InformerHealth> = this.#clusterScoped.health();
    for (const [namespace, part] of this.#parts) {
      for (const [kind, health] of Object.entries(part.health())) result[`${kind}@${namespace}`] = health;
    }
    return result;
  }
}

/** One namespaced kind across several namespaces. */
class MergedInformer<T extends KubernetesObject> implements Informer<T> {
  readonly type: ResourceType<T>;
  readonly store: Store<T>;
  readonly #parts: ReadonlyMap<string, Informer<T>>;

  constructor(type: ResourceType<T>, parts: ReadonlyMap<string, Informer<T>>) {
    this.type = type;
    this.#parts = parts;
    this.store = new MergedStore(new Map([...parts].map(([namespace, informer]) => [namespace, () => informer.store])));
  }

  onChange(listener: ChangeListener<T>): () => void {
    const removals = [...this.#parts.values()].map((informer) => informer.onChange(listener));
    return () => {
      for (const remove of removals) remove();
    };
  }

  hasSynced(): boolean {
    return [...this.#parts.values()].every((informer) => informer.hasSynced());
  }

  async waitForSync(signal?: AbortSignal): Promise<void> {
    await Promise.all([...this.#parts.values()].map((informer) => informer.waitForSync(signal)));
  }

  /** The least healthy namespace's watch: one not watching, else the one silent the longest. */
  health(): WatcherHealth {
    const all = [...this.#parts.values()].map((informer) => informer.health());
    const notWatching = all.find((health) => health.state !== 'Watching');
    if (notWatching !== undefined) return notWatching;
    return all.reduce((worst, health) => ((health.lastActivityTime ?? -Infinity) < (worst.lastActivityTime ?? -Infinity) ? health : worst));
  }
}

/** Routes reads by namespace; the part stores are read lazily (building a cache is deferred until first read). */
class MergedStore<T extends KubernetesObject> implements Store<T> {
  readonly #parts: ReadonlyMap<string, () => Store<T>>;

  constructor(parts: ReadonlyMap<string, () => Store<T>>) {
    this.#parts = parts;
  }

  get(key: string): T | undefined {
    const slash = key.indexOf('/');
    return slash < 0 ? undefined : this.#parts.get(key.slice(0, slash))?.().get(key);
  }

  list(namespace?: string): T[] {
    if (namespace !== undefined) return this.#parts.get(namespace)?.().list(namespace) ?? [];
    return this.#all((store) => store.list());
  }

  byIndex(indexName: string, value: string): T[] {
    return this.#all((store) => store.byIndex(indexName, value));
  }

  keys(): string[] {
    return this.#all((store) => store.keys());
  }

  size(): number {
    return this.#all((store) => [store.size()]).reduce((sum, n) => sum + n, 0);
  }

  hasSynced(): boolean {
    return [...this.#parts.values()].every((store) => store().hasSynced());
  }

  #all<R>(read: (store: Store<T>) => R[]): R[] {
    return [...this.#parts.values()].flatMap((store) => read(store()));
  }
}
