/**
 * The status schema parts every kind shares, written once: one condition (`metav1.Condition`, with the apiserver's
 * own limits), the conditions list keyed by `type`, and the fields of a kind managed by `ExternalResourceReconciler`.
 * Each with the descriptions `kubectl explain` shows.
 */
import { Type } from '@sinclair/typebox';
import type { TArray } from '@sinclair/typebox';
import { MAX_CONDITION_MESSAGE_LENGTH } from '../core/conditions.ts';

/** One Kubernetes condition (`metav1.Condition`), as the runtime's one status path writes it. */
export const ConditionSchema = Type.Object(
  {
    type: Type.String({ description: 'Type of the condition, CamelCase: Ready, and as the kind has them Synced, Stalled (kstatus: refused until something changes) or Reconciling (kstatus: in progress).', maxLength: 316 }),
    status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')], { description: 'Status of the condition: True, False or Unknown.' }),
    reason: Type.String({ description: 'Why the condition is in its state, CamelCase (for example SecretNotFound).', maxLength: 1024 }),
    message: Type.String({ description: 'A human-readable explanation (never a secret); empty when there is nothing to add.', maxLength: MAX_CONDITION_MESSAGE_LENGTH }),
    lastTransitionTime: Type.String({ description: 'When the condition last changed its status (RFC 3339).', format: 'date-time' }),
    observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation the condition was computed for.', minimum: 0 })),
  },
  { description: 'A condition of the resource (metav1.Condition).' },
);

/** `status.conditions` with `description`: a list of {@link ConditionSchema} keyed by `type` (a map list). Pure. */
export function conditionsField(description: string): TArray<typeof ConditionSchema> {
  return Type.Array(ConditionSchema, { description, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
}

/**
 * `observedGeneration`, `conditions` (described by `conditions`), `externalName` (described by `externalName`) and
 * `ownership`: the status the external-resource reconciler writes (ADR 0007), to spread into a kind's status object. Pure.
 */
export function externalResourceStatusFields(descriptions: { readonly conditions: string; readonly externalName: string }) {
  return {
    observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation the status describes.', minimum: 0 })),
    conditions: Type.Optional(conditionsField(descriptions.conditions)),
    externalName: Type.Optional(Type.String({ description: descriptions.externalName })),
    ownership: Type.Optional(
      Type.Union([Type.Literal('CreatePending'), Type.Literal('Created'), Type.Literal('Adopted')], {
        description: 'Whether this resource created (or adopted) its object; absent means it manages nothing yet.',
      }),
    ),
  };
}
