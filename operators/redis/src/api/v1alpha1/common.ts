/**
 * Schema parts shared by the kinds of `redis.domain-operators.io/v1alpha1`.
 */
import { Type } from '@sinclair/typebox';

/** The API group of this operator's kinds. */
export const GROUP = 'redis.domain-operators.io';
/** The one served and stored version. */
export const VERSION = 'v1alpha1';

/** A key of a Secret in the resource's own namespace. */
export const SecretKeyRefSchema = Type.Object(
  {
    name: Type.String({ description: 'Name of the Secret, in the same namespace as this resource.', minLength: 1, maxLength: 253 }),
    key: Type.Optional(Type.String({ description: 'Key in the Secret that holds the password. Defaults to "password".', minLength: 1, default: 'password' })),
  },
  { description: 'A key of a Secret in the same namespace.' },
);

/** `metav1.Condition`, as the status of every kind carries it. */
export const ConditionSchema = Type.Object(
  {
    type: Type.String({ description: 'Type of the condition, CamelCase, e.g. Ready.' }),
    status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')], { description: 'Status of the condition: True, False or Unknown.' }),
    reason: Type.String({ description: 'CamelCase reason for the last transition.' }),
    message: Type.String({ description: 'Human-readable detail about the last transition.' }),
    lastTransitionTime: Type.String({ description: 'When the status last changed (RFC 3339).', format: 'date-time' }),
    observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation this condition was computed from.', minimum: 0 })),
  },
  { description: 'A status condition (metav1.Condition).' },
);

/** The conditions list of a status. */
export const ConditionsSchema = Type.Array(ConditionSchema, {
  description: 'The latest observations of the resource state.',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
});
