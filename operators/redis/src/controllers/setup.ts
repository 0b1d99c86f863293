/**
 * Registers this operator's informers and controllers with a Manager.
 */
import type { V1Pod, V1Secret } from '@kubernetes/client-node';
import {
  byOwnerUid,
  bySecretRef,
  ControllerBuilder,
  controllerRefOf,
  enqueueControllerOwner,
  generationChanged,
  metadataOnly,
  objectKey,
  ownedSecretScope,
  referencedSecrets,
  requestFor,
  statusWriterFor,
  systemClock,
} from '@domain-operators/reconcile';
import type { Client, ControllerOptions, InformerCache, MapFunc, PartialObjectMetadata, Recorder, Request } from '@domain-operators/reconcile';
import { redisBackups, redisReplications, redisUsers } from '../api/v1alpha1/index.ts';
import type { RedisBackup, RedisReplication, RedisUser } from '../api/v1alpha1/index.ts';
import { s3Storage } from '../backup/storage.ts';
import type { BackupStorage } from '../backup/storage.ts';
import type { AgentImage } from '../config.ts';
import type { Credentials } from '../redis/bootstrap.ts';
import { IoredisMemberClient } from '../redis/client.ts';
import type { RedisMemberClient } from '../redis/client.ts';
import { openRdbStream } from '../redis/rdb-stream.ts';
import { MANAGED_BY, REPLICATION_LABEL } from '../redis/manifests.ts';
import { kinds, USERS_BY_REPLICATION, USERS_BY_SECRET, usersByReplication } from './kinds.ts';
import { coreEventType, EVENTS_BY_STATEFULSET, eventsByStatefulSet, isCreateOutcome, STATEFULSET_EVENTS_SCOPE } from './member-refusal.ts';
import type { CoreEvent } from './member-refusal.ts';
import { PODS_BY_REPLICATION, podsByReplication } from './members.ts';
import { BACKUPS_BY_OWNER, BackupScheduleReconciler } from './backupschedule.reconciler.ts';
import { RedisBackupReconciler } from './redisbackup.reconciler.ts';
import { RedisReplicationReconciler } from './redisreplication.reconciler.ts';
import { RedisUserReconciler } from './redisuser.reconciler.ts';

/** What the controllers need from the process. */
export interface ControllerSetupDeps {
  readonly informers: InformerCache;
  readonly client: Client;
  readonly recorder: Recorder;
  /** Default: an {@link IoredisMemberClient} per call. */
  readonly memberClient?: (credentials: Credentials) => RedisMemberClient;
  /** Where backups are written; default S3 through the AWS SDK. */
  readonly backupStorage?: BackupStorage;
  /** The operator's own image (config `agentImage`), which runs a restore; absent outside a cluster. */
  readonly agentImage?: AgentImage | undefined;
}

/** A registered controller, ready to be added to the manager. */
export interface Runnables {
  readonly replications: { readonly name: string; start(signal: AbortSignal): Promise<void> };
  readonly users: { readonly name: string; start(signal: AbortSignal): Promise<void> };
  readonly backups: { readonly name: string; start(signal: AbortSignal): Promise<void> };
  /** The backup schedules (`RedisReplication.spec.backup`). */
  readonly schedules: { readonly name: string; start(signal: AbortSignal): Promise<void> };
}

const OWNED = `app.kubernetes.io/managed-by=${MANAGED_BY}`;
/** The longest a RedisBackup's reconcile (the whole snapshot, streamed) may take. */
const BACKUP_TIMEOUT_MS = 6 * 60 * 60_000;

/**
 * Builds both controllers over the shared informers: owned kinds are watched only with the operator's
 * `managed-by` label (member Pods and generated Secrets included); Secrets a user names (`auth.secretRef`,
 * `passwordSecretRef`) are read by name and any Secret's change is seen through a metadata-only watch (no data
 * held) mapped to the resources that name it; RedisUsers indexed by the
 * replication they target and the Secret they reference, `core/v1` Events about StatefulSets (the StatefulSet
 * controller's create attempts: a refused member wakes its replication). Call once per process, before the manager
 * starts.
 */
