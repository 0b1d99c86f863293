/**
 * The RedisBackup reconciler: one snapshot of a RedisReplication, taken over the network from one member (a linked
 * replica by default) and streamed to S3 under a key of its own. One-shot: once `Succeeded` or `Failed` nothing more
 * happens (but deletion, which removes the object only with `deletionPolicy: Delete`).
 *
 * The order that keeps a crash harmless: the key is chosen and written to `status.location` (phase `Running`)
 * before the first byte is read; the object appears under that key only when the multipart upload completes. A
 * restart that finds `Running` with nothing of this process's own in flight aborts the incomplete uploads under
 * the key, then either finds the complete object (and records its size and SHA-256, read back) or takes the
 * snapshot again under the same key. No key is ever reused by another backup, and none is ever overwritten.
 *
 * Failures: refused credentials (`AccessDenied`) and a taken key (`BackupExists`) fail the backup; an unreachable
 * destination (`DestinationUnavailable`) or source (`SourceUnavailable`), a missing replication or Secret keep it
 * `Pending` and are retried with backoff. Messages never carry a credential.
 *
 * A `volume` destination is written by an agent Pod (backup/volume-agent-pod.ts), since the operator's own Pod
 * cannot mount the user's claim: the claim is checked (missing: `Pending`, `DestinationUnavailable`), the key is
 * recorded as `pvc://<claim>/<key>` (`Running`), then the Pod is created under a name derived from the RedisBackup.
 * Its termination message completes the status exactly as an upload does; a Pod that reports a failure
 * (`SourceUnavailable`, `DestinationUnavailable`, `BackupExists`) or ends without a report fails the backup. A
 * restart finds the Pod by name; a `Running` backup whose Pod is gone gets a new one that adopts a complete file
 * under the key (this backup's own: the key holds its uid) or takes the snapshot again. A succeeded agent Pod is
 * deleted; a failed one is kept for its log (the RedisBackup owns it).
 */
import type { V1PersistentVolumeClaim, V1Pod, V1Secret } from '@kubernetes/client-node';
import { isAlreadyExists, isNotFound, isTerminalError, objectKey, resourceType, READY_CONDITION, Reasons, Result, secretValue, stalled, TerminalError, withFinalizer } from '@domain-operators/reconcile';
import type { Client, ConditionUpdate, Progress, ReconcileContext, Reconciler, Recorder, SecretSource, StatusWriter, Store } from '@domain-operators/reconcile';
import { GROUP, redisBackups } from '../api/v1alpha1/index.ts';
import type { RedisBackup, RedisBackupStatus, RedisReplication, VolumeDestination } from '../api/v1alpha1/index.ts';
import { isFailure } from '../agent/volume-backup-contract.ts';
import { backupKey } from '../backup/backup-key.ts';
import { BACKUP_REASONS } from '../backup/reasons.ts';
import { S3CallError } from '../backup/s3-errors.ts';
import type { S3Target } from '../backup/s3-upload.ts';
import { chooseSource } from '../backup/source-member.ts';
import type { CandidateMember } from '../backup/source-member.ts';
import type { BackupStorage } from '../backup/storage.ts';
import { agentPodFor, agentPodName, agentPodState } from '../backup/volume-agent-pod.ts';
import { keyOfVolumeLocation, volumeLocation } from '../backup/volume-location.ts';
import type { AgentImage } from '../config.ts';
import type { Credentials } from '../redis/bootstrap.ts';
import type { RedisMemberClient } from '../redis/client.ts';
import { INTERNAL_KEYS, objectNames, OPERATOR_USERNAME, REPLICATION_USERNAME } from '../redis/manifests.ts';
import type { RdbSource, RdbTransfer } from '../redis/rdb-stream.ts';
import { kinds } from './kinds.ts';
import { isPodReady, memberPods, podAddress, PODS_BY_REPLICATION } from './members.ts';

/** The finalizer of a backup whose object is deleted with it (`deletionPolicy: Delete` only). */
export const BACKUP_FINALIZER = `${GROUP}/backup`;

