import { Type } from '@sinclair/typebox';
import type { Static, TProperties } from '@sinclair/typebox';

/**
 * Schema parts of client quotas, shared by `KafkaUser.spec.quotas` and the `defaultUserQuotas` and `maxUserQuotas`
 * of a `KafkaConnection`'s tenancy, so that the three always name the same fields with the same bounds.
 */

/** The byte-rate and request fields Kafka applies to a user and to a (user, client id) entity alike. */
function rateFields(whose: string) {
  return {
    producerByteRate: Type.Optional(Type.Integer({ description: `Bytes per second ${whose} producers may send, per broker.`, minimum: 0, format: 'int64' })),
    consumerByteRate: Type.Optional(Type.Integer({ description: `Bytes per second ${whose} consumers may fetch, per broker.`, minimum: 0, format: 'int64' })),
    requestPercentage: Type.Optional(Type.Number({ description: 'Percentage of request handler and network thread time, per broker.', minimum: 0 })),
  } satisfies TProperties;
}

/** The user-level quota fields (entity `user=<username>`), as properties of an object schema. */
export function userQuotaFields(whose: string) {
  return {
    ...rateFields(whose),
    controllerMutationRate: Type.Optional(Type.Number({ description: 'Partition mutations per second (create or delete topics, add partitions).', minimum: 0 })),
  } satisfies TProperties;
}

/** One per-client-id entry of `KafkaUser.spec.quotas.clients`: entity `user=<username>,client-id=<clientId>`. */
export const ClientIdQuotasSchema = Type.Object(
  {
    clientId: Type.String({
      description: 'The client.id the application sets; the entry applies to that client id of this user only.',
      minLength: 1,
      maxLength: 255,
      'x-kubernetes-validations': [{ rule: "self.matches('^[a-zA-Z0-9._-]+$')", message: 'clientId may contain only letters, digits, ".", "_" and "-"' }],
    }),
    ...rateFields('this client id\u2019s'),
  },
  {
    description:
      'Quotas of one client id of the user. For a connection with that client id, Kafka applies a key set here instead of the same key of the user; ' +
      'a key not set here falls back to the user\u2019s.',
    'x-kubernetes-validations': [
      { rule: 'has(self.producerByteRate) || has(self.consumerByteRate) || has(self.requestPercentage)', message: 'a clients entry must set at least one of producerByteRate, consumerByteRate and requestPercentage' },
    ],
  },
);

/**
 * A CEL rule for the object holding the fields `lower` and `upper` (both quota objects): every key both set is no
 * larger in `lower` than in `upper`, for example a connection's defaults within its ceiling.
 */
export function withinRule(lower: string, upper: string): string {
  const keys = ['producerByteRate', 'consumerByteRate', 'requestPercentage', 'controllerMutationRate'];
  const each = keys.map((k) => `(!has(self.${lower}.${k}) || !has(self.${upper}.${k}) || self.${lower}.${k} <= self.${upper}.${k})`);
  return `!has(self.${lower}) || !has(self.${upper}) || (${each.join(' && ')})`;
}

/** The byte-rate and request quotas of one client id of a user; the keys Kafka applies per (user, client id). */
export type KafkaClientIdQuotas = Static<typeof ClientIdQuotasSchema>;
