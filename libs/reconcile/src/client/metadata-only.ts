import type { KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';
import type { ResourceType } from './resource-type.ts';

/**
 * What a metadata-only list or watch returns for an object (`meta.k8s.io/v1` `PartialObjectMetadata`): its kind and
 * its metadata (name, namespace, labels, annotations, owner references, resourceVersion), never its spec, status or
 * `data`. Our transports set `apiVersion` and `kind` to the watched kind's, so handlers see a Secret as a Secret.
 */
export interface PartialObjectMetadata extends KubernetesObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: V1ObjectMeta;
}

/**
 * The same kind, listed and watched as {@link PartialObjectMetadata} (controller-runtime's `OnlyMetadata`): an
 * informer for it holds only metadata, so a change to any Secret can wake a reconcile without the cache holding a
 * byte of Secret data. Its informer is a separate one from the kind's full informer (each has its own scope). Pure.
 */
export function metadataOnly<T extends KubernetesObject>(type: ResourceType<T>): ResourceType<PartialObjectMetadata> {
  const { group, version, kind, plural, namespaced } = type;
  return { group, version, kind, plural, namespaced, projection: 'metadata' };
}

/** True when `type` came from {@link metadataOnly}. Pure. */
export function isMetadataOnly(type: ResourceType): boolean {
  return type.projection === 'metadata';
}
