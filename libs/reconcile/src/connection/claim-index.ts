import type { V1Namespace } from '@kubernetes/client-node';
import type { Informer } from '../cache/informer.ts';
import type { StoreChange } from '../cache/store.ts';
import { objectKey } from '../core/request.ts';
import type { ClaimIndex } from '../external/external-claims.ts';
import type { ConnectionDependent, ConnectionObject } from './connection-object.ts';
import { CONNECTION_INDEX } from './dependents.ts';

/** What {@link connectionClaimIndex} follows. Only `onChange` is used at construction; stores are read in listeners. */
export interface ConnectionClaimIndexDeps<T extends ConnectionDependent, K extends ConnectionObject> {
  /** The dependents' informer, with {@link CONNECTION_INDEX} registered. */
  readonly dependents: Pick<Informer<T>, 'store' | 'onChange'>;
  readonly connections: Pick<Informer<K>, 'onChange'>;
  readonly namespaces: Pick<Informer<V1Namespace>, 'onChange'>;
  /**
   * The kind's external name, the same function the reconciler uses; it may read the dependent, its connection and
   * its namespace from the caches, and throws when the name cannot be computed (the dependent then claims nothing).
   */
  externalName(object: T): string;
}

/**
 * The claim index of a dependent kind (ADR 0007's "one claimant per name"), computed on change, not per reconcile:
 * a dependent's external name is computed when it changes, when its connection is created, deleted or changes its
 * spec, and when its namespace is created, deleted or relabelled (what names and tenancy depend on), and kept;
 * {@link ClaimIndex.claimants} only looks names up. So a cache that syncs before the connections' cache misses no
 * conflict (the connection's arrival recomputes its dependents), and a reconcile costs no name computation of
 * others. An external name that reads anything else is recomputed only on those changes. Reads may be stale like the
 * caches it follows.
 */
export interface ConnectionClaimIndex<T extends ConnectionDependent> extends ClaimIndex<T> {
  /** How many external names were computed since it was made (for tests and the benchmark). */
  computed(): number;
}

/** Builds a {@link ConnectionClaimIndex} and subscribes it to the three informers' changes. Computes nothing yet. */
export function connectionClaimIndex<T extends ConnectionDependent, K extends ConnectionObject>(deps: ConnectionClaimIndexDeps<T, K>): ConnectionClaimIndex<T> {
  const index = new NameIndex<T>(deps);
  deps.dependents.onChange((change) => {
    index.onDependent(change);
  });
  deps.connections.onChange((change) => {
    if (change.type !== 'Modified' || change.object.metadata.generation !== change.oldObject.metadata.generation) {
      index.recompute(deps.dependents.store.byIndex(CONNECTION_INDEX, change.object.metadata.name ?? ''));
    }
  });
  deps.namespaces.onChange((change) => {
    if (change.type !== 'Modified' || !sameLabels(change.object, change.oldObject)) {
      index.recompute(deps.dependents.store.list(change.object.metadata?.name ?? ''));
    }
  });
  return index;
}

/** key → external name, and external name → keys; the claimants are read back from the store, always the cached version. */
class NameIndex<T extends ConnectionDependent> implements ConnectionClaimIndex<T> {
  readonly #deps: Pick<ConnectionClaimIndexDeps<T, ConnectionObject>, 'dependents' | 'externalName'>;
  readonly #nameOf = new Map<string, string>();
  readonly #keysOf = new Map<string, Set<string>>();
  #computed = 0;

  constructor(deps: Pick<ConnectionClaimIndexDeps<T, ConnectionObject>, 'dependents' | 'externalName'>) {
    this.#deps = deps;
  }

  claimants(externalName: string): readonly T[] {
    const keys = this.#keysOf.get(externalName);
    if (keys === undefined) return [];
    const store = this.#deps.dependents.store;
    return [...keys].flatMap((key) => store.get(key) ?? []);
  }

  computed(): number {
    return this.#computed;
  }

  onDependent(change: StoreChange<T>): void {
    if (change.type === 'Deleted') this.#set(objectKey(change.object), undefined);
    else this.recompute([change.object]);
  }

  recompute(objects: readonly T[]): void {
    for (const object of objects) this.#set(objectKey(object), this.#compute(object));
  }

  #compute(object: T): string | undefined {
    this.#computed += 1;
    try {
      return this.#deps.externalName(object);
    } catch {
      return undefined;
    }
  }

  #set(key: string, name: string | undefined): void {
    const before = this.#nameOf.get(key);
    if (before === name) return;
    if (before !== undefined) {
      const keys = this.#keysOf.get(before);
      keys?.delete(key);
      if (keys?.size === 0) this.#keysOf.delete(before);
    }
    if (name === undefined) {
      this.#nameOf.delete(key);
      return;
    }
    this.#nameOf.set(key, name);
    let keys = this.#keysOf.get(name);
    if (keys === undefined) {
      keys = new Set();
      this.#keysOf.set(name, keys);
    }
    keys.add(key);
  }
}

function sameLabels(a: V1Namespace, b: V1Namespace): boolean {
  const left = a.metadata?.labels ?? {};
  const right = b.metadata?.labels ?? {};
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => left[key] === right[key]);
}