export function buildControllers(deps: ControllerSetupDeps, options: ControllerOptions): Runnables {
  const { informers, client, recorder } = deps;
  const memberClient = deps.memberClient ?? ((credentials: Credentials) => new IoredisMemberClient({ credentials, connectTimeoutMs: 1_000, commandTimeoutMs: 1_000 }));
  const owned = { scope: { labelSelector: OWNED } };
  const pods = informers.informerFor(kinds.pod, { ...owned, indexers: { [PODS_BY_REPLICATION]: podsByReplication } });
  const ownedSecrets = { scope: ownedSecretScope(MANAGED_BY) };
  const secrets = informers.informerFor(kinds.secret, ownedSecrets);
  const secretChanges = metadataOnly(kinds.secret);
  const referenced = referencedSecrets(informers.informerFor(secretChanges), client);
  const configMaps = informers.informerFor(kinds.configMap, owned);
  const services = informers.informerFor(kinds.service, owned);
  const statefulSets = informers.informerFor(kinds.statefulSet, owned);
  const pdbs = informers.informerFor(kinds.podDisruptionBudget, owned);
  const users = informers.informerFor<RedisUser>(redisUsers.type, {
    indexers: {
      [USERS_BY_REPLICATION]: usersByReplication,
      [USERS_BY_SECRET]: bySecretRef<RedisUser>((u) => [u.spec.passwordSecretRef?.name]),
    },
  });
  const replications = informers.informerFor<RedisReplication>(redisReplications.type);
  const eventsRequest = { scope: STATEFULSET_EVENTS_SCOPE, indexers: { [EVENTS_BY_STATEFULSET]: eventsByStatefulSet } };
  const events = informers.informerFor<CoreEvent>(coreEventType, eventsRequest);

  const toReplication: MapFunc<V1Pod> = (pod) => {
    const name = pod.metadata?.labels?.[REPLICATION_LABEL];
    return name === undefined ? [] : [{ namespace: pod.metadata?.namespace, name }];
  };
  const replicationsReferencing: MapFunc<PartialObjectMetadata> = (secret) =>
    replications.store.list(secret.metadata.namespace).filter((rr) => rr.spec.auth?.secretRef?.name === secret.metadata.name).map(requestFor);
  const usersOf = (replicationKey: string): Request[] => users.store.byIndex(USERS_BY_REPLICATION, replicationKey).map(requestFor);
  const replicationOfUser: MapFunc<RedisUser> = (user) => [{ namespace: user.metadata.namespace, name: user.spec.replicationRef.name }];
  const ownedBy = (kind: typeof redisReplications.type): MapFunc => enqueueControllerOwner(kind);
  // An Event names its StatefulSet; the cached StatefulSet names its RedisReplication (only ours are cached).
  const replicationOfEvent: MapFunc<CoreEvent> = (event) => {
    if (!isCreateOutcome(event)) return [];
    const statefulSet = eventsByStatefulSet(event).map((key) => statefulSets.store.get(key));
    return statefulSet.flatMap((sts) => (sts === undefined ? [] : ownedBy(redisReplications.type)(sts)));
  };

  const replicationController = new ControllerBuilder({ informers }, 'redisreplication')
    .for(redisReplications.type)
    .watches(kinds.statefulSet, ownedBy(redisReplications.type), { request: owned })
    .watches(kinds.service, ownedBy(redisReplications.type), { request: owned })
    .watches(kinds.configMap, ownedBy(redisReplications.type), { request: owned })
    .watches(kinds.podDisruptionBudget, ownedBy(redisReplications.type), { request: owned })
    .watches(kinds.pod, toReplication, { request: owned })
    .watches(kinds.secret, ownedBy(redisReplications.type), { request: ownedSecrets })
    .watches(secretChanges, replicationsReferencing)
    .watches(redisUsers.type, replicationOfUser)
    .watches(coreEventType, replicationOfEvent, { request: eventsRequest })
    .withOptions(options)
    .complete(
      new RedisReplicationReconciler({
        client,
        recorder,
        memberClient,
        clock: options.clock ?? systemClock,
        referenced,
        ...(deps.agentImage !== undefined && { agentImage: deps.agentImage }),
        stores: {
          pods: pods.store,
          secrets: secrets.store,
          configMaps: configMaps.store,
          services: services.store,
          statefulSets: statefulSets.store,
          podDisruptionBudgets: pdbs.store,
          users: users.store,
          events: events.store,
        },
      }),
    );

  const userController = new ControllerBuilder({ informers }, 'redisuser')
    .for(redisUsers.type)
    .watches(kinds.pod, (pod: V1Pod) => toReplication(pod).flatMap((r) => usersOf(`${r.namespace ?? ''}/${r.name}`)), { request: owned })
    .watches(redisReplications.type, (rr: RedisReplication) => usersOf(objectKey(rr)))
    .watches(
      kinds.secret,
      (secret: V1Secret) => {
        const owner = controllerRefOf(secret);
        const generatedFor = owner?.kind === redisUsers.kind ? [{ namespace: secret.metadata?.namespace, name: owner.name }] : [];
        const internalOf = owner?.kind === redisReplications.kind ? usersOf(`${secret.metadata?.namespace ?? ''}/${owner.name}`) : [];
        return [...generatedFor, ...internalOf];
      },
      { request: ownedSecrets },
    )
    .watches(secretChanges, (secret: PartialObjectMetadata) => users.store.byIndex(USERS_BY_SECRET, objectKey(secret)).map(requestFor))
    .withOptions(options)
    .complete(new RedisUserReconciler({ client, recorder, memberClient, referenced, stores: { pods: pods.store, secrets: secrets.store, replications: replications.store } }));

  const backupsByReplication = 'byReplication';
  const backups = informers.informerFor<RedisBackup>(redisBackups.type, {
    indexers: {
      [backupsByReplication]: (b) => [`${b.metadata.namespace ?? ''}/${b.spec.replicationRef.name}`],
      [USERS_BY_SECRET]: bySecretRef<RedisBackup>((b) => [b.spec.destination.s3?.credentialsSecretRef.name]),
      // The backup schedules' index, registered here: indexers can only be added before the first controller builds the cache.
      [BACKUPS_BY_OWNER]: byOwnerUid,
    },
  });
  const pendingBackupsOf = (replicationKey: string): Request[] =>
    backups.store.byIndex(backupsByReplication, replicationKey).filter((b) => b.status?.phase !== 'Succeeded' && b.status?.phase !== 'Failed').map(requestFor);
  const backupController = new ControllerBuilder({ informers }, 'redisbackup')
    .for(redisBackups.type)
    .watches(redisReplications.type, (rr: RedisReplication) => pendingBackupsOf(objectKey(rr)))
    .watches(
      kinds.secret,
      (secret: V1Secret) => {
        const owner = controllerRefOf(secret);
        return owner?.kind === redisReplications.kind ? pendingBackupsOf(`${secret.metadata?.namespace ?? ''}/${owner.name}`) : [];
      },
      { request: ownedSecrets },
    )
    .watches(secretChanges, (secret: PartialObjectMetadata) => backups.store.byIndex(USERS_BY_SECRET, objectKey(secret)).map(requestFor))
    // A volume backup's agent Pod, which the RedisBackup owns.
    .watches(kinds.pod, enqueueControllerOwner(redisBackups.type), { request: owned })
    // A reconcile streams the whole snapshot: give it hours, not the default 5 minutes.
    .withOptions({ ...options, reconcileTimeoutMs: BACKUP_TIMEOUT_MS })
    .complete(
      new RedisBackupReconciler({
        client,
        status: statusWriterFor(client, redisBackups.type),
        recorder,
        memberClient,
        referenced,
        openRdb: (source) => openRdbStream(source),
        storage: deps.backupStorage ?? s3Storage(),
        agentImage: deps.agentImage,
        stores: { pods: pods.store, secrets: secrets.store, replications: replications.store },
      }),
    );

  // Backup schedules: a RedisReplication's spec (not its status, which it also writes) and the RedisBackups it owns.
  const scheduleController = new ControllerBuilder({ informers }, 'backupschedule')
    .for(redisReplications.type, generationChanged)
    .watches(redisBackups.type, enqueueControllerOwner(redisReplications.type))
    .withOptions(options)
    .complete(new BackupScheduleReconciler({ client, backups: backups.store, recorder }));

  return { replications: replicationController, users: userController, backups: backupController, schedules: scheduleController };
}
