import type { KubernetesObject } from '@kubernetes/client-node';
import type { Condition } from '../core/conditions.ts';
import { RECONCILING_CONDITION, STALLED_CONDITION } from '../core/conditions.ts';

/** kstatus' verdicts that its generic rules can give a custom resource. */
export type KstatusVerdict = 'Terminating' | 'InProgress' | 'Failed' | 'Current';

/**
 * kstatus' generic rules for a custom resource (sigs.k8s.io/cli-utils `status.Compute` for a kind it has no special
 * rules for), for unit tests on virtual time: deleting → `Terminating`; `status.observedGeneration` present and not
 * `metadata.generation` → `InProgress`; `Reconciling=True` → `InProgress`; `Stalled=True` → `Failed`; else `Current`.
 * The e2e suites run the real library (`kstatus` in @domain-operators/e2e-harness); this is only its reading. Pure.
 */
export function kstatusVerdict(object: KubernetesObject): KstatusVerdict {
  if (object.metadata?.deletionTimestamp != null) return 'Terminating';
  const status = (object as { readonly status?: { readonly observedGeneration?: number; readonly conditions?: readonly Condition[] } }).status;
  const generation = object.metadata?.generation;
  if (generation !== undefined && status?.observedGeneration !== undefined && status.observedGeneration !== generation) return 'InProgress';
  for (const condition of status?.conditions ?? []) {
    if (condition.type === RECONCILING_CONDITION && condition.status === 'True') return 'InProgress';
    if (condition.type === STALLED_CONDITION && condition.status === 'True') return 'Failed';
  }
  return 'Current';
}
