/**
 * Observing member Pods: their role label, address and what Redis answers (INFO replication keyspace).
 */
import type { ReplicationClient } from '../redis/client.ts';
import type { MemberAddress, MemberObservation } from '../redis/topology.ts';
import { ROLE_LABEL } from '../redis/manifests.ts';
import type { RoleLabel } from '../redis/manifests.ts';
import type { MemberPod } from './members.ts';
import { podAddress } from './members.ts';

/** A member as observed, with the Pod it came from. */
export interface ObservedMember extends MemberObservation {
  readonly member: MemberPod;
}

/**
 * Asks every member for its INFO in parallel. A member without an IP, or one that does not answer, is observed
 * without `info`, with the reason in `error` (no secrets) and, when it was asked, how long it was waited for in
 * `unansweredForMs` (about `timeoutMs` for a frozen member, less for a refused connection). Never rejects.
 */
export async function observeMembers(members: readonly MemberPod[], client: Pick<ReplicationClient, 'info'>, timeoutMs = 1_000): Promise<ObservedMember[]> {
  return Promise.all(
    members.map(async (member): Promise<ObservedMember> => {
      const raw = member.pod.metadata?.labels?.[ROLE_LABEL];
      const label: RoleLabel | undefined = raw === 'primary' || raw === 'replica' ? raw : undefined;
      const address = podAddress(member.pod);
      const base = {
        member,
        pod: member.name,
        ordinal: member.ordinal,
        ...(address !== undefined && { address }),
        ...(label !== undefined && { label }),
      };
      if (address === undefined) return { ...base, error: 'the Pod has no IP yet' };
      const asked = performance.now();
      try {
        return { ...base, info: await withDeadline(client.info(address), timeoutMs, `INFO on ${address.host}:${address.port}: no answer within ${timeoutMs} ms`) };
      } catch (err) {
        return { ...base, error: err instanceof Error ? err.message : String(err), unansweredForMs: Math.min(timeoutMs, Math.round(performance.now() - asked)) };
      }
    }),
  );
}

/**
 * `promise`, or a rejection with `message` after `ms`: a member whose process is frozen accepts connections (the
 * kernel does) but never answers, and each of the client's steps (connect, AUTH, INFO) would wait its own timeout.
 */
async function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(message));
    }, ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Pod name → address of every observed member that has one. Pure. */
export function addressesOf(members: readonly MemberObservation[]): Map<string, MemberAddress> {
  const out = new Map<string, MemberAddress>();
  for (const m of members) if (m.address !== undefined) out.set(m.pod, m.address);
  return out;
}
