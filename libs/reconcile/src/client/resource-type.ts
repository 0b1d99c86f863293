import type {
  KubernetesObject,
  V1ConfigMap,
  V1CustomResourceDefinition,
  V1Lease,
  V1Namespace,
  V1Pod,
  V1Secret,
  V1Service,
  V1ServiceAccount,
  V1StatefulSet,
} from '@kubernetes/client-node';

/** A kind, as a watch and an owner reference name it. */
export interface GroupVersionKind {
  /** Empty string for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The `apiVersion` string of a kind: `v1` for the core group, else `group/version`. */
export function apiVersionOf(gvk: GroupVersionKind): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}

/**
 * A kind as the REST API serves it. `T` is the object type; it only types what the client returns.
 * Explicit on purpose: no discovery round trips, and a typo fails at the first call with a 404.
 */
export interface ResourceType<T extends KubernetesObject = KubernetesObject> extends GroupVersionKind {
  /** Lower-case plural used in URLs, e.g. `kafkatopics`. */
  readonly plural: string;
  readonly namespaced: boolean;
  /**
   * `metadata`: lists and watches ask for `PartialObjectMetadata` only (see `metadataOnly`); absent: whole objects.
   * Only informers honour it; the client's reads return whole objects either way.
   */
  readonly projection?: 'metadata';
  /** Phantom field carrying `T`; never set. */
  readonly __object?: T;
}

/** Declares a {@link ResourceType}. */
export function resourceType<T extends KubernetesObject = KubernetesObject>(type: Omit<ResourceType<T>, '__object'>): ResourceType<T> {
  return type;
}

/** Where a list or watch looks: one namespace, or all (also for cluster-scoped kinds). */
export interface ListScope {
  /** One namespace; absent means every namespace (or a cluster-scoped kind). */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/**
 * The collection path of a type: `/api/v1/namespaces/ns/pods`, `/apis/g/v/plural`. A namespace is refused
 * for cluster-scoped kinds so that mistakes surface at once.
 */
export function collectionPath(type: ResourceType, namespace: string | undefined): string {
  const prefix = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  if (!type.namespaced && namespace !== undefined) throw new Error(`${type.kind} is cluster-scoped; got namespace ${namespace}`);
  return namespace === undefined ? `${prefix}/${type.plural}` : `${prefix}/namespaces/${encodeURIComponent(namespace)}/${type.plural}`;
}

/** The path of one object, with an optional subresource such as `status`. Namespaced kinds need a namespace. */
export function objectPath(type: ResourceType, namespace: string | undefined, name: string, subresource?: string): string {
  if (type.namespaced && namespace === undefined) throw new Error(`${type.kind} is namespaced; ${name} needs a namespace`);
  const base = `${collectionPath(type, namespace)}/${encodeURIComponent(name)}`;
  return subresource === undefined ? base : `${base}/${subresource}`;
}

/** Common built-in kinds the operators and tests use. */
export const coreTypes = {
  namespace: resourceType<V1Namespace>({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false }),
  configMap: resourceType<V1ConfigMap>({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true }),
  secret: resourceType<V1Secret>({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }),
  service: resourceType<V1Service>({ group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true }),
  pod: resourceType<V1Pod>({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true }),
  serviceAccount: resourceType<V1ServiceAccount>({ group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true }),
  statefulSet: resourceType<V1StatefulSet>({ group: 'apps', version: 'v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true }),
  lease: resourceType<V1Lease>({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true }),
  customResourceDefinition: resourceType<V1CustomResourceDefinition>({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
  }),
} as const;
