/**
 * Which member a backup's snapshot is taken from: with `PreferReplica`, the linked replica with the highest
 * replication offset (the freshest copy, and the primary keeps serving without a fork for this backup); the primary
 * only when no replica is linked. With `Primary`, the primary. Pure.
 */
import type { MemberInfo } from '../redis/info.ts';
import type { MemberAddress } from '../redis/topology.ts';

/** One ready member as the backup sees it. */
export interface CandidateMember {
  readonly pod: string;
  readonly address: MemberAddress;
  readonly info: MemberInfo;
}

/** The chosen member, or why none can be. */
export type SourceChoice = { readonly ok: true; readonly member: CandidateMember } | { readonly ok: false; readonly message: string };

/** Chooses the source among `members` (ready members with their INFO) for `source`. */
export function chooseSource(source: 'PreferReplica' | 'Primary', members: readonly CandidateMember[]): SourceChoice {
  const primaries = members.filter((m) => m.info.replication.role === 'primary');
  const primary = primaries.length === 1 ? primaries[0] : undefined;
  if (source === 'PreferReplica') {
    const linked = members
      .filter((m) => m.info.replication.role === 'replica' && m.info.replication.linkUp && !m.info.replication.syncInProgress)
      .sort((a, b) => b.info.replication.offset - a.info.replication.offset || a.pod.localeCompare(b.pod));
    const best = linked[0];
    if (best !== undefined) return { ok: true, member: best };
  }
  if (primary !== undefined) return { ok: true, member: primary };
  if (primaries.length > 1) return { ok: false, message: `${primaries.length} members report role primary (${primaries.map((m) => m.pod).join(', ')}): waiting for the topology to settle` };
  return { ok: false, message: members.length === 0 ? 'no member is ready' : `no primary and no linked replica among ${members.map((m) => m.pod).join(', ')}` };
}
