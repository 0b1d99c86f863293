// What the redis e2e suites build their scenarios from: an admin connection, the operator started as its chart's
// ServiceAccount (the harness), an independent Redis client that logs in to member Pods, the image members run, and
// the host pids of a member's container to kill or freeze it. Members run as containers from the Redis image on
// testenv's real node (containerd, runc, kubelet), or on the cluster of `$E2E_KUBECONFIG`.
import { execFile } from 'node:child_process';
import { readdir, readlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1EndpointSlice, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod, V1PodDisruptionBudget, V1Secret, V1StorageClass } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { adminClient, adminConnection, deleteNamespace as deleteNs, freshNamespace as freshNs, targetsExistingCluster } from '@domain-operators/e2e-harness';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { Client, Condition, CustomResourceObject } from '@domain-operators/reconcile';
import { containerHostPid, ensureNodeAddonBinaries, ensureTestEnv, resolvePaths } from '@domain-operators/testenv';

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
    storage?: { size: string | number; storageClassName?: string; accessModes?: string[] };
    config?: Record<string, string>;
    failover?: { enabled?: boolean; downAfterMilliseconds?: number; minReplicasToWrite?: number; minReplicasMaxLagSeconds?: number };
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
  endpointSlice: resourceType<V1EndpointSlice>({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true }),
  persistentVolumeClaim: resourceType<V1PersistentVolumeClaim>({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true }),
  persistentVolume: resourceType<V1PersistentVolume>({ group: '', version: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false }),
  storageClass: resourceType<V1StorageClass>({ group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass', plural: 'storageclasses', namespaced: false }),
} as const;

/** The name of the cluster's default StorageClass (annotation `storageclass.kubernetes.io/is-default-class`); throws when there is none. */
export async function defaultStorageClass(c: Cluster): Promise<string> {
  const classes = await c.client.list(kinds.storageClass, {});
  const found = classes.items.find((sc) => sc.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true');
  if (found?.metadata?.name === undefined) throw new Error('the cluster has no default StorageClass');
  return found.metadata.name;
}

/**
 * The Redis image the suites' RedisReplications run: on testenv the node's own (Debian's redis-server 7.0, built and
 * imported by testenv: nothing can be pulled there), on an existing cluster `redis:7.2`. Starts testenv's apiserver
 * and node when they are not running.
 */
export async function redisImage(): Promise<string> {
  if (targetsExistingCluster()) return 'redis:7.2';
  const env = await ensureTestEnv(['apiserver']);
  if (env.node === undefined) throw new Error('testenv: the node is not up (env.json has no node)');
  return env.node.redisImage;
}

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
/** True when the RedisReplication is Ready at its current generation. Pure. */
export function readyAtGeneration(rr: RedisReplication): boolean {
  return rr.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True' && x.observedGeneration === rr.metadata.generation) ?? false;
}

/** The RedisReplication once Ready at its generation with every member linked (`readyReplicas` = `spec.replicas`). */
export async function replicationReady(c: Cluster, namespace: string, name: string, timeoutMs = 120_000): Promise<RedisReplication> {
  return eventually(async () => {
    const rr = await getReplication(c, namespace, name);
    return readyAtGeneration(rr) && rr.status?.readyReplicas === rr.spec.replicas ? rr : undefined;
  }, timeoutMs, 'RedisReplication Ready');
}

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
  return connectTo(pod.status?.podIP ?? '', password, username);
}

/**
 * An independent Redis connection to `host:6379` (a Pod IP or a Service's ClusterIP) as `username`, with no retries
 * of its own: a broken connection or a command taking longer than `commandTimeoutMs` rejects. Close it with `disconnect()`.
 */
export async function connectTo(host: string, password: string, username: string, commandTimeoutMs?: number): Promise<Redis> {
  const redis = new Redis({
    host,
    port: 6379,
    username,
    password,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
    enableReadyCheck: false,
    ...(commandTimeoutMs !== undefined && { commandTimeout: commandTimeoutMs }),
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

/** The Pod named `name` among `pods`; throws, naming it, when none is. */
export function podNamed(pods: readonly V1Pod[], name: string | undefined): V1Pod {
  const pod = pods.find((p) => p.metadata?.name === name);
  if (pod === undefined) throw new Error(`no pod ${name ?? '(none)'}`);
  return pod;
}

/** A member's `INFO <section>` (default `replication`) as its `field:value` lines, asked as the operator's user. */
export async function memberInfo(pod: V1Pod, password: string, section = 'replication'): Promise<Map<string, string>> {
  const text = String(await command(pod, password, ['INFO', section]));
  return new Map(text.split(/\r?\n/).filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)] as [string, string]));
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

/** The two images of the upgrade scenario, and whether they are one image under two names. */
export interface UpgradeImages {
  readonly from: string;
  readonly to: string;
  /** True on testenv: `to` is a second tag of `from` (same content; the node serves only Debian's Redis 7.0). */
  readonly sameContent: boolean;
}

/**
 * The images a RedisReplication is upgraded between. On an existing cluster a real version upgrade, `redis:7.0` →
 * `redis:7.2`. On testenv, where nothing can be pulled and Debian serves only Redis 7.0, the node's Redis image and
 * a second tag of it (`<image>-rollout`, added to the node's containerd with `ctr images tag`, idempotent): a
 * different `spec.image`, hence a new Pod template and a real rollout, of the same content.
 */
export async function upgradeImages(): Promise<UpgradeImages> {
  if (targetsExistingCluster()) return { from: 'redis:7.0', to: 'redis:7.2', sameContent: false };
  const env = await ensureTestEnv(['apiserver']);
  if (env.node === undefined) throw new Error('testenv: the node is not up (env.json has no node)');
  const from = env.node.redisImage;
  const to = `${from}-rollout`;
  const { ctr } = await ensureNodeAddonBinaries({ paths: resolvePaths(), progress: () => undefined });
  await promisify(execFile)(ctr, ['--address', env.node.containerdSocket, '--namespace', 'k8s.io', 'images', 'tag', '--force', from, to], { timeout: 60_000 });
  return { from, to, sameContent: true };
}

/** The id of a Pod's running redis container, without the `containerd://` scheme; throws when none runs. */
export function redisContainerId(pod: V1Pod): string {
  const status = pod.status?.containerStatuses?.find((s) => s.name === 'redis');
  const id = status?.state?.running !== undefined ? status.containerID?.replace(/^[a-z]+:\/\//, '') : undefined;
  if (id === undefined || id === '') throw new Error(`Pod ${pod.metadata?.name ?? ''} has no running redis container`);
  return id;
}

/**
 * The host pid of a Pod's redis-server: the first process of its redis container (the image has no entrypoint
 * wrapper, so that is redis-server itself), read from containerd's shim state on testenv's node. Throws when the
 * container is not running there. Only on testenv: on an existing cluster the node's processes are out of reach.
 */
export function redisServerPid(pod: V1Pod): number {
  const id = redisContainerId(pod);
  const pid = containerHostPid(id);
  if (pid === undefined) throw new Error(`container ${id.slice(0, 12)} of Pod ${pod.metadata?.name ?? ''} is not running on testenv's node`);
  return pid;
}

/**
 * The host pids of every process in the container whose first process is `initPid` (the processes that share its
 * pid namespace: redis-server, and a readiness probe's `sh`/`redis-cli` if one runs at that moment). Read from
 * `/proc`; stale the moment it returns.
 */
export async function containerProcesses(initPid: number): Promise<number[]> {
  const namespace = await readlink(`/proc/${initPid}/ns/pid`);
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ((await readlink(`/proc/${entry}/ns/pid`)) === namespace) pids.push(Number(entry));
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return pids;
}

/**
 * Freezes a Pod's redis container: SIGSTOP to each of its processes (testenv only). Resolves with a function that
 * sends them SIGCONT; call it in a `finally`, or the member stays frozen. The kubelet does not restart a stopped
 * process (there is no liveness probe); its readiness probe times out.
 */
export async function freezeRedis(pod: V1Pod): Promise<() => void> {
  const pids = await containerProcesses(redisServerPid(pod));
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  return () => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // A probe process may have been killed by the runtime's timeout meanwhile.
      }
    }
  };
}

