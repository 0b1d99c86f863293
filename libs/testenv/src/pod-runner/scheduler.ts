import type { V1Pod } from '@kubernetes/client-node';
import type { Kube } from './kube.ts';
import { NODE_NAME } from './layout.ts';

/** What the scheduler does with a pod. */
export type SchedulingDecision = 'bind' | 'ignore' | 'unschedulable';

/**
 * Whether the runner, acting as `default-scheduler`, binds `pod` to the node: yes for live, unbound pods of the
 * default scheduler whose `nodeSelector` the node's labels satisfy; `unschedulable` when the selector does not
 * match. Affinity, taints and resources are not considered (one node takes everything). Pure.
 */
export function schedulingDecision(pod: V1Pod, nodeLabels: Readonly<Record<string, string>>): SchedulingDecision {
  const spec = pod.spec;
  if (spec === undefined || (spec.nodeName ?? '') !== '' || pod.metadata?.deletionTimestamp !== undefined) return 'ignore';
  if ((spec.schedulerName ?? 'default-scheduler') !== 'default-scheduler') return 'ignore';
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return 'ignore';
  const selector = spec.nodeSelector ?? {};
  return Object.entries(selector).every(([k, v]) => nodeLabels[k] === v) ? 'bind' : 'unschedulable';
}

/** Binds `pod` to the node through the `pods/binding` subresource (which also sets PodScheduled). */
export async function bindPod(kube: Kube, pod: V1Pod): Promise<void> {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? 'default';
  await kube.core.createNamespacedPodBinding({
    name,
    namespace,
    body: {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name, namespace, ...(pod.metadata?.uid === undefined ? {} : { uid: pod.metadata.uid }) },
      target: { apiVersion: 'v1', kind: 'Node', name: NODE_NAME },
    },
  });
}
