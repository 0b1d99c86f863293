/**
 * The Kubernetes objects a RedisReplication owns, as pure functions of the resource and its credentials: the
 * StatefulSet of members, the headless, primary and replicas Services, the PodDisruptionBudget, the ConfigMap
 * with redis.conf and the Secrets. Every object carries a controller ownerReference to the RedisReplication.
 */
import type {
  V1ConfigMap,
  V1Container,
  V1EnvVar,
  V1OwnerReference,
  V1PodDisruptionBudget,
  V1PodSpec,
  V1Secret,
  V1Service,
  V1StatefulSet,
  V1Toleration,
  V1Volume,
} from '@kubernetes/client-node';
import { createHash } from 'node:crypto';
import { controllerReference } from '@domain-operators/reconcile';
import type { RedisReplication } from '../api/v1alpha1/index.ts';
import { redisReplications } from '../api/v1alpha1/index.ts';
import type { BootstrapUsers } from './bootstrap.ts';
import { replicationAuthLines } from './bootstrap.ts';
import {
  RESTORE_CONTAINER_NAME,
  RESTORE_ENV,
  RESTORE_FETCH_COMMAND,
  RESTORE_PLAN_DIR,
  RESTORE_PLAN_FILE,
  RESTORE_REPLICAOF_FILE,
  RESTORE_SOURCE_DIR,
  RESTORE_START_DIR,
} from '../agent/restore-plan.ts';
import type { RestorePlan } from '../agent/restore-plan.ts';
import type { AgentImage } from '../config.ts';
import { CONFIG_DIR, DATA_DIR, REDIS_PORT, REPLICATION_AUTH_FILE, REPLICATION_PASSWORD_FILE, SECRET_DIR } from './config-file.ts';
import { memberProbes } from './probe.ts';

/** Label naming the RedisReplication a member Pod (and every owned object) belongs to. */
export const REPLICATION_LABEL = 'redis.domain-operators.io/replication';
/** The member Pod label that the primary Service selects on (`primary` or `replica`). */
export const ROLE_LABEL = 'redis.domain-operators.io/role';
/** Values of {@link ROLE_LABEL}. */
export type RoleLabel = 'primary' | 'replica';
/** `app.kubernetes.io/managed-by` value of every object the operator creates. */
export const MANAGED_BY = 'redis-operator';
/** Pod template annotation whose change (a static config change) restarts the members. */
export const RESTART_HASH_ANNOTATION = 'redis.domain-operators.io/restart-hash';
/** StatefulSet annotation: hash of the desired Pod template, to tell whether the cached StatefulSet has it. */
export const TEMPLATE_HASH_ANNOTATION = 'redis.domain-operators.io/template-hash';
/** The redis container's name. */
export const CONTAINER_NAME = 'redis';
/**
 * The uid and gid members run as: the `redis` user of the official image and of Debian's package. Also the Pod's
 * `fsGroup`, so that the Secret-mounted `masterauth` file (mode 0440 with an fsGroup, 0400 root-owned without) and a
 * claim's `/data` are readable and writable by redis-server.
 */
export const REDIS_UID = 999;

/** Keys of the internal Secret `<name>-internal`. */
export const INTERNAL_KEYS = { operatorPassword: 'operator-password', replicationPassword: 'replication-password' } as const;
/** The operator's own ACL user on every member. */
export const OPERATOR_USERNAME = 'redis-operator';
/** The ACL user replicas authenticate as. */
export const REPLICATION_USERNAME = 'replication';

/** Names of the objects of RedisReplication `name`. Pure. */
export function objectNames(name: string): {
  readonly statefulSet: string;
  readonly headless: string;
  readonly primary: string;
  readonly replicas: string;
  readonly pdb: string;
  readonly configMap: string;
  readonly internalSecret: string;
  readonly authSecret: string;
  readonly restoreConfigMap: string;
} {
  return {
    statefulSet: name,
    headless: `${name}-headless`,
    primary: name,
    replicas: `${name}-replicas`,
    pdb: name,
    configMap: `${name}-config`,
    internalSecret: `${name}-internal`,
    authSecret: `${name}-auth`,
    restoreConfigMap: `${name}-restore`,
  };
}

/** Labels selecting the member Pods of `name` (stable: never change them on a live StatefulSet). Pure. */
export function selectorLabels(name: string): Record<string, string> {
  return { 'app.kubernetes.io/name': 'redis', [REPLICATION_LABEL]: name };
}

/** Labels on every object of `name`. Pure. */
export function commonLabels(name: string): Record<string, string> {
  return { ...selectorLabels(name), 'app.kubernetes.io/instance': name, 'app.kubernetes.io/managed-by': MANAGED_BY };
}

/** The controller ownerReference to `rr`. Pure. */
export function ownerReference(rr: Pick<RedisReplication, 'metadata'>): V1OwnerReference {
  return controllerReference(redisReplications.type, rr);
}

