import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import type { GroupVersionKind } from '../client/resource-type.ts';
import { controllerReference } from '../client/owner-reference.ts';
import type { InformerScope } from '../cache/informer-scope.ts';

/**
 * The label every generated Secret carries, valued `<system>-operator` (e.g. `kafka-operator`): the recommended
 * Kubernetes label, set by {@link ownedSecret} and never by Helm on a user's Secret (Helm writes `Helm`). Stable: an
 * operator's Secret informer selects on it, so changing it would hide every existing generated Secret (ADR 0021).
 */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';

/**
 * The scope of an operator's Secret informer: only the Secrets it generated (`app.kubernetes.io/managed-by=<managedBy>`),
 * so unrelated Secrets are never listed, watched or held. Referenced Secrets are read by name instead. Pure.
 */
export function ownedSecretScope(managedBy: string): InformerScope {
  return { labelSelector: `${MANAGED_BY_LABEL}=${managedBy}` };
}

/**
 * The name of the Secret an operator generates for an object without a Secret of its own:
 * `<name>-<system>-credentials` (e.g. `app-kafka-credentials`). Stable: renaming it would orphan the Secrets of
 * existing objects and generate new passwords. Pure.
 */
export function credentialsSecretName(ownerName: string, system: string): string {
  return `${ownerName}-${system}-credentials`;
}

/** What {@link ownedSecret} builds a Secret from. */
export interface OwnedSecretInput {
  /** The kind of the owner, as its ownerReference names it. */
  readonly ownerType: GroupVersionKind;
  /** The owner: the Secret takes its namespace and a controller reference to its name and UID. */
  readonly owner: KubernetesObject;
  readonly name: string;
  /** The value of {@link MANAGED_BY_LABEL}, e.g. `kafka-operator`; the operator's Secret informer selects on it. */
  readonly managedBy: string;
  /** More labels; they may not override `app.kubernetes.io/managed-by`. */
  readonly labels?: Readonly<Record<string, string>>;
  /** The Secret's values, in plain text (the apiserver stores them base64-encoded in `data`). */
  readonly stringData: Readonly<Record<string, string>>;
}

/**
 * An `Opaque` Secret in the owner's namespace, controlled by the owner (so the garbage collector deletes it with the
 * owner, and `isControlledBy(secret, ownerUid)` tells it from a Secret of the same name that someone else made).
 * Pure; the values go only into the object, never into a message.
 */
export function ownedSecret(input: OwnedSecretInput): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name: input.name,
      namespace: input.owner.metadata?.namespace ?? '',
      labels: { ...input.labels, [MANAGED_BY_LABEL]: input.managedBy },
      ownerReferences: [controllerReference(input.ownerType, input.owner)],
    },
    stringData: { ...input.stringData },
  };
}
