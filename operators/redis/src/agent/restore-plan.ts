/**
 * The contract between the operator and its `restore-fetch` agent (the init container of a restoring member): the
 * plan the operator writes into the ConfigMap `<name>-restore` (no secrets: S3 credentials reach the agent through
 * `secretKeyRef` env), where it is mounted, and the termination message the agent leaves on failure. Pure.
 */

/** The command the operator image runs the agent with (`node /app/main.js restore-fetch`). */
export const RESTORE_FETCH_COMMAND = 'restore-fetch';
/** The init container's name. */
export const RESTORE_CONTAINER_NAME = 'restore';
/** Where the restore ConfigMap is mounted (optional: absent once the restore is done, and the agent then does nothing). */
export const RESTORE_PLAN_DIR = '/etc/redis-restore';
/** The plan's key in the ConfigMap and file name in {@link RESTORE_PLAN_DIR}. */
export const RESTORE_PLAN_FILE = 'plan.json';
/** Where a `volume` source's claim is mounted, read-only. */
export const RESTORE_SOURCE_DIR = '/restore-source';
/**
 * Where the agent leaves how redis-server starts this once (an emptyDir of the Pod, mounted in both containers): a
 * restored replica finds {@link RESTORE_REPLICAOF_FILE} there, starts as a replica and removes the file.
 */
export const RESTORE_START_DIR = '/etc/redis-start';
/** The file in {@link RESTORE_START_DIR} with the `--replicaof` arguments of a restored replica's first start. */
export const RESTORE_REPLICAOF_FILE = 'replicaof';
/**
 * The primary a restored replica first starts with: an address where no Redis listens (port 1 of its own loopback).
 * Starting as a replica is what keeps the RDB's replication id and offset (a Redis 7 started as a primary takes a new
 * id), so that the operator's `REPLICAOF` of the restored primary is a partial resynchronisation of 0 bytes, not a
 * full one; until then the replica serves nothing it was not restored with and accepts no write.
 */
export const RESTORE_PLACEHOLDER_PRIMARY = '127.0.0.1 1';
/** The env of the agent. */
export const RESTORE_ENV = {
  podName: 'POD_NAME',
  accessKeyId: 'RESTORE_S3_ACCESS_KEY_ID',
  secretAccessKey: 'RESTORE_S3_SECRET_ACCESS_KEY',
} as const;

/** Reasons the agent reports in its termination message. */
export const RESTORE_FAILURE_REASONS = {
  /** The data's SHA-256 is not the backup's: nothing was kept, redis-server did not start. */
  verificationFailed: 'RestoreVerificationFailed',
  /** The object or file could not be read (missing, denied, unreachable). */
  sourceUnavailable: 'RestoreSourceUnavailable',
  /** The member's data directory already holds other data: a restore never overwrites it. */
  targetNotEmpty: 'RestoreTargetNotEmpty',
  /** The plan in the ConfigMap cannot be used. */
  invalidPlan: 'RestorePlanInvalid',
} as const;

/** One of {@link RESTORE_FAILURE_REASONS}. */
export type RestoreFailureReason = (typeof RESTORE_FAILURE_REASONS)[keyof typeof RESTORE_FAILURE_REASONS];

/** Where the RDB comes from: an S3 object (credentials from env) or a file in the mounted claim. */
export type RestorePlanSource =
  | { readonly s3: { readonly endpoint?: string; readonly bucket: string; readonly key: string; readonly region: string; readonly forcePathStyle: boolean } }
  | { readonly file: { readonly path: string } };

/** What the restoring member must load. */
export type RestorePlan = RestorePlanSource & {
  /** `s3://<bucket>/<key>` or `pvc://<claim>/<path>`: what status.restoredFrom will say. */
  readonly location: string;
  /** Lower-case hex SHA-256 the data must have. */
  readonly sha256: string;
  /** The member that restores and starts as the first primary (ordinal 0). */
  readonly pod: string;
  /**
   * The members that restore too and start as replicas (the other ordinals at creation), in parallel with `pod`.
   * Absent in a plan from before parallel restores: then only `pod` restores.
   */
  readonly replicas?: readonly string[];
};

/** The agent's termination message (JSON in `/dev/termination-log`, read by the operator from the Pod status). */
export interface RestoreFailure {
  readonly reason: RestoreFailureReason;
  /** Human; never a secret. */
  readonly message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The plan in `text`, or a message saying why it cannot be used. Pure. */
export function parseRestorePlan(text: string): RestorePlan | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return 'the restore plan is not JSON';
  }
  if (!isRecord(raw)) return 'the restore plan is not an object';
  const { location, sha256, pod, s3, file, replicas: rawReplicas } = raw;
  if (typeof location !== 'string' || typeof pod !== 'string' || typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return 'the restore plan lacks location, pod or a sha256';
  if (rawReplicas !== undefined && !(Array.isArray(rawReplicas) && rawReplicas.every((r) => typeof r === 'string'))) return 'the restore plan has replicas that are not Pod names';
  const replicas = rawReplicas === undefined ? {} : { replicas: rawReplicas };
  if (isRecord(s3)) {
    const { endpoint, bucket, key, region, forcePathStyle } = s3;
    if (typeof bucket !== 'string' || typeof key !== 'string' || typeof region !== 'string' || typeof forcePathStyle !== 'boolean') return 'the restore plan has an incomplete s3 source';
    if (endpoint !== undefined && typeof endpoint !== 'string') return 'the restore plan has an incomplete s3 source';
    return { location, sha256, pod, ...replicas, s3: { bucket, key, region, forcePathStyle, ...(endpoint !== undefined && { endpoint }) } };
  }
  if (isRecord(file) && typeof file['path'] === 'string' && !file['path'].split('/').includes('..')) return { location, sha256, pod, ...replicas, file: { path: file['path'] } };
  return 'the restore plan has neither an s3 nor a file source';
}

/** The Pods `plan` restores: its primary first, then its replicas. Pure. */
export function restoringPods(plan: Pick<RestorePlan, 'pod' | 'replicas'>): readonly string[] {
  return [plan.pod, ...(plan.replicas ?? [])];
}

/** The termination message of `failure`, cut to the kubelet's 4096 bytes. Pure. */
export function terminationMessage(failure: RestoreFailure): string {
  const text = JSON.stringify(failure);
  return Buffer.byteLength(text) <= 4096 ? text : JSON.stringify({ reason: failure.reason, message: `${failure.message.slice(0, 3000)}…` });
}

/** The failure in a termination message, or undefined when it is not one of ours. Pure. */
export function parseTerminationMessage(text: string | undefined): RestoreFailure | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    const raw: unknown = JSON.parse(text);
    if (!isRecord(raw) || typeof raw['reason'] !== 'string' || typeof raw['message'] !== 'string') return undefined;
    const reason = Object.values(RESTORE_FAILURE_REASONS).find((r) => r === raw['reason']);
    return reason === undefined ? undefined : { reason, message: raw['message'] };
  } catch {
    return undefined;
  }
}
