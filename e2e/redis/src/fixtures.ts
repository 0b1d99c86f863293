// What the redis e2e suites build their scenarios from: an admin connection, the operator started as its chart's
// ServiceAccount (the harness), an independent Redis client that logs in to member Pods, and the pod runner's files
// to kill or freeze a member's redis-server. Members run as real redis-server processes (testenv's pod runner).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Pod, V1PodDisruptionBudget, V1Secret } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { adminClient, deleteNamespace as deleteNs, freshNamespace as freshNs } from '@domain-operators/e2e-harness';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { Client, Condition, CustomResourceObject } from '@domain-operators/reconcile';
import { resolvePaths } from '@domain-operators/testenv';

// The operator's contract as users see it (issue #8, ADR 0012), written out here rather than imported: e2e suites
// may not import the operator app, and an independent statement of the contract is the point of the check.

/** `redis.domain-operators.io/v1alpha1`. */
export const API_VERSION = 'redis.domain-operators.io/v1alpha1';
/** The label the primary Service selects on. */
export const ROLE_LABEL = 'redis.domain-operators.io/role';
/** The label naming a member Pod's RedisReplication. */
export const REPLICATION_LABEL = 'redis.domain-operators.io/replication';
/** The operator's own ACL user on every member. */
export const OPERATOR_USERNAME = 'redis-operator';

/** The objects a RedisReplication `name` owns. */
export function objectNames(name: string): { statefulSet: string; headless: string; primary: string; replicas: string; pdb: string; configMap: string; internalSecret: string; authSecret: string } {
  return {
    statefulSet: name,
    headless: `${name}-headless`,
    primary: name,
    replicas: `${name}-replicas`,
    pdb: name,
    configMap: `${name}-config`,
    internalSecret: `${name}-internal`,
    authSecret: `${name}-auth`,
  };
}

/** What the suites write and read of a RedisReplication. */
export type RedisReplication = CustomResourceObject<
  {
    replicas: number;
    image?: string;
    config?: Record<string, string>;
    failover?: { enabled?: boolean; downAfterMilliseconds?: number };
  },
  {
    conditions?: Condition[];
    primary?: string;
    members?: { pod: string; role: string; linkUp: boolean; lagBytes?: number }[];
    readyReplicas?: number;
    lastFailoverTime?: string;
  }
>;

/** What the suites write and read of a RedisUser. */
export type RedisUser = CustomResourceObject<
  { replicationRef: { name: string }; username: string; passwordSecretRef?: { name: string; key?: string }; rules: string[] },
  { conditions?: Condition[]; secretName?: string; appliedMembers?: number }
>;

/** The RedisReplication kind. */
export const redisReplications = {
  apiVersion: API_VERSION,
  kind: 'RedisReplication',
  type: resourceType<RedisReplication>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisReplication', plural: 'redisreplications', namespaced: true }),
} as const;

/** The RedisUser kind. */
export const redisUsers = {
  apiVersion: API_VERSION,
  kind: 'RedisUser',
  type: resourceType<RedisUser>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisUser', plural: 'redisusers', namespaced: true }),
} as const;

/** The built-in kinds the suites read. */
export const kinds = {
  ...coreTypes,
  podDisruptionBudget: resourceType<V1PodDisruptionBudget>({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true }),
} as const;

/** The admin connection to the cluster under test. */
export interface Cluster {
  readonly client: Client;
}

/** Connects as admin (testenv's apiserver, started when it is not running). The harness installs the CRDs. */
export async function cluster(): Promise<Cluster> {
  return { client: await adminClient() };
}

/** Polls `check` every 100 ms until it returns a value other than `undefined`/`false`; rejects with the last error after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs: number, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms${last instanceof Error ? `: ${last.message}` : ''}`);
    await sleep(100);
  }
}

/** Creates a namespace `<prefix>-<random>`. */
export async function freshNamespace(_c: Cluster, prefix: string): Promise<string> {
  return freshNs({}, prefix);
}

