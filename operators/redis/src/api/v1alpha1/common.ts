/**
 * Schema parts shared by the kinds of `redis.domain-operators.io/v1alpha1`.
 */
import { Type } from '@sinclair/typebox';
import { conditionsField } from '@domain-operators/reconcile';

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

/** The conditions list of a status: the runtime's one condition list, keyed by `type`. */
export const ConditionsSchema = conditionsField('The latest observations of the resource state.');
