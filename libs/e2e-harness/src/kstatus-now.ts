import type { KubernetesObject } from '@kubernetes/client-node';
import { requestFor } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { kstatus } from '@domain-operators/testenv';
import type { KstatusStatus } from '@domain-operators/testenv';

/**
 * Reads each of `objects` from the apiserver now and runs the real kstatus over them (Flux's and kpt's reading).
 * Resolves to one line per object, `<Kind> <namespace>/<name>: <verdict>` (the name alone when cluster-scoped), and
 * to the lines whose verdict is not `want` with kstatus' message after ` - `, for an assertion that shows what is off.
 */
export async function kstatusNow(
  client: Client,
  objects: readonly KubernetesObject[],
  typeOf: (object: KubernetesObject) => ResourceType,
  want: KstatusStatus,
): Promise<{ readonly all: readonly string[]; readonly others: readonly string[] }> {
  const live = await Promise.all(objects.map((object) => client.get(typeOf(object), requestFor(object))));
  const verdicts = await kstatus(live);
  const line = (i: number, withMessage: boolean): string => {
    const object = live[i];
    const verdict = verdicts[i];
    const namespace = object?.metadata?.namespace;
    const where = namespace === undefined || namespace === '' ? (object?.metadata?.name ?? '?') : `${namespace}/${object?.metadata?.name ?? '?'}`;
    return `${object?.kind ?? '?'} ${where}: ${verdict?.status ?? '?'}${withMessage ? ` - ${verdict?.message ?? ''}` : ''}`;
  };
  return {
    all: live.map((_, i) => line(i, false)),
    others: live.flatMap((_, i) => (verdicts[i]?.status === want ? [] : [line(i, true)])),
  };
}
