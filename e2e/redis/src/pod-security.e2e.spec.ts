// Pod Security admission on the operator's namespace: the harness creates the release namespace (by default
// `redis-operator-system`; here a fresh one, so that suites running operators at the same time do not share a release)
// with Pod Security `restricted` enforced, and the real apiserver's admission then refuses what that level forbids.
// The operator's own Pod, from the chart, runs there.
import type { V1Pod } from '@kubernetes/client-node';
import { randomSuffix, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, isForbidden } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cluster } from './fixtures.ts';
import type { Cluster } from './fixtures.ts';

let c: Cluster;
let operator: OperatorProcess | undefined;

/** A Pod that Pod Security `baseline` and `restricted` both forbid. */
function privilegedPod(namespace: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace, name: 'privileged' },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'shell', image: 'busybox', imagePullPolicy: 'Never', command: ['true'], securityContext: { privileged: true } }],
    },
  };
}

beforeAll(async () => {
  c = await cluster();
  const namespace = `e2e-redis-psa-${randomSuffix()}`;
  // Watches only its own namespace: this suite needs the release, not the reconciles.
  operator = await startOperator({ system: 'redis', releaseNamespace: namespace, values: { watchNamespaces: [namespace] } });
});

afterAll(async () => {
  await operator?.stop();
});

describe('Pod Security admission in the operator namespace', () => {
  it('is enforced at restricted: the operator Pod runs there, a privileged Pod is refused with the Pod Security message', async () => {
    const namespace = operator?.namespace ?? '';
    const labels = (await c.client.get(coreTypes.namespace, { namespace: undefined, name: namespace })).metadata?.labels ?? {};
    expect(labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
    const pods = await c.client.list(coreTypes.pod, { namespace });
    expect(pods.items.some((p) => p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'))).toBe(true);

    const refusal = await c.client.create(coreTypes.pod, privilegedPod(namespace)).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isForbidden(refusal)).toBe(true);
    expect(refusal instanceof Error ? refusal.message : String(refusal)).toContain(
      'pods "privileged" is forbidden: violates PodSecurity "restricted:latest": privileged (container "shell" must not set securityContext.privileged=true)',
    );
    expect((await c.client.list(coreTypes.pod, { namespace })).items.map((p) => p.metadata?.name)).not.toContain('privileged');
  });
});