interface OwnedMetadata {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  ownerReferences: V1OwnerReference[];
}

function metadata(rr: RedisReplication, name: string): OwnedMetadata {
  return { name, namespace: rr.metadata.namespace ?? '', labels: commonLabels(rr.metadata.name ?? ''), ownerReferences: [ownerReference(rr)] };
}

/** The ConfigMap holding redis.conf. Pure. */
export function configMapFor(rr: RedisReplication, conf: string): V1ConfigMap {
  const names = objectNames(rr.metadata.name ?? '');
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(rr, names.configMap), data: { 'redis.conf': conf } };
}

/**
 * The internal Secret: the operator's and the replication user's passwords and the `masterauth` include file.
 * Created once with generated passwords and then kept. Pure.
 */
export function internalSecretFor(rr: RedisReplication, users: Pick<BootstrapUsers, 'operator' | 'replication'>): V1Secret {
  const names = objectNames(rr.metadata.name ?? '');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: metadata(rr, names.internalSecret),
    stringData: {
      [INTERNAL_KEYS.operatorPassword]: users.operator.password,
      [INTERNAL_KEYS.replicationPassword]: users.replication.password,
      [REPLICATION_AUTH_FILE]: `${replicationAuthLines(users.replication).join('\n')}\n`,
    },
  };
}

/** The generated Secret `<name>-auth` with the default user's password (only without `auth.secretRef`). Pure. */
export function authSecretFor(rr: RedisReplication, password: string): V1Secret {
  const names = objectNames(rr.metadata.name ?? '');
  return { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: metadata(rr, names.authSecret), stringData: { password } };
}

function quantities(values: Readonly<Record<string, string | number>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
}

function dataVolume(rr: RedisReplication): V1Volume[] {
  return rr.spec.storage === undefined ? [{ name: 'data', emptyDir: {} }] : [];
}

/** Inputs of {@link statefulSetFor} besides the resource. */
export interface StatefulSetInput {
  /** Pods to run (the spec's replicas, or more while a scale-down waits for a switchover). */
  readonly replicas: number;
  /** {@link restartHash} of the configuration. */
  readonly restartHash: string;
  /** Only Pods with an ordinal at or above it are replaced on a template change (keeps the primary out). */
  readonly partition: number;
  /**
   * The agent init container and what it mounts (see {@link restoreInitContainer}): while a restore is pending, and
   * after an S3 restore (idle then, so that the restore's end changes no template and restarts no member).
   */
  readonly restore?: RestoreMount;
}

/** What the member Pods of a RedisReplication with `spec.restore` mount for its agent. */
export interface RestoreMount {
  /** The operator's own image, run as `node /app/main.js restore-fetch`. */
  readonly agent: AgentImage;
  /** An S3 source: the Secret and its keys, given to the agent as env (never args, never the plan). */
  readonly s3Credentials?: { readonly name: string; readonly accessKeyIdKey: string; readonly secretAccessKeyKey: string };
  /** A volume source: the claim, mounted read-only at {@link RESTORE_SOURCE_DIR}. */
  readonly claimName?: string;
}

/** The ConfigMap `<name>-restore` with the plan the agent reads; the operator deletes it once the restore is done. Pure. */
export function restoreConfigMapFor(rr: RedisReplication, plan: RestorePlan): V1ConfigMap {
  const names = objectNames(rr.metadata.name ?? '');
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(rr, names.restoreConfigMap), data: { [RESTORE_PLAN_FILE]: `${JSON.stringify(plan)}\n` } };
}

/** The security context of every container of a member: what Pod Security `restricted` asks, and a read-only root. */
const CONTAINER_SECURITY = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true } as const;

function optionalSecretEnv(name: string, secret: string, key: string): V1EnvVar {
  // Optional: the agent reads them only while a plan is mounted; a Secret deleted after the restore must not keep
  // members from starting (a missing one during the restore fails the read, reported as RestoreSourceUnavailable).
  return { name, valueFrom: { secretKeyRef: { name: secret, key, optional: true } } };
}

/**
 * The redis container's start with `spec.restore`: redis-server as always, but as a replica of the arguments in
 * {@link RESTORE_REPLICAOF_FILE} when the agent left that file (a restored replica), which is removed first so that
 * only this start takes it (a later restart of the container starts as an ordinary member). `exec`: redis-server is
 * the container's first process.
 */
export const RESTORE_START_SCRIPT = [
  `f=${RESTORE_START_DIR}/${RESTORE_REPLICAOF_FILE}`,
  'if [ -s "$f" ]; then set -- --replicaof $(cat "$f"); rm "$f" || exit 1; fi',
  `exec redis-server ${CONFIG_DIR}/redis.conf "$@"`,
].join('; ');

