import { writeStatusIfChanged } from '@domain-operators/reconcile';
import type { Client, DesiredStatus, PatchStatusOptions } from '@domain-operators/reconcile';
import { redisReplications } from '../api/v1alpha1/index.ts';
import type { RedisReplication } from '../api/v1alpha1/index.ts';

/**
 * The one status writer of a RedisReplication, used by every controller that reports on it (the topology and
 * restore of the RedisReplication reconciler, `status.backup` of the backup schedule): one merge patch of the
 * top-level fields that changed against `rr`, or nothing at steady state (the runtime's `writeStatusIfChanged`, with
 * `options` as given). Each caller owns its own fields (conditions, `observedGeneration` and the topology's for the
 * reconciler, `backup` for the schedule), so the two never overwrite each other's. Resolves to the apiserver's reply,
 * `undefined` when nothing was sent.
 */
export async function writeReplicationStatus(client: Client, rr: RedisReplication, desired: DesiredStatus, options: PatchStatusOptions): Promise<RedisReplication | undefined> {
  return writeStatusIfChanged(client, redisReplications.type, rr, desired, options);
}
