/**
 * What a pending `spec.restore` resolves to: the plan the agent reads (no secrets) and what the member Pods mount.
 * A `backupRef` is read from its RedisBackup (it must have Succeeded: its location and sha256 are the plan's).
 */
import type { V1StatefulSet } from '@kubernetes/client-node';
import type { BackupDestination, RedisBackup, RedisReplication } from '../api/v1alpha1/index.ts';
import { RESTORE_CONTAINER_NAME, RESTORE_ENV } from '../agent/restore-plan.ts';
import type { RestorePlan } from '../agent/restore-plan.ts';
import type { AgentImage } from '../config.ts';
import { objectNames } from '../redis/manifests.ts';
import type { RestoreMount } from '../redis/manifests.ts';

/** Why a pending restore cannot start yet: the `Ready=False` reason and message (no secrets). */
export interface RestoreBlocked {
  readonly reason: 'RestoreSourceUnavailable' | 'AgentImageUnknown';
  readonly message: string;
}

/** A pending restore, ready to run. */
export interface PendingRestore {
  readonly plan: RestorePlan;
  readonly mount: RestoreMount;
}

/** Inputs of {@link resolveRestore}. */
export interface ResolveRestoreDeps {
  /** The RedisBackup `name` of the namespace; undefined when it does not exist. */
  readonly getBackup: (namespace: string, name: string) => Promise<RedisBackup | undefined>;
  /** The operator's image (the agent); undefined outside a cluster. */
  readonly agentImage: AgentImage | undefined;
}

/** Whether `rr` still has a restore to do: `spec.restore` set and `status.restoredFrom` not yet. Pure. */
export function restorePending(rr: RedisReplication): boolean {
  return rr.spec.restore !== undefined && rr.status?.restoredFrom === undefined;
}

/** Parses `s3://<bucket>/<key>`. Pure. */
export function parseS3Location(location: string): { bucket: string; key: string } | undefined {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
  return m?.[1] === undefined || m[2] === undefined ? undefined : { bucket: m[1], key: m[2] };
}

/**
 * The pending restore of `rr` (call only when {@link restorePending}), or why it cannot start. Every member of
 * `spec.replicas` restores, in parallel: ordinal 0 is the plan's `pod`, the member the topology makes the first
 * primary (the reconciler remembers it as primary), the others its `replicas`, which first start as replicas.
 */
export async function resolveRestore(rr: RedisReplication, deps: ResolveRestoreDeps): Promise<PendingRestore | RestoreBlocked> {
  const resolved = await resolveSource(rr, deps);
  if (!('plan' in resolved)) return resolved;
  const statefulSet = objectNames(rr.metadata.name ?? '').statefulSet;
  const replicas = Array.from({ length: Math.max(0, rr.spec.replicas - 1) }, (_, i) => `${statefulSet}-${i + 1}`);
  return { ...resolved, plan: { ...resolved.plan, replicas } };
}

/**
 * The restore parts the member Pods keep once the restore is done (`status.restoredFrom` set): after an S3 restore
 * the idle agent stays, as the StatefulSet `current` already runs it (so the end of the restore, or an operator
 * upgrade, changes no template and restarts no member; its credentials stay those of the source, optional), built
 * afresh only when there is no such StatefulSet; after a `volume` restore nothing (its claim must leave the template,
 * which rolls the members once: ADR 0024). Pure.
 */
export function doneRestoreMount(rr: RedisReplication, current: V1StatefulSet | undefined, agentImage: AgentImage | undefined): RestoreMount | undefined {
  if (rr.spec.restore === undefined || rr.status?.restoredFrom?.startsWith('s3://') !== true) return undefined;
  const running = current?.spec?.template.spec?.initContainers?.find((c) => c.name === RESTORE_CONTAINER_NAME);
  if (running?.image !== undefined) {
    const ref = (name: string) => running.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
    const accessKeyId = ref(RESTORE_ENV.accessKeyId);
    const secretAccessKey = ref(RESTORE_ENV.secretAccessKey);
    const s3Credentials =
      accessKeyId?.name === undefined || secretAccessKey === undefined ? undefined : { name: accessKeyId.name, accessKeyIdKey: accessKeyId.key, secretAccessKeyKey: secretAccessKey.key };
    return { agent: { image: running.image, pullPolicy: running.imagePullPolicy ?? 'IfNotPresent' }, ...(s3Credentials !== undefined && { s3Credentials }) };
  }
  if (agentImage === undefined) return undefined;
  const s3 = rr.spec.restore.s3;
  return { agent: agentImage, ...(s3 !== undefined && { s3Credentials: s3CredentialsOf(s3.credentialsSecretRef) }) };
}

