/**
 * The agent Pod of a RedisBackup to a volume claim, and what the reconciler reads back from it. Pure functions.
 *
 * A bare Pod (`restartPolicy: Never`), not a Job: one attempt is all a backup gets (the reconciler, not a retry
 * loop, decides what a failure means), the Pod's name is derived from the RedisBackup so a restarted operator finds
 * it, its termination message is read straight from its status, and it needs no more RBAC than Pods. A Job with
 * `backoffLimit: 0` would add a second controller, a generated Pod name and a second object to find.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { controllerReference } from '@domain-operators/reconcile';
import { redisBackups } from '../api/v1alpha1/index.ts';
import type { RedisBackup } from '../api/v1alpha1/index.ts';
import { VOLUME_BACKUP_COMMAND, VOLUME_BACKUP_CONTAINER, VOLUME_BACKUP_ENV, VOLUME_MOUNT_DIR } from '../agent/volume-backup-contract.ts';
import { parseReport } from '../agent/volume-backup-contract.ts';
import type { VolumeBackupReport } from '../agent/volume-backup-contract.ts';
import type { AgentImage } from '../config.ts';
import { INTERNAL_KEYS, MANAGED_BY, objectNames, REDIS_UID } from '../redis/manifests.ts';

/** `app.kubernetes.io/component` of agent Pods. */
export const BACKUP_AGENT_COMPONENT = 'backup-agent';

/**
 * The agent Pod's name: the RedisBackup's name (dots made dashes, cut to 40 characters) and the first 8 hex
 * digits of its uid, so it is the same on every reconcile and never another backup's. Pure.
 */
export function agentPodName(backup: Pick<RedisBackup, 'metadata'>): string {
  const base = (backup.metadata.name ?? '').replace(/\./g, '-').slice(0, 40).replace(/-+$/, '');
  const uid = (backup.metadata.uid ?? '').replace(/-/g, '').slice(0, 8);
  return `${base}-backup-${uid}`;
}

/** What the agent Pod is built from. */
export interface AgentPodInput {
  readonly agent: AgentImage;
  /** The destination claim. */
  readonly claimName: string;
  /** The file's key inside the claim. */
  readonly key: string;
  /** The member to snapshot: its Pod IP and port. */
  readonly host: string;
  readonly port: number;
  /** The replication user; its password is read from the replication's internal Secret by `secretKeyRef`. */
  readonly username: string;
  /** `refuse` for a first attempt, `adopt` when the key was recorded by an attempt whose Pod is gone. */
  readonly existing: 'refuse' | 'adopt';
}

/**
 * The agent Pod: the operator's image running `volume-backup`, the claim mounted at {@link VOLUME_MOUNT_DIR}, the
 * password only as a `secretKeyRef`, owned by the RedisBackup (deleted with it). Pod Security `restricted`: non-root
 * uid/gid {@link REDIS_UID} (the members' identity, also the fsGroup, so a restore's init container can read the
 * file and claims that honour fsGroup are writable), no privilege escalation, no capabilities, the runtime's seccomp
 * profile, a read-only root filesystem, no ServiceAccount token. Pure.
 */
export function agentPodFor(backup: RedisBackup, input: AgentPodInput): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: agentPodName(backup),
      namespace: backup.metadata.namespace ?? '',
      labels: { 'app.kubernetes.io/name': 'redis', 'app.kubernetes.io/component': BACKUP_AGENT_COMPONENT, 'app.kubernetes.io/managed-by': MANAGED_BY },
      ownerReferences: [controllerReference(redisBackups.type, backup)],
    },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 10,
      securityContext: {
        runAsNonRoot: true,
        runAsUser: REDIS_UID,
        runAsGroup: REDIS_UID,
        fsGroup: REDIS_UID,
        fsGroupChangePolicy: 'OnRootMismatch',
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [
        {
          name: VOLUME_BACKUP_CONTAINER,
          image: input.agent.image,
          imagePullPolicy: input.agent.pullPolicy,
          command: ['node', '/app/main.js', VOLUME_BACKUP_COMMAND],
          env: [
            { name: VOLUME_BACKUP_ENV.host, value: input.host },
            { name: VOLUME_BACKUP_ENV.port, value: String(input.port) },
            { name: VOLUME_BACKUP_ENV.username, value: input.username },
            {
              name: VOLUME_BACKUP_ENV.password,
              valueFrom: { secretKeyRef: { name: objectNames(backup.spec.replicationRef.name).internalSecret, key: INTERNAL_KEYS.replicationPassword } },
            },
            { name: VOLUME_BACKUP_ENV.key, value: input.key },
            { name: VOLUME_BACKUP_ENV.existing, value: input.existing },
          ],
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
          terminationMessagePolicy: 'File',
          volumeMounts: [{ name: 'destination', mountPath: VOLUME_MOUNT_DIR }],
        },
      ],
      volumes: [{ name: 'destination', persistentVolumeClaim: { claimName: input.claimName } }],
    },
  };
}

/** Where an agent Pod is, as the reconciler acts on it. */
export type AgentPodState =
  | { readonly state: 'waiting'; readonly message: string | undefined }
  | { readonly state: 'done'; readonly report: VolumeBackupReport }
  | { readonly state: 'broken'; readonly message: string };

function agentStatus(pod: V1Pod): V1ContainerStatus | undefined {
  return pod.status?.containerStatuses?.find((s) => s.name === VOLUME_BACKUP_CONTAINER);
}

/**
 * Reads the agent Pod: `done` with its report once the container terminated with one; `broken` when it ended
 * without a report it could have written (killed, OOM, an image that would not run); `waiting` otherwise, with the
 * scheduler's or kubelet's message when the Pod is stuck (a claim that cannot be mounted, an image not present). Pure.
 */
export function agentPodState(pod: V1Pod): AgentPodState {
  const status = agentStatus(pod);
  const terminated = status?.state?.terminated;
  if (terminated !== undefined) {
    const report = parseReport(terminated.message);
    if (report !== undefined) return { state: 'done', report };
    const detail = terminated.message?.trim() ? `: ${terminated.message.trim().slice(0, 512)}` : '';
    return { state: 'broken', message: `the backup agent Pod ${pod.metadata?.name ?? ''} ended (${terminated.reason ?? 'exit'} ${terminated.exitCode}) without a report${detail}` };
  }
  if (pod.status?.phase === 'Failed') return { state: 'broken', message: `the backup agent Pod ${pod.metadata?.name ?? ''} failed: ${pod.status.reason ?? ''} ${pod.status.message ?? ''}`.trim() };
  const waiting = status?.state?.waiting;
  if (waiting?.reason !== undefined && waiting.reason !== 'ContainerCreating') return { state: 'waiting', message: `${waiting.reason}${waiting.message === undefined ? '' : `: ${waiting.message}`}` };
  const unscheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  return { state: 'waiting', message: unscheduled === undefined ? undefined : `${unscheduled.reason ?? 'Unschedulable'}: ${unscheduled.message ?? ''}` };
}