/**
 * The `restore` init container: the operator's image running `restore-fetch` with `/data`, the restore ConfigMap
 * (optional: once the operator deleted it, a recreated Pod's agent finds no plan and does nothing), the Pod's start
 * directory and a `volume` source's claim (read-only) mounted; S3 credentials as optional `secretKeyRef` env. Only the
 * Pods the plan names restore; redis-server starts only after it exits 0. Pure.
 */
export function restoreInitContainer(mount: RestoreMount): V1Container {
  const credentials = mount.s3Credentials;
  return {
    name: RESTORE_CONTAINER_NAME,
    image: mount.agent.image,
    imagePullPolicy: mount.agent.pullPolicy,
    command: ['node', '/app/main.js', RESTORE_FETCH_COMMAND],
    env: [
      { name: RESTORE_ENV.podName, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ...(credentials === undefined
        ? []
        : [optionalSecretEnv(RESTORE_ENV.accessKeyId, credentials.name, credentials.accessKeyIdKey), optionalSecretEnv(RESTORE_ENV.secretAccessKey, credentials.name, credentials.secretAccessKeyKey)]),
    ],
    securityContext: { ...CONTAINER_SECURITY, capabilities: { drop: [...CONTAINER_SECURITY.capabilities.drop] } },
    terminationMessagePolicy: 'File',
    volumeMounts: [
      { name: 'data', mountPath: DATA_DIR },
      { name: 'restore-plan', mountPath: RESTORE_PLAN_DIR, readOnly: true },
      { name: 'restore-start', mountPath: RESTORE_START_DIR },
      ...(mount.claimName === undefined ? [] : [{ name: 'restore-source', mountPath: RESTORE_SOURCE_DIR, readOnly: true }]),
    ],
  };
}

/** Whether the members start through {@link RESTORE_START_SCRIPT}: `spec.restore` is set (for good: it is immutable). */
function startsAfterRestore(rr: RedisReplication, mount: RestoreMount | undefined): boolean {
  return rr.spec.restore !== undefined || mount !== undefined;
}

function restoreVolumes(rr: RedisReplication, mount: RestoreMount | undefined): V1Volume[] {
  const name = rr.metadata.name ?? '';
  const start: V1Volume[] = startsAfterRestore(rr, mount) ? [{ name: 'restore-start', emptyDir: {} }] : [];
  if (mount === undefined) return start;
  return [
    ...start,
    { name: 'restore-plan', configMap: { name: objectNames(name).restoreConfigMap, optional: true } },
    ...(mount.claimName === undefined ? [] : [{ name: 'restore-source', persistentVolumeClaim: { claimName: mount.claimName, readOnly: true } }]),
  ];
}

/**
 * The StatefulSet of members: `redis-server /etc/redis/redis.conf`, the ConfigMap and the internal Secret mounted,
 * `/data` on a claim or an emptyDir, an exec readiness probe that accepts any answer proving the server serves
 * (the default user may be restricted), Pods started in parallel. Members satisfy Pod Security `restricted`: uid
 * and gid {@link REDIS_UID} (also the fsGroup), no privilege escalation, every capability dropped, the runtime's
 * default seccomp profile, a read-only root filesystem (redis-server writes only to `/data`). The role label is NOT in the template: the
 * operator sets it on each Pod, so the primary Service follows the real primary. Pure.
 * With `input.restore` the {@link restoreInitContainer} runs first, under the same restrictions; with `spec.restore`
 * redis-server starts through {@link RESTORE_START_SCRIPT}, with the Pod's start directory mounted.
 */
export function statefulSetFor(rr: RedisReplication, input: StatefulSetInput): V1StatefulSet {
  const name = rr.metadata.name ?? '';
  const names = objectNames(name);
  const template = rr.spec.podTemplate;
  const resources = rr.spec.resources;
  const probes = memberProbes(REPLICATION_USERNAME, `${SECRET_DIR}/${REPLICATION_PASSWORD_FILE}`);
  const podSpec: V1PodSpec = {
    ...(input.restore !== undefined && { initContainers: [restoreInitContainer(input.restore)] }),
    containers: [
      {
        name: CONTAINER_NAME,
        image: rr.spec.image,
        args: startsAfterRestore(rr, input.restore) ? ['sh', '-c', RESTORE_START_SCRIPT] : ['redis-server', `${CONFIG_DIR}/redis.conf`],
        ports: [{ name: 'redis', containerPort: REDIS_PORT, protocol: 'TCP' }],
        securityContext: {
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          readOnlyRootFilesystem: true,
        },
        readinessProbe: probes.readiness,
        startupProbe: probes.startup,
        ...(resources !== undefined && {
          resources: {
            ...(resources.requests !== undefined && { requests: quantities(resources.requests) }),
            ...(resources.limits !== undefined && { limits: quantities(resources.limits) }),
          },
        }),
        volumeMounts: [
          { name: 'config', mountPath: CONFIG_DIR, readOnly: true },
          { name: 'internal', mountPath: SECRET_DIR, readOnly: true },
          { name: 'data', mountPath: DATA_DIR },
          ...(startsAfterRestore(rr, input.restore) ? [{ name: 'restore-start', mountPath: RESTORE_START_DIR }] : []),
        ],
      },
    ],
    volumes: [
      { name: 'config', configMap: { name: names.configMap } },
      {
        name: 'internal',
        secret: {
          secretName: names.internalSecret,
          items: [
            { key: REPLICATION_AUTH_FILE, path: REPLICATION_AUTH_FILE },
            { key: INTERNAL_KEYS.replicationPassword, path: REPLICATION_PASSWORD_FILE },
          ],
          defaultMode: 0o400,
        },
      },
      ...dataVolume(rr),
      ...restoreVolumes(rr, input.restore),
    ],
    // Without an fsGroup the Secret's files are root's with mode 0400, which redis-server (uid 999) cannot read: it
    // would refuse to start (`can't open config file '/etc/redis-secret/replication-auth.conf': Permission denied`).
    securityContext: {
      runAsNonRoot: true,
      runAsUser: REDIS_UID,
      runAsGroup: REDIS_UID,
      fsGroup: REDIS_UID,
      fsGroupChangePolicy: 'OnRootMismatch',
      seccompProfile: { type: 'RuntimeDefault' },
    },
    terminationGracePeriodSeconds: 30,
    ...(template?.nodeSelector !== undefined && { nodeSelector: { ...template.nodeSelector } }),
    ...(template?.tolerations !== undefined && { tolerations: template.tolerations.map((t): V1Toleration => ({ ...t })) }),
    ...(template?.affinity !== undefined && { affinity: template.affinity as NonNullable<V1PodSpec['affinity']> }),
  };
  const storage = rr.spec.storage;
  const podTemplate = {
    metadata: {
      labels: { ...(template?.labels ?? {}), ...commonLabels(name) },
      annotations: { ...(template?.annotations ?? {}), [RESTART_HASH_ANNOTATION]: input.restartHash },
    },
    spec: podSpec,
  };
  const templateHash = createHash('sha256').update(JSON.stringify(podTemplate)).digest('hex').slice(0, 16);
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { ...metadata(rr, names.statefulSet), annotations: { [TEMPLATE_HASH_ANNOTATION]: templateHash } },
    spec: {
      replicas: input.replicas,
      serviceName: names.headless,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: selectorLabels(name) },
      // The partition keeps the primary out of a rollout until it has handed its role over (controllers/rollout.ts).
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: input.partition } },
      template: podTemplate,
      ...(storage !== undefined && {
        volumeClaimTemplates: [
          {
            metadata: { name: 'data', labels: commonLabels(name) },
            spec: {
              accessModes: [...(storage.accessModes ?? ['ReadWriteOnce'])],
              resources: { requests: { storage: String(storage.size) } },
              ...(storage.storageClassName !== undefined && { storageClassName: storage.storageClassName }),
            },
          },
        ],
      }),
    },
  };
}

