import type { KubernetesObject, V1OwnerReference } from '@kubernetes/client-node';
import type { GroupVersionKind } from '../client/resource-type.ts';
import type { Request } from '../core/request.ts';

/** Maps a watched object to the requests it should wake. Must be pure and cheap; may read a Store index. */
export type MapFunc<T extends KubernetesObject = KubernetesObject> = (object: T) => readonly Request[];

/** The group of an `apiVersion` string (`''` for `v1`). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * Maps an owned object to its controlling owner of kind `owner` (the ownerReference with `controller: true`),
 * in the object's namespace, as controller-runtime's `EnqueueRequestForOwner` with `OnlyControllerOwner`.
 * The owner's version is ignored, so an owner served in several versions still matches. Objects without such
 * a reference map to nothing.
 */
export function enqueueControllerOwner(owner: GroupVersionKind): MapFunc {
  return (object) => {
    const ref = controllerRefOf(object);
    if (ref?.kind !== owner.kind || groupOf(ref.apiVersion) !== owner.group) return [];
    return [{ namespace: object.metadata?.namespace, name: ref.name }];
  };
}

/** The ownerReference with `controller: true`, if any (Kubernetes allows at most one). */
export function controllerRefOf(object: KubernetesObject): V1OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

/** True when the object whose UID is `ownerUid` is the controller of `object` (an empty UID never is). Pure. */
export function isControlledBy(object: KubernetesObject, ownerUid: string): boolean {
  return ownerUid !== '' && controllerRefOf(object)?.uid === ownerUid;
}
