import type { KubernetesObject } from '@kubernetes/client-node';
import type { ObjectReader } from '../client/client.ts';
import { requestKey } from '../core/request.ts';

/**
 * A read-only view of the objects a reflector has cached for one resource type.
 *
 * Reads may be stale: the cache trails the API server by the watch latency, and an object the controller just wrote
 * may not be there yet (or may still be the old version). Objects returned are shared and deep-frozen (unless the
 * store was built with `freeze: false`, in which case callers still must not mutate them); copy before changing.
 * Every method is synchronous, cheap and never blocks.
 */
export interface Store<T extends KubernetesObject = KubernetesObject> {
  /** The object with key `namespace/name` (or `name` when cluster-scoped), or undefined. */
  get(key: string): T | undefined;
  /** All objects, or those in `namespace`; a new array each call, in no particular order. */
  list(namespace?: string): T[];
  /** Objects for which indexer `indexName` returned `value`; throws when no such indexer was registered. */
  byIndex(indexName: string, value: string): T[];
  /** Keys of all cached objects. */
  keys(): string[];
  /** Number of cached objects. */
  size(): number;
  /** True once the first full list has been stored (and its changes delivered); never false again. */
  hasSynced(): boolean;
}

/** Computes the values under which an object is indexed. Must be pure and must not throw. */
export type IndexFunc<T extends KubernetesObject = KubernetesObject> = (object: T) => readonly string[];

/**
 * A change to the cache, as reported to a reflector's listeners. `oldObject` is the version cached before.
 * `fromList` is `true` on every change found by a full list ({@link StoreWriter.replace}: the initial list and each
 * relist) and absent on changes from watch events; a controller queues the former at low priority.
 */
export type StoreChange<T extends KubernetesObject = KubernetesObject> =
  | { readonly type: 'Added'; readonly object: T; readonly oldObject?: undefined; readonly fromList?: true }
  | { readonly type: 'Modified'; readonly object: T; readonly oldObject: T; readonly fromList?: true }
  | { readonly type: 'Deleted'; readonly object: T; readonly oldObject?: T; readonly fromList?: true };

/** Options of a {@link StoreWriter}. */
export interface StoreOptions<T extends KubernetesObject = KubernetesObject> {
  /** Named indexers, fixed at construction; query them with {@link Store.byIndex}. */
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>>;
  /**
   * Applied to every object before it is cached; must not mutate its input, must keep `metadata.name`,
   * `metadata.namespace` and `metadata.resourceVersion`, and must not throw. Default {@link stripManagedFields}.
   */
  readonly transform?: (object: T) => T;
  /**
   * Deep-freeze cached objects so accidental mutation throws (default true). The writer takes ownership of what it is
   * given: parts the transform shares with its input (or the input itself, when nothing was stripped) are frozen too.
   */
  readonly freeze?: boolean;
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The default cache transform: drops `metadata.managedFields` and the `kubectl.kubernetes.io/last-applied-configuration`
 * annotation, which together are often most of an object's size and which controllers almost never read. Returns the
 * input itself when there is nothing to strip; otherwise a shallow copy, leaving the input untouched.
 */
export function stripManagedFields<T extends KubernetesObject>(object: T): T {
  const metadata = object.metadata;
  if (metadata === undefined) return object;
  const annotations = metadata.annotations;
  const hasLastApplied = annotations !== undefined && LAST_APPLIED in annotations;
  if (metadata.managedFields === undefined && !hasLastApplied) return object;
  const { managedFields: _managedFields, annotations: _annotations, ...rest } = metadata;
  let kept: Record<string, string> | undefined = annotations;
  if (hasLastApplied) {
    const { [LAST_APPLIED]: _lastApplied, ...others } = annotations;
    kept = Object.keys(others).length === 0 ? undefined : others;
  }
  return { ...object, metadata: kept === undefined ? rest : { ...rest, annotations: kept } };
}

/** Indexes an object under the UIDs of its owner references, to map a child to the owners to reconcile. */
export const byOwnerUid: IndexFunc = (object) => object.metadata?.ownerReferences?.map((ref) => ref.uid) ?? [];

/** A reference to a Secret as returned by the extractor given to {@link bySecretRef}. */
export type SecretRef = string | { readonly name: string; readonly namespace?: string | undefined } | undefined;

/**
 * Builds an indexer over the Secrets an object refers to. `refs` extracts the references (a name, or name and
 * namespace); a reference without a namespace means the object's own. Values are `namespace/name`, i.e. the Secret's
 * store key, so a Secret event maps to dependents with `byIndex(indexName, objectKey(secret))`.
 */
export function bySecretRef<T extends KubernetesObject>(refs: (object: T) => Iterable<SecretRef>): IndexFunc<T> {
  return (object) => {
    const values: string[] = [];
    for (const ref of refs(object)) {
      if (ref === undefined) continue;
      const name = typeof ref === 'string' ? ref : ref.name;
      if (name === '') continue;
      const namespace = (typeof ref === 'string' ? undefined : ref.namespace) ?? object.metadata?.namespace ?? '';
      values.push(namespace === '' ? name : `${namespace}/${name}`);
    }
    return values;
  };
}

/** Freezes `value` and everything reachable from it; stops at values already frozen (shared or cached subtrees). */
function deepFreeze(value: object): void {
  Object.freeze(value);
  // Tested before recursing: most values of an object are strings, and a call per string is most of the cost.
  for (const child of Object.values(value) as unknown[]) {
    if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) deepFreeze(child);
  }
}