/** Deletes a namespace (not waiting); ignores one already gone. */
export async function deleteNamespace(_c: Cluster, name: string): Promise<void> {
  await deleteNs(name);
}

/** Reads a RedisReplication. */
export function getReplication(c: Cluster, namespace: string, name: string): Promise<RedisReplication> {
  return c.client.get(redisReplications.type, { namespace, name });
}

/** The member Pods of a RedisReplication, by name. */
export async function memberPods(c: Cluster, namespace: string, name: string): Promise<V1Pod[]> {
  const page = await c.client.list(coreTypes.pod, { namespace, labelSelector: `${REPLICATION_LABEL}=${name}` });
  return [...page.items].filter((p) => p.metadata?.deletionTimestamp === undefined).sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** The operator's own password of a RedisReplication (from its internal Secret), for admin checks. */
export async function operatorPassword(c: Cluster, namespace: string, name: string): Promise<string> {
  return secretValue(await c.client.get(coreTypes.secret, { namespace, name: objectNames(name).internalSecret }), 'operator-password');
}

/** The value of `key` in a Secret; throws when it is absent. */
export function secretValue(secret: V1Secret, key: string): string {
  const encoded = secret.data?.[key];
  if (encoded === undefined) throw new Error(`Secret ${secret.metadata?.name ?? ''} has no key ${key}`);
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** An independent Redis connection to a Pod, as `username` (default: the operator's user). Close it with `disconnect()`. */
export async function connect(pod: V1Pod, password: string, username: string = OPERATOR_USERNAME): Promise<Redis> {
  const redis = new Redis({
    host: pod.status?.podIP ?? '',
    port: 6379,
    username,
    password,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
    enableReadyCheck: false,
  });
  // ioredis reports a refused AUTH only as an 'error' event; the connect promise just says the connection closed.
  let last: Error | undefined;
  redis.on('error', (err: Error) => {
    last = err;
  });
  try {
    await redis.connect();
  } catch (err) {
    throw last ?? err;
  }
  return redis;
}

/** Runs one command on a Pod as `username` and disconnects. */
export async function command(pod: V1Pod, password: string, args: readonly string[], username: string = OPERATOR_USERNAME): Promise<unknown> {
  const redis = await connect(pod, password, username);
  try {
    const [name, ...rest] = args;
    return await redis.call(name ?? 'PING', ...rest);
  } finally {
    redis.disconnect();
  }
}

/** The error message of `args` run as `username` on the Pod's member, or 'OK' when it succeeded. */
export async function attempt(pod: V1Pod, password: string, args: readonly string[], username: string): Promise<string> {
  try {
    await command(pod, password, args, username);
    return 'OK';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The pid of a Pod's redis-server, from the pod runner's files. */
export async function redisServerPid(pod: V1Pod): Promise<number> {
  const file = join(resolvePaths().runDir, 'pod-runner', 'pods', pod.metadata?.uid ?? '', 'containers', 'redis', 'redis-server.pid');
  return Number((await readFile(file, 'utf8')).trim());
}

/** The restart count of a Pod's redis container. */
export function restartCount(pod: V1Pod): number {
  return pod.status?.containerStatuses?.find((s) => s.name === 'redis')?.restartCount ?? 0;
}

/**
 * The Pods a Service selects (its selector matched against the live Pods, what the EndpointSlice controller does).
 * testenv cannot show EndpointSlices: the apiserver refuses loopback addresses in them, and pod runner Pods live on
 * 127.0.x.y.
 */
export async function serviceSelects(c: Cluster, namespace: string, service: string): Promise<string[]> {
  const svc = await c.client.get(coreTypes.service, { namespace, name: service });
  const selector = Object.entries(svc.spec?.selector ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const pods = await c.client.list(coreTypes.pod, { namespace, labelSelector: selector });
  return pods.items
    .filter((p) => p.metadata?.deletionTimestamp === undefined)
    .map((p) => p.metadata?.name ?? '')
    .sort();
}
