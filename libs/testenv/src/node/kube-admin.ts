import { CoreV1Api, KubeConfig, KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import type { KubernetesObject, V1Node } from '@kubernetes/client-node';

/** The field manager of everything the node applies (add-ons). */
export const NODE_FIELD_MANAGER = 'testenv-node';

/** The few apiserver calls the node component makes, as admin. */
export interface NodeKube {
  /** The Node object, or `undefined` while it is not registered. */
  readNode(name: string): Promise<V1Node | undefined>;
  /** Server-side apply of each object, forced, in order. */
  apply(objects: readonly KubernetesObject[]): Promise<void>;
  /** Ready replicas of a Deployment, or 0 when it does not exist yet. */
  readyReplicas(namespace: string, name: string): Promise<number>;
}

/** {@link NodeKube} for the cluster of `kubeconfigFile`. */
export function nodeKube(kubeconfigFile: string): NodeKube {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfigFile);
  const core = config.makeApiClient(CoreV1Api);
  const objects = KubernetesObjectApi.makeApiClient(config);
  return {
    async readNode(name) {
      try {
        return await core.readNode({ name });
      } catch {
        return undefined;
      }
    },
    async apply(list) {
      for (const object of list) {
        await objects.patch(object, undefined, undefined, NODE_FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
      }
    },
    async readyReplicas(namespace, name) {
      try {
        const deployment = await objects.read<KubernetesObject & { status?: { readyReplicas?: number } }>({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { namespace, name },
        });
        return deployment.status?.readyReplicas ?? 0;
      } catch {
        return 0;
      }
    },
  };
}

/** True when the Node's `Ready` condition is `True`. Pure. */
export function nodeReady(node: V1Node | undefined): boolean {
  return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}
