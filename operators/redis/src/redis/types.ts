/**
 * Constants of the Redis operator's domain that no schema describes: the condition types of a RedisReplication and
 * the role label the primary Service selects on. The resources' own types come from their TypeBox schemas
 * (`src/api/v1alpha1/`, `Static<typeof …>`).
 */
import { READY_CONDITION } from '@domain-operators/reconcile';

/** The condition types of a RedisReplication. */
export const CONDITION_TYPES = {
  ready: READY_CONDITION,
  degraded: 'Degraded',
  failoverInProgress: 'FailoverInProgress',
} as const;

/** The pod label that the primary Service selects on (`primary` or `replica`). */
export const ROLE_LABEL = 'redis.domain-operators.io/role';

/** Values of {@link ROLE_LABEL}. */
export type RoleLabel = 'primary' | 'replica';
