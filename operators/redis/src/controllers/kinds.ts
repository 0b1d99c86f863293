/**
 * The Kubernetes kinds this operator reads and writes besides its own.
 */
import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { IndexFunc } from '@domain-operators/reconcile';
import type { RedisUser } from '../api/v1alpha1/index.ts';

/** `policy/v1` PodDisruptionBudget. */
export const podDisruptionBudgetType = resourceType<V1PodDisruptionBudget>({
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  namespaced: true,
});

/** The built-in kinds used, in one place. */
export const kinds = { ...coreTypes, podDisruptionBudget: podDisruptionBudgetType } as const;

/** Name of the RedisUser index `namespace/<replicationRef.name>`. */
export const USERS_BY_REPLICATION = 'byReplication';

/** Indexes RedisUsers under the key of the RedisReplication they target. Pure. */
export const usersByReplication: IndexFunc<RedisUser> = (user) => [`${user.metadata.namespace ?? ''}/${user.spec.replicationRef.name}`];

/** Name of the RedisUser index of referenced password Secrets (`namespace/name`). */
export const USERS_BY_SECRET = 'bySecret';