/** Kills a Pod's redis-server with SIGKILL, as the kernel's OOM killer would (testenv only); resolves with the container id that ended. */
export function killRedis(pod: V1Pod): string {
  const id = redisContainerId(pod);
  process.kill(redisServerPid(pod), 'SIGKILL');
  return id;
}

/** The log of a Pod's container (`previous`: of its last terminated run), read through the apiserver (`pods/log`). */
export async function podLog(namespace: string, pod: string, container: string, previous = false): Promise<string> {
  const { rest } = await adminConnection();
  const response = await rest.stream({
    method: 'GET',
    path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`,
    query: { container, previous },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** The restart count of a Pod's redis container. */
export function restartCount(pod: V1Pod): number {
  return pod.status?.containerStatuses?.find((s) => s.name === 'redis')?.restartCount ?? 0;
}

/**
 * The Pods a Service routes to: the ready endpoints of its EndpointSlices (label `kubernetes.io/service-name`), by
 * their targetRef's name, sorted. This is what kube-proxy programs, as the EndpointSlice controller last wrote it
 * (it may lag the Pods' labels by a moment). An endpoint whose `ready` is absent counts as ready, as the API says.
 */
export async function serviceSelects(c: Cluster, namespace: string, service: string): Promise<string[]> {
  const slices = await c.client.list(kinds.endpointSlice, { namespace, labelSelector: `kubernetes.io/service-name=${service}` });
  const pods = new Set<string>();
  for (const slice of slices.items) {
    for (const endpoint of slice.endpoints ?? []) {
      if (endpoint.conditions?.ready === false || endpoint.targetRef?.kind !== 'Pod') continue;
      pods.add(endpoint.targetRef.name ?? '');
    }
  }
  return [...pods].sort();
}
