/**
 * Carrying out a topology plan from `decideTopology` against the members and the Pods' labels.
 */
import type { ReplicationClient } from './client.ts';
import type { MemberAddress, TopologyAction } from './topology.ts';
import type { RoleLabel } from './manifests.ts';

/** Sets the role label of a Pod (the reconciler patches the Pod; tests record it). */
export interface RoleLabeler {
  /** Sets `ROLE_LABEL` on `pod` to `role`. Idempotent. */
  setRole(pod: string, role: RoleLabel): Promise<void>;
}

/** Dependencies of {@link executePlan}. */
export interface ExecutePlanDeps {
  readonly client: Pick<ReplicationClient, 'replicaOf' | 'replicaOfNoOne'>;
  readonly labeler: RoleLabeler;
}

/**
 * Runs `actions` one after another, in order, and stops at the first failure by rethrowing it: the plan's order
 * is what keeps a single Pod labelled primary, so no later step may run after an earlier one failed. The next
 * reconcile observes again and plans from there. `addresses` maps every Pod named in a promote action to its
 * address; a missing one throws before anything is done.
 */
export async function executePlan(actions: readonly TopologyAction[], addresses: ReadonlyMap<string, MemberAddress>, deps: ExecutePlanDeps): Promise<void> {
  const addressOf = (pod: string): MemberAddress => {
    const address = addresses.get(pod);
    if (address === undefined) throw new Error(`no address for ${pod}`);
    return address;
  };
  for (const action of actions) {
    if (action.kind !== 'setRole') addressOf(action.pod);
  }
  for (const action of actions) {
    switch (action.kind) {
      case 'promote':
        await deps.client.replicaOfNoOne(addressOf(action.pod));
        break;
      case 'replicaOf':
        await deps.client.replicaOf(addressOf(action.pod), action.address);
        break;
      case 'setRole':
        await deps.labeler.setRole(action.pod, action.role);
        break;
    }
  }
}
