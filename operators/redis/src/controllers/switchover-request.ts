/**
 * A planned switchover asked for by the annotation {@link SWITCHOVER_ANNOTATION} on a RedisReplication: what the
 * annotation means, whether the topology allows it, and to whom the primary role may go. Pure; the reconciler carries
 * the switchover out with the same hand-over a rollout uses (label first, writes held, the acknowledgement, promote,
 * repoint) and reports the result in the condition {@link SWITCHOVER_CONDITION}.
 *
 * "Lags" follows the failover's candidate order (`compareCandidates` in `redis/topology.ts`): a member without data
 * is never chosen over a primary with data, so it is refused before anything is done; and with the primary's writes
 * held, a member whose replication offset has not reached the primary's would lose acknowledged writes if promoted,
 * so it is refused after the hold ({@link fencedLag}).
 */
import type { MemberRole } from '../api/v1alpha1/index.ts';

/** The annotation: the Pod name of the member to promote, or `best` for the best linked replica. */
export const SWITCHOVER_ANNOTATION = 'redis.domain-operators.io/switchover';

/** The condition type that reports the last requested switchover (True: carried out or nothing to do; False: refused). */
export const SWITCHOVER_CONDITION = 'Switchover';

/** Reasons of {@link SWITCHOVER_CONDITION}. */
export const SWITCHOVER_REASONS = {
  completed: 'SwitchoverCompleted',
  alreadyPrimary: 'AlreadyPrimary',
  invalid: 'InvalidSwitchoverRequest',
  memberNotFound: 'MemberNotFound',
  memberNotLinked: 'MemberNotLinked',
  memberLagging: 'MemberLagging',
  noLinkedReplica: 'NoLinkedReplica',
  notConverged: 'TopologyNotConverged',
} as const;

/** What the annotation asks for. */
export type SwitchoverRequest = { readonly to: 'best' } | { readonly to: 'member'; readonly pod: string };

/** A request that cannot be carried out (or needs nothing), with the condition it reports. */
export interface SwitchoverOutcome {
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/** The annotation's value, or why it means nothing: a Pod name (a DNS label) or `best`, surrounding spaces ignored. Pure. */
export function parseSwitchoverRequest(value: string): SwitchoverRequest | SwitchoverOutcome {
  const trimmed = value.trim();
  if (trimmed === 'best') return { to: 'best' };
  if (/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(trimmed)) return { to: 'member', pod: trimmed };
  return refused(SWITCHOVER_REASONS.invalid, `${SWITCHOVER_ANNOTATION} must be a member's Pod name or "best", not ${JSON.stringify(value.slice(0, 100))}`);
}

/** One member as the topology step just saw it. */
export interface SwitchoverMember {
  readonly pod: string;
  readonly role: MemberRole;
  /** A replica: linked to the current primary. */
  readonly linkUp: boolean;
  /** It has keys or has received any replication stream. */
  readonly holdsData: boolean;
}

/** What {@link chooseSwitchover} looks at. */
export interface SwitchoverSituation {
  readonly primary: string | undefined;
  readonly members: readonly SwitchoverMember[];
  /** The topology is converged (every member present, answering and linked, no failover, no plan). */
  readonly converged: boolean;
  /** Why not, for the message (the topology's Ready message). */
  readonly notConvergedWhy: string;
}

/** The members the primary role may go to, the best of them chosen after writes are held; or an outcome. */
export type SwitchoverChoice = { readonly candidates: readonly string[] } | SwitchoverOutcome;

/**
 * Whether the request can be carried out now and to which members. The member-specific refusals come first, so a
 * refusal names the member's own problem: not a member (`MemberNotFound`), already the primary (`AlreadyPrimary`,
 * True: nothing to do), not a replica linked to the primary (`MemberNotLinked`), no data while the primary has some
 * (`MemberLagging`). Then the whole topology must be converged (`TopologyNotConverged`). `best` may go to any linked
 * replica, and only to those with data when the primary has data (`NoLinkedReplica` when none). Pure.
 */
export function chooseSwitchover(request: SwitchoverRequest, situation: SwitchoverSituation): SwitchoverChoice {
  const primary = situation.members.find((m) => m.pod === situation.primary && m.role === 'primary');
  const primaryHasData = primary?.holdsData ?? false;
  const eligible = (m: SwitchoverMember): boolean => m.role === 'replica' && m.linkUp && (m.holdsData || !primaryHasData);
  if (request.to === 'member') {
    const member = situation.members.find((m) => m.pod === request.pod);
    if (member === undefined) return refused(SWITCHOVER_REASONS.memberNotFound, `${request.pod} is not a member (members: ${situation.members.map((m) => m.pod).join(', ')})`);
    if (member.pod === situation.primary) return { status: 'True', reason: SWITCHOVER_REASONS.alreadyPrimary, message: `${member.pod} is already the primary; nothing was done` };
    if (member.role !== 'replica' || !member.linkUp) {
      return refused(SWITCHOVER_REASONS.memberNotLinked, `${member.pod} is not a replica linked to the primary ${situation.primary ?? '(none)'} (it reports role ${member.role}, link ${member.linkUp ? 'up' : 'down'})`);
    }
    if (!eligible(member)) return refused(SWITCHOVER_REASONS.memberLagging, `${member.pod} holds no data while the primary ${situation.primary ?? ''} does: promoting it would lose it`);
  }
  if (!situation.converged || primary === undefined) return refused(SWITCHOVER_REASONS.notConverged, `the topology is not converged: ${situation.notConvergedWhy}`);
  if (request.to === 'member') return { candidates: [request.pod] };
  const candidates = situation.members.filter(eligible).map((m) => m.pod);
  if (candidates.length === 0) return refused(SWITCHOVER_REASONS.noLinkedReplica, `no replica is linked to the primary ${primary.pod} with its data`);
  return { candidates };
}

/**
 * After the primary's writes are held: the refusal when the member chosen to be promoted has not reached the offset
 * the primary had once its writes were held (`undefined` when it has: every write the primary acknowledged is on it).
 * An unknown offset is a refusal too: nothing proves the member caught up. Pure.
 */
export function fencedLag(pod: string, memberOffset: number | undefined, primaryOffset: number | undefined): SwitchoverOutcome | undefined {
  if (memberOffset !== undefined && primaryOffset !== undefined && memberOffset >= primaryOffset) return undefined;
  const have = memberOffset === undefined ? 'an unknown offset' : `offset ${memberOffset}`;
  const want = primaryOffset === undefined ? "the primary's (which could not be read)" : String(primaryOffset);
  return refused(SWITCHOVER_REASONS.memberLagging, `${pod} reached ${have} of ${want} with the primary's writes held: promoting it would lose acknowledged writes; the primary keeps its role`);
}

function refused(reason: string, message: string): SwitchoverOutcome {
  return { status: 'False', reason, message };
}