function s3CredentialsOf(ref: NonNullable<BackupDestination['s3']>['credentialsSecretRef']): NonNullable<RestoreMount['s3Credentials']> {
  return { name: ref.name, accessKeyIdKey: ref.accessKeyIdKey ?? 'accessKeyId', secretAccessKeyKey: ref.secretAccessKeyKey ?? 'secretAccessKey' };
}

/** The source of the pending restore and the primary's plan, or why it cannot start. */
async function resolveSource(rr: RedisReplication, deps: ResolveRestoreDeps): Promise<PendingRestore | RestoreBlocked> {
  const restore = rr.spec.restore;
  const pod = `${objectNames(rr.metadata.name ?? '').statefulSet}-0`;
  if (restore === undefined) return { reason: 'RestoreSourceUnavailable', message: 'spec.restore is not set' };
  if (deps.agentImage === undefined) {
    return { reason: 'AgentImageUnknown', message: 'the operator does not know its own image (env OPERATOR_IMAGE, set by the chart), which runs the restore: nothing is started' };
  }
  if (restore.s3 !== undefined) {
    const s3 = restore.s3;
    const ref = s3.credentialsSecretRef;
    return {
      plan: {
        location: `s3://${s3.bucket}/${s3.key}`,
        sha256: s3.sha256,
        pod,
        s3: { bucket: s3.bucket, key: s3.key, region: s3.region ?? 'us-east-1', forcePathStyle: s3.forcePathStyle ?? false, ...(s3.endpoint !== undefined && { endpoint: s3.endpoint }) },
      },
      mount: { agent: deps.agentImage, s3Credentials: s3CredentialsOf(ref) },
    };
  }
  if (restore.volume !== undefined) {
    const v = restore.volume;
    return { plan: { location: `pvc://${v.claimName}/${v.path}`, sha256: v.sha256, pod, file: { path: v.path } }, mount: { agent: deps.agentImage, claimName: v.claimName } };
  }
  const name = restore.backupRef?.name ?? '';
  const backup = await deps.getBackup(rr.metadata.namespace ?? '', name);
  if (backup === undefined) return { reason: 'RestoreSourceUnavailable', message: `RedisBackup ${name} does not exist` };
  const status = backup.status;
  if (status?.phase !== 'Succeeded' || status.sha256 === undefined || status.location === undefined) {
    return { reason: 'RestoreSourceUnavailable', message: `RedisBackup ${name} has not Succeeded (phase ${status?.phase ?? 'none'}): nothing is started until it has` };
  }
  const destination = backup.spec.destination;
  const cannot: RestoreBlocked = { reason: 'RestoreSourceUnavailable', message: `RedisBackup ${name} has a location this operator cannot restore from: ${status.location}` };
  const volume = destination.volume;
  if (volume !== undefined) {
    const prefix = `pvc://${volume.claimName}/`;
    if (!status.location.startsWith(prefix)) return cannot;
    const path = status.location.slice(prefix.length).replace(/^\/+/, '');
    return { plan: { location: status.location, sha256: status.sha256, pod, file: { path } }, mount: { agent: deps.agentImage, claimName: volume.claimName } };
  }
  const s3 = destination.s3;
  const at = parseS3Location(status.location);
  if (s3 === undefined || at?.bucket !== s3.bucket) return cannot;
  const ref = s3.credentialsSecretRef;
  return {
    plan: {
      location: status.location,
      sha256: status.sha256,
      pod,
      s3: { bucket: at.bucket, key: at.key, region: s3.region ?? 'us-east-1', forcePathStyle: s3.forcePathStyle ?? false, ...(s3.endpoint !== undefined && { endpoint: s3.endpoint }) },
    },
    mount: { agent: deps.agentImage, s3Credentials: s3CredentialsOf(ref) },
  };
}
