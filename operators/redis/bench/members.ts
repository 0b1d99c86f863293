// How the benchmark looks at a RedisReplication from outside the operator: the API objects through the admin
// client, the members through its own ioredis connections (as the operator's ACL user) to their Pod IPs on testenv's
// node, and the redis-server processes by the host pid of their container (containerd's shim state).
import type { V1Pod } from '@kubernetes/client-node';
import { coreTypes, getCondition } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { containerHostPid } from '@domain-operators/testenv';
import { Redis } from 'ioredis';
import { redisReplications } from '../src/api/v1alpha1/index.ts';
import type { RedisReplication } from '../src/api/v1alpha1/index.ts';
import { CONTAINER_NAME, INTERNAL_KEYS, objectNames, OPERATOR_USERNAME, REPLICATION_LABEL, ROLE_LABEL } from '../src/redis/manifests.ts';

/** One RedisReplication under measurement. */
export interface Target {
  readonly client: Client;
  readonly namespace: string;
  readonly name: string;
}

/** Ready=True for the current generation. Pure. */
export function isReady(rr: RedisReplication): boolean {
  const ready = getCondition(rr.status?.conditions, 'Ready');
  return ready?.status === 'True' && ready.observedGeneration === rr.metadata.generation;
}

/** Reads the RedisReplication. */
export function replication(t: Target): Promise<RedisReplication> {
  return t.client.get(redisReplications.type, { namespace: t.namespace, name: t.name });
}

/** The live member Pods, by name. */
export async function memberPods(t: Target): Promise<V1Pod[]> {
  const page = await t.client.list(coreTypes.pod, { namespace: t.namespace, labelSelector: `${REPLICATION_LABEL}=${t.name}` });
  return [...page.items].filter((p) => p.metadata?.deletionTimestamp === undefined).sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** The Pods the primary Service's selector matches: what the operator decides, before the EndpointSlice controller follows. */
export async function primaryServiceSelects(t: Target): Promise<string[]> {
  const svc = await t.client.get(coreTypes.service, { namespace: t.namespace, name: objectNames(t.name).primary });
  const selector = Object.entries(svc.spec?.selector ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  if (selector === '') return [];
  const pods = await t.client.list(coreTypes.pod, { namespace: t.namespace, labelSelector: selector });
  return pods.items
    .filter((p) => p.metadata?.deletionTimestamp === undefined)
    .map((p) => p.metadata?.name ?? '')
    .sort();
}

/** The operator's own password of the replication (its internal Secret): the benchmark logs in as that user. Never log it. */
export async function operatorPassword(t: Target): Promise<string> {
  const secret = await t.client.get(coreTypes.secret, { namespace: t.namespace, name: objectNames(t.name).internalSecret });
  const encoded = secret.data?.[INTERNAL_KEYS.operatorPassword];
  if (encoded === undefined) throw new Error(`Secret ${objectNames(t.name).internalSecret} has no ${INTERNAL_KEYS.operatorPassword}`);
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** Runs one command on a Pod's redis-server (short timeouts: a frozen member must not hold the benchmark) and disconnects. */
export async function command(pod: V1Pod, password: string, args: readonly string[]): Promise<unknown> {
  const redis = new Redis({
    host: pod.status?.podIP ?? '',
    port: 6379,
    username: OPERATOR_USERNAME,
    password,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 500,
    commandTimeout: 1_000,
    enableReadyCheck: false,
    enableOfflineQueue: false,
  });
  let last: Error | undefined;
  redis.on('error', (err: Error) => {
    last = err;
  });
  try {
    try {
      await redis.connect();
    } catch (err) {
      throw last ?? err;
    }
    const [name, ...rest] = args;
    return await redis.call(name ?? 'PING', ...rest);
  } finally {
    redis.disconnect();
  }
}

/** `INFO <section>` of a Pod as a map. */
export async function info(pod: V1Pod, password: string, section = 'replication'): Promise<Map<string, string>> {
  const text = String(await command(pod, password, ['INFO', section]));
  return new Map(
    text
      .split(/\r?\n/)
      .filter((l) => l.includes(':'))
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)] as [string, string]),
  );
}

/** `containerd://abc` → `abc`. Pure. */
export function withoutScheme(containerId: string): string {
  return containerId.replace(/^[a-z]+:\/\//, '');
}

/**
 * The host pid of a Pod's redis-server: the first process of its running `redis` container (the operator runs
 * `redis-server` as the container's command, no wrapper), found from `status.containerStatuses[].containerID` in
 * containerd's state on testenv's node. A restarted container has a new id and pid. Throws when none runs there.
 */
export function redisServerPid(pod: V1Pod): number {
  const status = pod.status?.containerStatuses?.find((s) => s.name === CONTAINER_NAME);
  const id = status?.state?.running !== undefined && status.containerID !== undefined ? withoutScheme(status.containerID) : undefined;
  const pid = id === undefined ? undefined : containerHostPid(id);
  if (id === undefined || pid === undefined) throw new Error(`Pod ${pod.metadata?.name ?? ''} has no running ${CONTAINER_NAME} container on testenv's node`);
  return pid;
}

/** The topology as a converged replication shows it. */
export interface Converged {
  readonly rr: RedisReplication;
  readonly primary: V1Pod;
  readonly replicas: readonly V1Pod[];
}

/**
 * The replication's topology is whole, as an independent observer sees it, or `undefined`: Ready=True, `members`
 * Pods, the one labelled primary is `status.primary` and answers as master, every other is labelled replica and
 * replicates from it with the link up, and the primary Service selects exactly the primary.
 */
export async function converged(t: Target, password: string, members: number): Promise<Converged | undefined> {
  const rr = await replication(t);
  if (!isReady(rr) || rr.status?.primary === undefined) return undefined;
  const pods = await memberPods(t);
  if (pods.length !== members) return undefined;
  const primary = pods.find((p) => p.metadata?.name === rr.status?.primary);
  if (primary === undefined || primary.metadata?.labels?.[ROLE_LABEL] !== 'primary') return undefined;
  const replicas = pods.filter((p) => p !== primary);
  if (replicas.some((r) => r.metadata?.labels?.[ROLE_LABEL] !== 'replica')) return undefined;
  if ((await info(primary, password)).get('role') !== 'master') return undefined;
  for (const r of replicas) {
    const i = await info(r, password);
    if (i.get('role') !== 'slave' || i.get('master_host') !== primary.status?.podIP || i.get('master_link_status') !== 'up') return undefined;
  }
  const selected = await primaryServiceSelects(t);
  if (selected.length !== 1 || selected[0] !== primary.metadata.name) return undefined;
  return { rr, primary, replicas };
}
