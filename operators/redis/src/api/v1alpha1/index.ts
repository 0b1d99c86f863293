/** The kinds of `redis.domain-operators.io/v1alpha1`; `customResources` is what the CRD writer reads. */
import type { CustomResourceKind } from '@domain-operators/reconcile';
import { redisBackups } from './redisbackup.ts';
import { redisReplications } from './redisreplication.ts';
import { redisUsers } from './redisuser.ts';

export { GROUP, VERSION } from './common.ts';
export { BACKUP_PHASES, BackupDestinationSchema, redisBackups, S3DestinationSchema, VolumeDestinationSchema } from './redisbackup.ts';
export type { BackupDestination, RedisBackup, RedisBackupSpec, RedisBackupStatus, VolumeDestination } from './redisbackup.ts';
export { MANAGED_CONFIG_KEYS, redisReplications } from './redisreplication.ts';
export type { MemberRole, RedisMemberStatus, RedisReplication, RedisReplicationSpec, RedisReplicationStatus } from './redisreplication.ts';
export type { RestoreSpec } from './restore.ts';
export { redisUsers } from './redisuser.ts';
export type { RedisUser, RedisUserSpec } from './redisuser.ts';

/** Every kind of this API version, for the CRD writer and for installing the CRDs in tests. */
export const customResources: readonly CustomResourceKind[] = [redisReplications, redisUsers, redisBackups];