function service(rr: RedisReplication, name: string, selector: Record<string, string>, headless: boolean): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata(rr, name),
    spec: {
      ...(headless && { clusterIP: 'None', publishNotReadyAddresses: true }),
      selector,
      ports: [{ name: 'redis', port: REDIS_PORT, targetPort: 'redis', protocol: 'TCP' }],
    },
  };
}

/** The headless Service giving members stable DNS names. Pure. */
export function headlessServiceFor(rr: RedisReplication): V1Service {
  const name = rr.metadata.name ?? '';
  return service(rr, objectNames(name).headless, selectorLabels(name), true);
}

/** The Service `<name>`: selects only the Pod labelled primary. Pure. */
export function primaryServiceFor(rr: RedisReplication): V1Service {
  const name = rr.metadata.name ?? '';
  return service(rr, objectNames(name).primary, { ...selectorLabels(name), [ROLE_LABEL]: 'primary' }, false);
}

/** The Service `<name>-replicas`: selects the Pods labelled replica. Pure. */
export function replicasServiceFor(rr: RedisReplication): V1Service {
  const name = rr.metadata.name ?? '';
  return service(rr, objectNames(name).replicas, { ...selectorLabels(name), [ROLE_LABEL]: 'replica' }, false);
}

/** At most one member voluntarily disrupted at a time. Pure. */
export function podDisruptionBudgetFor(rr: RedisReplication): V1PodDisruptionBudget {
  const name = rr.metadata.name ?? '';
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: metadata(rr, objectNames(name).pdb),
    spec: { maxUnavailable: 1, selector: { matchLabels: selectorLabels(name) } },
  };
}