interface Index<T extends KubernetesObject> {
  readonly fn: IndexFunc<T>;
  /** value → cached objects. Holding object references (not key strings) costs no extra string per entry. */
  readonly entries: Map<string, Set<T>>;
}

/**
 * The one writer of a cache, owned by a reflector; everything else reads through {@link StoreWriter.reader}.
 *
 * Objects are held in a map per namespace keyed by `metadata.name`, so no key string is allocated per object; indexes
 * map values to object references. Every write updates the indexes for the changed entry only. Writes are
 * synchronous; a reader never sees a half-applied write.
 */
export class StoreWriter<T extends KubernetesObject = KubernetesObject> implements Store<T> {
  readonly #transform: (object: T) => T;
  readonly #freeze: boolean;
  readonly #indexes = new Map<string, Index<T>>();
  /** namespace ('' for cluster-scoped) → name → object. */
  #objects = new Map<string, Map<string, T>>();
  #size = 0;
  #synced = false;
  #reader: Store<T> | undefined;

  /** Registers the indexers; caches nothing yet. */
  constructor(options: StoreOptions<T> = {}) {
    this.#transform = options.transform ?? stripManagedFields;
    this.#freeze = options.freeze ?? true;
    for (const [name, fn] of Object.entries(options.indexers ?? {})) this.#indexes.set(name, { fn, entries: new Map() });
  }