/** Reasons of a RedisBackup's `Ready` condition and Events besides {@link BACKUP_REASONS} and the runtime's. */
export const BACKUP_STATUS_REASONS = {
  /** `Ready=True`: the backup is stored and its digest recorded. */
  succeeded: 'BackupSucceeded',
  /** `Ready=False` while the snapshot streams. */
  running: 'BackupRunning',
  /** The RedisReplication does not exist or has no credentials yet. Retried. */
  replicationNotFound: 'ReplicationNotFound',
  /** Normal Event: the stored object was deleted with its resource. */
  deleted: 'BackupDeleted',
  /** A volume backup needs the agent image (`OPERATOR_IMAGE`), which this operator was started without. Retried. */
  agentImageMissing: 'AgentImageMissing',
  /** The agent Pod of a volume backup ended without a report (killed, out of memory, not runnable). Final. */
  agentFailed: 'BackupAgentFailed',
} as const;

const persistentVolumeClaimType = resourceType<V1PersistentVolumeClaim>({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true });

/** What {@link RedisBackupReconciler} works through. */
export interface RedisBackupReconcilerDeps {
  readonly client: Client;
  readonly status: StatusWriter<RedisBackup>;
  readonly stores: {
    /** The operator's Pods (members and volume backup agents), as the `managed-by` label selects them. */
    readonly pods: Store<V1Pod>;
    /** Generated Secrets (the replication's internal Secret with the operator and replication passwords). */
    readonly secrets: Store<V1Secret>;
    readonly replications: Store<RedisReplication>;
  };
  /** The user's credentials Secret, read by name. */
  readonly referenced: SecretSource;
  readonly recorder: Recorder;
  readonly memberClient: (credentials: Credentials) => RedisMemberClient;
  readonly openRdb: (source: RdbSource) => Promise<RdbTransfer>;
  readonly storage: BackupStorage;
  /** The image volume backups' agent Pods run; absent outside a cluster (they stay Pending, `AgentImageMissing`). */
  readonly agentImage?: AgentImage | undefined;
  readonly now?: () => Date;
}

type Phase = NonNullable<RedisBackupStatus['phase']>;

/** A finished backup of this process, remembered until the cache shows its phase. */
interface Finished {
  readonly uid: string;
  readonly phase: Phase;
}

/** A backup the reconcile cannot take yet: stays Pending with this reason, retried. */
class NotYet extends Error {
  override readonly name = 'NotYet';
  readonly reason: string;

  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** See the module comment. Keeps in memory only the backups this process finished, until the cache shows them. */
export class RedisBackupReconciler implements Reconciler<RedisBackup> {
  readonly #deps: RedisBackupReconcilerDeps;
  readonly #finished = new Map<string, Finished>();

  /** Does no work. */
  constructor(deps: RedisBackupReconcilerDeps) {
    this.#deps = deps;
  }

  reconcile(backup: RedisBackup, ctx: ReconcileContext): Promise<Result> {
    if (backup.spec.deletionPolicy !== 'Delete') {
      return backup.metadata.deletionTimestamp === undefined ? this.#apply(backup, ctx) : Promise.resolve(Result.done());
    }
    return withFinalizer(
      backup,
      { finalizer: BACKUP_FINALIZER, apply: (b) => this.#apply(b, ctx), cleanup: (b) => this.#cleanup(b, ctx) },
      { client: this.#deps.client, type: redisBackups.type, recorder: this.#deps.recorder, group: GROUP, signal: ctx.signal },
    );
  }

  async #apply(backup: RedisBackup, ctx: ReconcileContext): Promise<Result> {
    const key = objectKey(backup);
    const uid = backup.metadata.uid ?? '';
    const phase = backup.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') {
      this.#finished.delete(key);
      if (phase === 'Succeeded' && backup.spec.destination.volume !== undefined) await this.#removeAgent(backup, ctx.signal);
      return Result.done();
    }
    const finished = this.#finished.get(key);
    if (finished?.uid === uid) return Result.done();
    try {
      const volume = backup.spec.destination.volume;
      return volume === undefined ? await this.#run(backup, ctx) : await this.#runVolume(backup, volume, ctx.signal);
    } catch (err) {
      if (err instanceof NotYet) {
        await this.#write(backup, 'Pending', { type: READY_CONDITION, status: 'False', reason: err.reason, message: err.message }, {});
        throw new Error(err.message, { cause: err });
      }
      if (err instanceof S3CallError && err.reason !== BACKUP_REASONS.destinationUnavailable) return this.#fail(backup, err.reason, err.message);
      if (err instanceof S3CallError) {
        await this.#write(backup, 'Pending', { type: READY_CONDITION, status: 'False', reason: err.reason, message: err.message }, {});
        throw err;
      }
      if (isTerminalError(err)) return this.#fail(backup, err.reason, err.message);
      throw err;
    }
  }

