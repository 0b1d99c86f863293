/**
 * Rolling a configuration or image change through the members with the StatefulSet's own RollingUpdate, steered by
 * its `partition` so that the StatefulSet controller never replaces the primary: only Pods with an ordinal above the
 * primary's are replaced; once they are current, the primary role is handed to one of them (a switchover), and the
 * partition drops to 0 for the rest. The operator needs no permission to delete Pods. Pure.
 */
import type { MemberPod } from './members.ts';

/** The label the StatefulSet controller puts on each Pod: the revision of the template it was created from. */
export const REVISION_LABEL = 'controller-revision-hash';

/** Inputs of {@link rolloutPlan}. */
export interface RolloutInput {
  /**
   * `status.updateRevision` of the StatefulSet when the cached StatefulSet is the desired one and its controller has
   * seen it; `undefined` otherwise (e.g. while the template is being changed by this very reconcile).
   */
  readonly updateRevision: string | undefined;
  readonly members: readonly MemberPod[];
  readonly primary: string | undefined;
  /** The topology is converged, every member present and linked: the only state a switchover starts from. */
  readonly converged: boolean;
}

/** What to apply and whether to hand the primary role over now. */
export interface RolloutPlan {
  /** `spec.updateStrategy.rollingUpdate.partition` of the StatefulSet. */
  readonly partition: number;
  /** When set: switch over now, to the best of these members. */
  readonly switchoverTo?: readonly string[];
}

function isCurrent(member: MemberPod, revision: string | undefined): boolean {
  return revision !== undefined && member.pod.metadata?.labels?.[REVISION_LABEL] === revision;
}

/**
 * The partition protects the primary unless it is known to be current: ordinals above it may be replaced. When
 * everything above it is current and the topology converged, the primary role goes to the best current member above
 * it; with nothing above it, to the best other member (which moves the partition down, so the old primary is then
 * replaced as a replica; a second switchover may follow). Pure and deterministic.
 */
export function rolloutPlan(input: RolloutInput): RolloutPlan {
  const primary = input.members.find((m) => m.name === input.primary);
  if (primary === undefined || isCurrent(primary, input.updateRevision)) return { partition: 0 };
  const partition = primary.ordinal + 1;
  if (input.updateRevision === undefined || !input.converged) return { partition };
  const above = input.members.filter((m) => m.ordinal > primary.ordinal);
  if (above.length === 0) {
    const others = input.members.filter((m) => m !== primary).map((m) => m.name);
    return others.length === 0 ? { partition: 0 } : { partition, switchoverTo: others };
  }
  if (!above.every((m) => isCurrent(m, input.updateRevision))) return { partition };
  return { partition, switchoverTo: above.map((m) => m.name) };
}

/**
 * The members (by Pod name, in the order given) that do not run the StatefulSet's update revision yet: all of them
 * while `updateRevision` is unknown (the StatefulSet controller has not taken the desired template). A spec change
 * that reaches the Pod template is applied only once this is empty. Pure.
 */
export function outdatedMembers(updateRevision: string | undefined, members: readonly MemberPod[]): string[] {
  return members.filter((m) => !isCurrent(m, updateRevision)).map((m) => m.name);
}
