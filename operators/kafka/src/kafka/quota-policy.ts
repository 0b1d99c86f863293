import { ConnectionReasons } from '@domain-operators/reconcile';
import type { TenancyResult } from './tenancy.ts';
import type { KafkaClientIdQuotas, KafkaTenancy, KafkaUserLevelQuotas, KafkaUserQuotas } from '../api/v1alpha1/index.ts';

/**
 * The quota rules of a KafkaConnection's tenancy, as pure functions: a KafkaUser that sets no quotas gets the
 * connection's `defaultUserQuotas`; no value a KafkaUser sets (user-level or per client id) may exceed
 * `maxUserQuotas`; and a key the ceiling names is never left unlimited at the user level (a user that sets no value
 * for it, and gets none from the defaults, gets the ceiling itself). Decided before anything is sent to Kafka, so a
 * refused user changes nothing there.
 */

/** The user-level quota fields, in the order messages name them. */
export const USER_QUOTA_FIELDS = ['producerByteRate', 'consumerByteRate', 'requestPercentage', 'controllerMutationRate'] as const satisfies readonly (keyof KafkaUserLevelQuotas)[];

/** The quota fields of a per-client-id entry. */
export const CLIENT_ID_QUOTA_FIELDS = ['producerByteRate', 'consumerByteRate', 'requestPercentage'] as const satisfies readonly (keyof KafkaClientIdQuotas)[];

/** True when the spec sets no quota at all: no user-level value and no per-client-id entry. Pure. */
export function setsNoQuotas(quotas: KafkaUserQuotas | undefined): boolean {
  if (quotas === undefined) return true;
  return USER_QUOTA_FIELDS.every((field) => quotas[field] === undefined) && (quotas.clients ?? []).length === 0;
}

/**
 * The quotas the operator applies for a KafkaUser whose spec says `quotas`, under the connection's `tenancy`:
 * - a value above the ceiling (`maxUserQuotas`), at the user level or in a per-client-id entry, is a violation
 *   naming the field, the value and the ceiling;
 * - a spec that sets no quota at all gets `defaultUserQuotas` (a copy; no per-client-id entries);
 * - every key the ceiling names and the result leaves unset at the user level is set to the ceiling.
 * Without defaults or a ceiling the spec's quotas come back as they are. Pure.
 */
export function effectiveUserQuotas(quotas: KafkaUserQuotas | undefined, tenancy: KafkaTenancy | undefined): TenancyResult<KafkaUserQuotas> {
  const ceiling = tenancy?.maxUserQuotas ?? {};
  for (const field of USER_QUOTA_FIELDS) {
    const above = aboveCeiling(`quotas.${field}`, quotas?.[field], ceiling[field], field);
    if (above !== undefined) return above;
  }
  for (const [index, client] of (quotas?.clients ?? []).entries()) {
    for (const field of CLIENT_ID_QUOTA_FIELDS) {
      const above = aboveCeiling(`quotas.clients[${index}] (clientId "${client.clientId}").${field}`, client[field], ceiling[field], field);
      if (above !== undefined) return above;
    }
  }
  const base: KafkaUserQuotas = setsNoQuotas(quotas) ? { ...tenancy?.defaultUserQuotas } : (quotas ?? {});
  const filled: { -readonly [K in keyof KafkaUserLevelQuotas]: KafkaUserLevelQuotas[K] } = {};
  for (const field of USER_QUOTA_FIELDS) {
    const value = base[field] ?? ceiling[field];
    if (value !== undefined) filled[field] = value;
  }
  return { ok: true, value: { ...filled, ...(base.clients !== undefined && { clients: base.clients }) } };
}

function aboveCeiling(where: string, value: number | undefined, max: number | undefined, field: string): TenancyResult<never> | undefined {
  if (value === undefined || max === undefined || value <= max) return undefined;
  return {
    ok: false,
    violation: {
      reason: ConnectionReasons.tenancyViolation,
      message: `${where} ${String(value)} is above the ceiling ${String(max)} that the connection's tenancy.maxUserQuotas.${field} sets for this namespace`,
    },
  };
}