  async #run(backup: RedisBackup, ctx: ReconcileContext): Promise<Result> {
    const namespace = backup.metadata.namespace ?? '';
    const target = await this.#target(backup, ctx.signal);
    const replication = this.#deps.stores.replications.get(`${namespace}/${backup.spec.replicationRef.name}`);
    if (replication === undefined) throw new NotYet(BACKUP_STATUS_REASONS.replicationNotFound, `RedisReplication ${backup.spec.replicationRef.name} does not exist`);
    const users = this.#users(replication);
    const location = backup.status?.location;
    const s3Key = location === undefined ? this.#newKey(backup, backup.spec.destination.s3?.prefix) : keyOfLocation(location, target.bucket);
    if (location !== undefined) {
      // Running before, and nothing of this process in flight: what a crash left.
      await this.#deps.storage.abortIncomplete(target, s3Key, ctx.signal);
      const stored = await this.#deps.storage.digest(target, s3Key, ctx.signal);
      if (stored !== undefined) return this.#succeed(backup, { ...stored, member: backup.status?.member, replicationOffset: backup.status?.replicationOffset, recovered: true });
    }
    const member = await this.#source(backup, replication, users.operator);
    const startTime = (this.#deps.now?.() ?? new Date()).toISOString();
    const runningFields = { member: member.pod, location: `s3://${target.bucket}/${s3Key}`, startTime };
    await this.#write(
      backup,
      'Running',
      { type: READY_CONDITION, status: 'False', reason: BACKUP_STATUS_REASONS.running, message: `streaming a snapshot of ${member.pod} to s3://${target.bucket}/${s3Key}` },
      runningFields,
    );
    // The next write compares against what this one wrote, whatever the cache shows by then.
    const running: RedisBackup = { ...backup, status: { ...backup.status, phase: 'Running', ...runningFields } };
    let transfer: RdbTransfer;
    try {
      transfer = await this.#deps.openRdb({ ...member.address, ...users.replication });
    } catch (err) {
      throw new NotYet(BACKUP_REASONS.sourceUnavailable, `cannot reach ${member.pod}: ${(err as Error).message}`);
    }
    const abort = (): void => {
      transfer.abort(new Error('the reconcile was cancelled'));
    };
    ctx.signal.addEventListener('abort', abort, { once: true });
    try {
      const uploaded = this.#deps.storage.upload(target, s3Key, transfer, ctx.signal);
      const summary = transfer.summary.catch((err: unknown) => {
        throw new NotYet(BACKUP_REASONS.sourceUnavailable, `the snapshot from ${member.pod} failed: ${(err as Error).message}`);
      });
      const [, taken] = await Promise.all([uploaded, summary]);
      return await this.#succeed(running, { sizeBytes: taken.sizeBytes, sha256: taken.sha256, member: member.pod, replicationOffset: taken.replicationOffset, recovered: false });
    } catch (err) {
      transfer.abort(err instanceof Error ? err : new Error(String(err)));
      // An upload that failed because the source failed is the source's failure.
      const sourceFailure = await transfer.summary.then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      if (err instanceof S3CallError && sourceFailure !== undefined && !/aborted|cancelled/.test(sourceFailure.message)) {
        throw new NotYet(BACKUP_REASONS.sourceUnavailable, `the snapshot from ${member.pod} failed: ${sourceFailure.message}`);
      }
      throw err;
    } finally {
      ctx.signal.removeEventListener('abort', abort);
    }
  }

