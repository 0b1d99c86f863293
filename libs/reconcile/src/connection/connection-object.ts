import type { KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';
import type { Condition } from '../core/conditions.ts';
import type { Store } from '../cache/store.ts';

/** A `*Connection` as the runtime reads it: cluster-scoped, with a `Ready` condition in its status. */
export interface ConnectionObject extends KubernetesObject {
  readonly metadata: V1ObjectMeta;
  readonly status?: { readonly conditions?: readonly Condition[] | undefined } | undefined;
}

/** A resource that uses a connection: it names it in `spec.connectionRef.name`. */
export interface ConnectionDependent extends KubernetesObject {
  readonly metadata: V1ObjectMeta;
  readonly spec: { readonly connectionRef: { readonly name: string } };
}

/**
 * Where a cache is read from: usually an informer, whose `store` is read only when needed (reading it builds the
 * cache, after which no indexer can be added, so it must not be read while controllers are still being built).
 */
export interface StoreSource<T extends KubernetesObject> {
  readonly store: Store<T>;
}
