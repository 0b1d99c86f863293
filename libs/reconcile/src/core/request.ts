import type { KubernetesObject } from '@kubernetes/client-node';

/**
 * What a reconcile is asked to do: bring the object with this name to its desired state. Only the name,
 * never the event: reconciling is level-triggered.
 */
export interface Request {
  /** `undefined` for cluster-scoped kinds. */
  readonly namespace: string | undefined;
  readonly name: string;
}

/** The work-queue and store key of a request: `namespace/name`, or `name` when cluster-scoped. */
export function requestKey(request: Request): string {
  return request.namespace === undefined || request.namespace === '' ? request.name : `${request.namespace}/${request.name}`;
}

/** Inverse of {@link requestKey}. */
export function parseRequestKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: undefined, name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** The request for an object. Throws if the object has no name (it was never stored by the apiserver). */
export function requestFor(obj: KubernetesObject): Request {
  const name = obj.metadata?.name;
  if (name === undefined || name === '') throw new Error('object has no metadata.name');
  const namespace = obj.metadata?.namespace;
  return { namespace: namespace === '' ? undefined : namespace, name };
}

/** The key of an object, as {@link requestKey} of {@link requestFor}. */
export function objectKey(obj: KubernetesObject): string {
  return requestKey(requestFor(obj));
}
