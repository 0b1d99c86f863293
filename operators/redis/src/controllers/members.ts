/**
 * Member Pods of a RedisReplication as the operator sees them in the Pod cache. Pure helpers.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { IndexFunc } from '@domain-operators/reconcile';
import { REDIS_PORT } from '../redis/config-file.ts';
import { CONTAINER_NAME, REPLICATION_LABEL } from '../redis/manifests.ts';
import type { MemberAddress } from '../redis/topology.ts';

/** Name of the Pod index `namespace/replication` (from {@link REPLICATION_LABEL}). */
export const PODS_BY_REPLICATION = 'byReplication';

/** Indexes member Pods under `namespace/<replication>`. Pure. */
export const podsByReplication: IndexFunc<V1Pod> = (pod) => {
  const name = pod.metadata?.labels?.[REPLICATION_LABEL];
  return name === undefined ? [] : [`${pod.metadata?.namespace ?? ''}/${name}`];
};

/** The StatefulSet ordinal of `pod` (`<statefulset>-<n>`), or undefined for a Pod not of that StatefulSet. Pure. */
export function ordinalOf(pod: V1Pod, statefulSet: string): number | undefined {
  const name = pod.metadata?.name ?? '';
  const prefix = `${statefulSet}-`;
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^\d+$/.test(rest) ? Number(rest) : undefined;
}

/** A member Pod with its ordinal. */
export interface MemberPod {
  readonly pod: V1Pod;
  readonly name: string;
  readonly ordinal: number;
}

/** Live member Pods (not being deleted) of StatefulSet `statefulSet`, in ordinal order. Pure. */
export function memberPods(pods: readonly V1Pod[], statefulSet: string): MemberPod[] {
  const out: MemberPod[] = [];
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp !== undefined) continue;
    const ordinal = ordinalOf(pod, statefulSet);
    if (ordinal !== undefined) out.push({ pod, name: pod.metadata?.name ?? '', ordinal });
  }
  return out.sort((a, b) => a.ordinal - b.ordinal);
}

/** Where the member listens, once the Pod has an IP. Pure. */
export function podAddress(pod: V1Pod): MemberAddress | undefined {
  const ip = pod.status?.podIP;
  return ip === undefined || ip === '' ? undefined : { host: ip, port: REDIS_PORT };
}

/** True when the Pod's Ready condition is True. Pure. */
export function isPodReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/**
 * One run of the redis container: Pod UID and restart count. Users and live config set at run time vanish when
 * the process restarts, so whatever was applied is remembered per incarnation. Pure.
 */
export function incarnationOf(pod: V1Pod): string {
  const restarts = pod.status?.containerStatuses?.find((s) => s.name === CONTAINER_NAME)?.restartCount ?? 0;
  return `${pod.metadata?.uid ?? ''}/${restarts}`;
}

/** The redis container's restart count (0 when unknown). Pure. */
export function restartCountOf(pod: V1Pod): number {
  return pod.status?.containerStatuses?.find((s) => s.name === CONTAINER_NAME)?.restartCount ?? 0;
}
