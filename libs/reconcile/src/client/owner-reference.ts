import type { KubernetesObject, V1OwnerReference } from '@kubernetes/client-node';
import type { GroupVersionKind } from './resource-type.ts';
import { apiVersionOf } from './resource-type.ts';

/**
 * The controller ownerReference to `owner` of kind `type` (`controller: true`, `blockOwnerDeletion: true`), so the
 * garbage collector deletes the owned object with its owner and {@link isControlledBy} recognises it. The kind comes
 * from `type`, not from the object, since objects read from a list may lack `apiVersion` and `kind`. Pure.
 */
export function controllerReference(type: GroupVersionKind, owner: KubernetesObject): V1OwnerReference {
  return {
    apiVersion: apiVersionOf(type),
    kind: type.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}
