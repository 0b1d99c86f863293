// The node against the real host: a node killed the way a SIGKILLed `up` leaves it (kubelet, containerd and
// kube-proxy gone, shims, containers, volume mounts, network namespaces, cgroups and chains still there) is swept
// clean by `down`, and comes back with `up`.
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ComponentContext } from '../component.ts';
import { ensureTestEnv } from '../ensure.ts';
import { resolvePaths } from '../paths.ts';
import { nodeHostLayout } from './host-layout.ts';
import { nodeComponent } from './node.ts';
import { runningPid } from '../process.ts';

const ctx: ComponentContext = { paths: resolvePaths(), progress: () => undefined };

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('the node on the real host', () => {
  it('leaves nothing behind after a crash and a down, and comes back', async () => {
    const env = await ensureTestEnv(['apiserver']);
    const config = new KubeConfig();
    config.loadFromFile(env.apiserver.kubeconfig);
    const core = config.makeApiClient(CoreV1Api);
    const namespace = `node-sweep-${Date.now().toString(36)}`;
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedSecret({ namespace, body: { metadata: { name: 's' }, stringData: { k: 'v' } } });
    await core.createNamespacedPod({
      namespace,
      body: {
        metadata: { name: 'sleeper' },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'c', image: env.node?.redisImage ?? '', imagePullPolicy: 'Never', command: ['sleep', '3600'], volumeMounts: [{ name: 's', mountPath: '/s' }, { name: 'e', mountPath: '/e' }] }],
          volumes: [{ name: 's', secret: { secretName: 's' } }, { name: 'e', emptyDir: { medium: 'Memory' } }],
        },
      },
    });
    const running = async (): Promise<boolean> => (await core.readNamespacedPod({ namespace, name: 'sleeper' })).status?.phase === 'Running';
    await waitFor(running, 'the Pod Running');

    // What a SIGKILLed `up` (or a killed machine session) leaves: the daemons die, everything they made stays.
    for (const pidFile of Object.values(nodeHostLayout().pidFiles)) {
      const pid = await runningPid(pidFile);
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    }
    const before = await nodeComponent.leftovers(ctx, { network: false });
    expect(before.some((line) => line.startsWith('mount '))).toBe(true);
    expect(before.some((line) => line.includes('cgroups under'))).toBe(true);
    expect(before.some((line) => line.includes('chain KUBE-'))).toBe(true);

    await nodeComponent.down(ctx, { network: false });
    expect(await nodeComponent.leftovers(ctx, { network: false })).toEqual([]);

    // `up` brings the node back, and the kubelet runs the Pod the apiserver still has.
    await ensureTestEnv(['apiserver']);
    await waitFor(running, 'the Pod Running again on the new node');
    await core.deleteNamespace({ name: namespace });
  }, 300_000);
});