  /** A volume backup: see the module comment. */
  async #runVolume(backup: RedisBackup, volume: VolumeDestination, signal: AbortSignal): Promise<Result> {
    const namespace = backup.metadata.namespace ?? '';
    const location = backup.status?.location;
    const pod = this.#deps.stores.pods.get(`${namespace}/${agentPodName(backup)}`);
    if (pod !== undefined) {
      // The Pod is created only after the location is written: a cached backup without one lags the cached Pod.
      if (location === undefined) return Result.requeueAfter(1_000);
      return this.#watchAgent(backup, pod, location, signal);
    }
    const agent = this.#deps.agentImage;
    if (agent === undefined) throw new NotYet(BACKUP_STATUS_REASONS.agentImageMissing, 'a volume backup runs in an agent Pod of the operator image, and this operator was started without OPERATOR_IMAGE');
    const replication = this.#deps.stores.replications.get(`${namespace}/${backup.spec.replicationRef.name}`);
    if (replication === undefined) throw new NotYet(BACKUP_STATUS_REASONS.replicationNotFound, `RedisReplication ${backup.spec.replicationRef.name} does not exist`);
    const users = this.#users(replication);
    const claim = await this.#deps.client.get(persistentVolumeClaimType, { namespace, name: volume.claimName }, signal).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (claim === undefined) throw new NotYet(BACKUP_REASONS.destinationUnavailable, `PersistentVolumeClaim ${volume.claimName} does not exist`);
    const member = await this.#source(backup, replication, users.operator);
    // A recorded key whose Pod is gone (a crash before it was created, or it was deleted): a new Pod adopts a
    // complete file under it, or writes it.
    const key = location === undefined ? this.#newKey(backup, volume.path) : keyOfVolumeLocation(location, volume.claimName);
    const fields = {
      member: member.pod,
      location: volumeLocation(volume.claimName, key),
      startTime: backup.status?.startTime ?? (this.#deps.now?.() ?? new Date()).toISOString(),
    };
    const name = agentPodName(backup);
    await this.#write(
      backup,
      'Running',
      { type: READY_CONDITION, status: 'False', reason: BACKUP_STATUS_REASONS.running, message: `the agent Pod ${name} writes a snapshot of ${member.pod} to ${fields.location}` },
      fields,
    );
    const desired = agentPodFor(backup, {
      agent,
      claimName: volume.claimName,
      key,
      host: member.address.host,
      port: member.address.port,
      username: users.replication.username,
      existing: location === undefined ? 'refuse' : 'adopt',
    });
    await this.#deps.client.create(kinds.pod, desired, { signal }).catch((err: unknown) => {
      // Created by an earlier reconcile the cache has not shown yet: its events bring the next reconcile.
      if (!isAlreadyExists(err)) throw err;
    });
    return Result.done();
  }

  /** A volume backup's agent Pod: waits for it, then completes the status from its report. */
  async #watchAgent(backup: RedisBackup, pod: V1Pod, location: string, signal: AbortSignal): Promise<Result> {
    const name = pod.metadata?.name ?? '';
    const seen = agentPodState(pod);
    if (seen.state === 'broken') return this.#fail(backup, BACKUP_STATUS_REASONS.agentFailed, seen.message);
    if (seen.state === 'waiting') {
      const message =
        seen.message === undefined
          ? `the agent Pod ${name} writes a snapshot of ${backup.status?.member ?? 'a member'} to ${location}`
          : `waiting for the agent Pod ${name}: ${seen.message}`;
      const current = backup.status?.conditions?.find((c) => c.type === READY_CONDITION);
      if (backup.status?.phase !== 'Running' || current?.message !== message) {
        await this.#write(backup, 'Running', { type: READY_CONDITION, status: 'False', reason: BACKUP_STATUS_REASONS.running, message }, {});
      }
      return Result.done();
    }
    const report = seen.report;
    if (isFailure(report)) return this.#fail(backup, report.reason, report.message);
    const result = await this.#succeed(backup, {
      sizeBytes: report.sizeBytes,
      sha256: report.sha256,
      member: backup.status?.member,
      replicationOffset: report.replicationOffset ?? backup.status?.replicationOffset,
      recovered: report.adopted,
    });
    await this.#removeAgent(backup, signal);
    return result;
  }

  /** Deletes a volume backup's agent Pod if the cache holds it; a Pod already gone is fine. */
  async #removeAgent(backup: RedisBackup, signal: AbortSignal): Promise<void> {
    const namespace = backup.metadata.namespace ?? '';
    const name = agentPodName(backup);
    if (this.#deps.stores.pods.get(`${namespace}/${name}`) === undefined) return;
    await this.#deps.client.delete(kinds.pod, { namespace, name }, { signal }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }

  /** The S3 target with the credentials from the user's Secret. */
  async #target(backup: RedisBackup, signal: AbortSignal): Promise<S3Target> {
    const s3 = backup.spec.destination.s3;
    if (s3 === undefined) throw new TerminalError('the backup has no S3 destination', Reasons.invalidSpec);
    const ref = s3.credentialsSecretRef;
    const secret = await this.#deps.referenced.get(backup.metadata.namespace ?? '', ref.name, signal);
    const accessKeyId = secretValue(secret, ref.accessKeyIdKey ?? 'accessKeyId');
    const secretAccessKey = secretValue(secret, ref.secretAccessKeyKey ?? 'secretAccessKey');
    if (accessKeyId === undefined || secretAccessKey === undefined) {
      throw new NotYet(Reasons.secretNotFound, `Secret ${ref.name} does not exist or lacks the keys ${ref.accessKeyIdKey ?? 'accessKeyId'} and ${ref.secretAccessKeyKey ?? 'secretAccessKey'}`);
    }
    const caRef = s3.caSecretRef;
    const ca = caRef === undefined ? undefined : secretValue(await this.#deps.referenced.get(backup.metadata.namespace ?? '', caRef.name, signal), caRef.key ?? 'ca.crt');
    if (caRef !== undefined && ca === undefined) throw new NotYet(Reasons.secretNotFound, `Secret ${caRef.name} does not exist or lacks the key ${caRef.key ?? 'ca.crt'}`);
    return {
      ...(s3.endpoint === undefined ? {} : { endpoint: s3.endpoint }),
      bucket: s3.bucket,
      region: s3.region ?? 'us-east-1',
      forcePathStyle: s3.forcePathStyle ?? false,
      credentials: { accessKeyId, secretAccessKey },
      ...(ca === undefined ? {} : { ca }),
    };
  }

  /** The operator and replication users of `replication`, from its internal Secret. */
  #users(replication: RedisReplication): { operator: Credentials; replication: Credentials } {
    const name = replication.metadata.name ?? '';
    const internal = this.#deps.stores.secrets.get(`${replication.metadata.namespace ?? ''}/${objectNames(name).internalSecret}`);
    const operator = secretValue(internal, INTERNAL_KEYS.operatorPassword);
    const replicationPassword = secretValue(internal, INTERNAL_KEYS.replicationPassword);
    if (operator === undefined || replicationPassword === undefined) throw new NotYet(BACKUP_STATUS_REASONS.replicationNotFound, `RedisReplication ${name} has no credentials yet`);
    return { operator: { username: OPERATOR_USERNAME, password: operator }, replication: { username: REPLICATION_USERNAME, password: replicationPassword } };
  }

  /** The member to snapshot, chosen from the ready members' INFO. */
  async #source(backup: RedisBackup, replication: RedisReplication, operator: Credentials): Promise<CandidateMember> {
    const client = this.#deps.memberClient(operator);
    const pods = memberPods(this.#deps.stores.pods.byIndex(PODS_BY_REPLICATION, objectKey(replication)), objectNames(replication.metadata.name ?? '').statefulSet);
    const candidates: CandidateMember[] = [];
    for (const { pod, name } of pods) {
      const address = podAddress(pod);
      if (address === undefined || !isPodReady(pod)) continue;
      const info = await client.info(address).catch(() => undefined);
      if (info !== undefined) candidates.push({ pod: name, address, info });
    }
    const choice = chooseSource(backup.spec.source ?? 'PreferReplica', candidates);
    if (!choice.ok) throw new NotYet(BACKUP_REASONS.sourceUnavailable, choice.message);
    return choice.member;
  }

  #newKey(backup: RedisBackup, prefix: string | undefined): string {
    return backupKey({
      prefix,
      namespace: backup.metadata.namespace ?? '',
      replication: backup.spec.replicationRef.name,
      startedAt: this.#deps.now?.() ?? new Date(),
      uid: backup.metadata.uid ?? '',
    });
  }

  async #succeed(
    backup: RedisBackup,
    done: { readonly sizeBytes: number; readonly sha256: string; readonly member: string | undefined; readonly replicationOffset: number | undefined; readonly recovered: boolean },
  ): Promise<Result> {
    const completionTime = (this.#deps.now?.() ?? new Date()).toISOString();
    const message = `${done.sizeBytes} bytes from ${done.member ?? 'a member'} stored at ${backup.status?.location ?? ''}${done.recovered ? ' (found complete after a restart; digest read back)' : ''}`;
    await this.#write(
      backup,
      'Succeeded',
      { type: READY_CONDITION, status: 'True', reason: BACKUP_STATUS_REASONS.succeeded, message },
      {
        sizeBytes: done.sizeBytes,
        sha256: done.sha256,
        completionTime,
        ...(done.member === undefined ? {} : { member: done.member }),
        ...(done.replicationOffset === undefined ? {} : { replicationOffset: done.replicationOffset }),
      },
    );
    this.#deps.recorder.record(backup, { type: 'Normal', reason: BACKUP_STATUS_REASONS.succeeded, action: 'Backup', note: message });
    this.#finished.set(objectKey(backup), { uid: backup.metadata.uid ?? '', phase: 'Succeeded' });
    return Result.done();
  }

  async #fail(backup: RedisBackup, reason: string, message: string): Promise<Result> {
    // Failed is final: a new RedisBackup is the way on (kstatus: Stalled, Failed).
    await this.#write(backup, 'Failed', { type: READY_CONDITION, status: 'False', reason, message }, { completionTime: (this.#deps.now?.() ?? new Date()).toISOString() }, stalled(reason, message));
    this.#deps.recorder.record(backup, { type: 'Warning', reason, action: 'Backup', note: message });
    this.#finished.set(objectKey(backup), { uid: backup.metadata.uid ?? '', phase: 'Failed' });
    return Result.done();
  }

  /**
   * One status write: the phase, `Ready` at the current generation and `fields`; kstatus' progress follows Ready unless
   * `progress` is given. Resolves with the written object.
   */
  #write(backup: RedisBackup, phase: Phase, ready: ConditionUpdate, fields: Readonly<Record<string, unknown>>, progress?: Progress): Promise<RedisBackup | undefined> {
    return this.#deps.status.patchStatus(backup, { conditions: [ready], fields: { phase, ...fields }, ...(progress !== undefined && { progress }) }, this.#deps.now?.() ?? new Date());
  }

  /** Deletion with `deletionPolicy: Delete`: the stored object goes too (a backup never written leaves nothing). */
  async #cleanup(backup: RedisBackup, ctx: ReconcileContext): Promise<Result> {
    const location = backup.status?.location;
    if (location === undefined) return Result.done();
    const target = await this.#target(backup, ctx.signal).catch((err: unknown) => {
      throw err instanceof NotYet ? new TerminalError(err.message, err.reason) : err;
    });
    const s3Key = keyOfLocation(location, target.bucket);
    await this.#deps.storage.abortIncomplete(target, s3Key, ctx.signal);
    await this.#deps.storage.delete(target, s3Key, ctx.signal);
    this.#deps.recorder.record(backup, { type: 'Normal', reason: BACKUP_STATUS_REASONS.deleted, action: 'Delete', note: `deleted ${location}` });
    return Result.done();
  }
}

/** The key of `s3://<bucket>/<key>`. Throws `TerminalError` for a location of another bucket. Pure. */
export function keyOfLocation(location: string, bucket: string): string {
  const prefix = `s3://${bucket}/`;
  if (!location.startsWith(prefix)) throw new TerminalError(`status.location ${location} is not in bucket ${bucket}`, Reasons.invalidSpec);
  return location.slice(prefix.length);
}