  /** A read-only view of this store (the same view every call), to hand to controllers. */
  reader(): Store<T> {
    this.#reader ??= Object.freeze({
      get: (key: string) => this.get(key),
      list: (namespace?: string) => this.list(namespace),
      byIndex: (indexName: string, value: string) => this.byIndex(indexName, value),
      keys: () => this.keys(),
      size: () => this.size(),
      hasSynced: () => this.hasSynced(),
    });
    return this.#reader;
  }

  /** See {@link Store.get}. */
  get(key: string): T | undefined {
    const slash = key.indexOf('/');
    if (slash < 0) return this.#objects.get('')?.get(key);
    return this.#objects.get(key.slice(0, slash))?.get(key.slice(slash + 1));
  }

  /** See {@link Store.list}. */
  list(namespace?: string): T[] {
    if (namespace !== undefined) return [...(this.#objects.get(namespace)?.values() ?? [])];
    const all: T[] = [];
    for (const byName of this.#objects.values()) for (const object of byName.values()) all.push(object);
    return all;
  }

  /** See {@link Store.byIndex}. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.#indexes.get(indexName);
    if (index === undefined) throw new Error(`Store.byIndex: no indexer named '${indexName}'`);
    return [...(index.entries.get(value) ?? [])];
  }

  /** See {@link Store.keys}. */
  keys(): string[] {
    const keys: string[] = [];
    for (const [namespace, byName] of this.#objects) {
      for (const name of byName.keys()) keys.push(namespace === '' ? name : `${namespace}/${name}`);
    }
    return keys;
  }

  /** See {@link Store.size}. */
  size(): number {
    return this.#size;
  }

  /** See {@link Store.hasSynced}. */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** Records that the first full list has been stored and delivered. Idempotent. */
  markSynced(): void {
    this.#synced = true;
  }

  /**
   * Replaces the whole content with `objects` (a full list) and returns what changed: new keys as `Added`, keys whose
   * resourceVersion differs as `Modified`, missing keys as `Deleted`. A key whose UID changed (deleted and created
   * again while no watch ran) is `Deleted` (the old object) then `Added`, so a controller forgets the old one. An
   * unchanged object keeps its cached instance. Every change returned has `fromList: true`.
   */
  replace(objects: Iterable<T>): StoreChange<T>[] {
    const previous = this.#objects;
    const next = new Map<string, Map<string, T>>();
    const changes: StoreChange<T>[] = [];
    let size = 0;
    for (const raw of objects) {
      const { namespace, name } = names(raw);
      let byName = next.get(namespace);
      if (byName === undefined) next.set(namespace, (byName = new Map<string, T>()));
      // The API server never lists a key twice; if a transport did, the first occurrence wins.
      if (byName.has(name)) continue;
      size++;
      const old = previous.get(namespace)?.get(name);
      if (old !== undefined && sameVersion(old, raw)) {
        byName.set(name, old);
        continue;
      }
      const object = this.#prepare(raw);
      byName.set(name, object);
      if (old !== undefined) this.#unindex(old);
      this.#index(object);
      if (old === undefined) changes.push({ type: 'Added', object, fromList: true });
      else if (recreated(old, object)) changes.push({ type: 'Deleted', object: old, oldObject: old, fromList: true }, { type: 'Added', object, fromList: true });
      else changes.push({ type: 'Modified', object, oldObject: old, fromList: true });
    }
    for (const [namespace, byName] of previous) {
      const kept = next.get(namespace);
      for (const [name, old] of byName) {
        if (kept?.has(name) === true) continue;
        this.#unindex(old);
        changes.push({ type: 'Deleted', object: old, oldObject: old, fromList: true });
      }
    }
    this.#objects = next;
    this.#size = size;
    return changes;
  }

  /**
   * Inserts or updates one object (from an `Added` or `Modified` event). Returns the change, or undefined when the
   * cached version already has the same resourceVersion (a replayed event).
   */
  apply(raw: T): StoreChange<T> | undefined {
    const { namespace, name } = names(raw);
    let byName = this.#objects.get(namespace);
    const old = byName?.get(name);
    if (old !== undefined && sameVersion(old, raw)) return undefined;
    const object = this.#prepare(raw);
    if (byName === undefined) this.#objects.set(namespace, (byName = new Map<string, T>()));
    byName.set(name, object);
    if (old === undefined) this.#size++;
    else this.#unindex(old);
    this.#index(object);
    return old === undefined ? { type: 'Added', object } : { type: 'Modified', object, oldObject: old };
  }

  /**
   * Removes an object (from a `Deleted` event, whose object is its final state). Always returns a `Deleted` change,
   * with `oldObject` set when it was cached, so a deletion is reported even if the cache had missed the object.
   */
  delete(raw: T): StoreChange<T> {
    const { namespace, name } = names(raw);
    const byName = this.#objects.get(namespace);
    const old = byName?.get(name);
    if (byName !== undefined && old !== undefined) {
      byName.delete(name);
      if (byName.size === 0) this.#objects.delete(namespace);
      this.#size--;
      this.#unindex(old);
    }
    const object = this.#prepare(raw);
    return old === undefined ? { type: 'Deleted', object } : { type: 'Deleted', object, oldObject: old };
  }

  #prepare(raw: T): T {
    const object = this.#transform(raw);
    if (this.#freeze && !Object.isFrozen(object)) deepFreeze(object);
    return object;
  }

  #index(object: T): void {
    for (const index of this.#indexes.values()) {
      for (const value of index.fn(object)) {
        let set = index.entries.get(value);
        if (set === undefined) index.entries.set(value, (set = new Set()));
        set.add(object);
      }
    }
  }

  #unindex(object: T): void {
    for (const index of this.#indexes.values()) {
      for (const value of index.fn(object)) {
        const set = index.entries.get(value);
        if (set === undefined) continue;
        set.delete(object);
        if (set.size === 0) index.entries.delete(value);
      }
    }
  }
}

function names(object: KubernetesObject): { namespace: string; name: string } {
  return { namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' };
}

function sameVersion(a: KubernetesObject, b: KubernetesObject): boolean {
  const version = a.metadata?.resourceVersion;
  return version !== undefined && version === b.metadata?.resourceVersion;
}

/**
 * The Store as an {@link ObjectReader}, so code written against the client's read interface can read from the
 * cache instead. Answers from memory (never a request); reads may be stale. `list` honours only `namespace`:
 * label and field selectors are not evaluated on cached objects and are refused.
 */
export function storeReader<T extends KubernetesObject>(store: Store<T>): ObjectReader<T> {
  return {
    get: (request) => Promise.resolve(store.get(requestKey(request))),
    list: (scope = {}) => {
      if (scope.labelSelector !== undefined || scope.fieldSelector !== undefined) {
        return Promise.reject(new Error('storeReader: selectors are not supported on the cache; filter the list instead'));
      }
      return Promise.resolve(store.list(scope.namespace));
    },
  };
}

/** Whether `next` is another object under the same key (both have UIDs, and they differ). */
function recreated(old: KubernetesObject, next: KubernetesObject): boolean {
  const before = old.metadata?.uid;
  const after = next.metadata?.uid;
  return before !== undefined && after !== undefined && before !== after;
}
