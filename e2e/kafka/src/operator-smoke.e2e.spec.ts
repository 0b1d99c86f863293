import { KubeConfig } from '@kubernetes/client-node';
import { HttpsRestTransport } from '@domain-operators/reconcile';
import type { RestTransport } from '@domain-operators/reconcile';
import { startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Smoke: the kafka operator starts as its chart's ServiceAccount (a TokenRequest token and the chart's RBAC, nothing
// more) against the real apiserver, syncs its caches and reports ready.

let started: OperatorProcess | undefined;
let asOperator: RestTransport;

/** The operator started in beforeAll (which fails the suite when it cannot start). */
function operatorUnderTest(): OperatorProcess {
  if (started === undefined) throw new Error('the operator did not start');
  return started;
}

beforeAll(async () => {
  started = await startOperator({ system: 'kafka' });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(started.kubeconfigPath);
  asOperator = await HttpsRestTransport.create(kubeConfig);
});

afterAll(async () => {
  await started?.stop();
});

async function allowed(verb: string, resource: { group: string; resource: string; namespace?: string }): Promise<boolean> {
  const review = (await asOperator.json({
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb, ...resource } } },
  })) as { status?: { allowed?: boolean } };
  return review.status?.allowed === true;
}

describe('kafka operator smoke', () => {
  it('is ready, with healthy caches', async () => {
    expect(await operatorUnderTest().readyz()).toMatchObject({ status: 200 });
  });

  it("is authenticated as the chart's ServiceAccount and holds exactly the chart's RBAC", async () => {
    const review = (await asOperator.json({
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    })) as { status?: { userInfo?: { username?: string } } };
    const operator = operatorUnderTest();
    expect(review.status?.userInfo?.username).toBe(`system:serviceaccount:${operator.namespace}:${operator.serviceAccount}`);
    expect(await allowed('watch', { group: 'kafka.domain-operators.io', resource: 'kafkatopics' })).toBe(true);
    expect(await allowed('update', { group: 'coordination.k8s.io', resource: 'leases', namespace: operator.namespace })).toBe(true);
    expect(await allowed('list', { group: '', resource: 'configmaps' })).toBe(false);
    expect(await allowed('update', { group: 'coordination.k8s.io', resource: 'leases', namespace: 'default' })).toBe(false);
  });

  it('serves controller-runtime metrics', async () => {
    expect(await operatorUnderTest().metricsText()).toContain('controller_runtime_');
  });

  it('logged no authorization failure', async () => {
    expect(await operatorUnderTest().logTail(500)).not.toMatch(/forbidden/i);
  });

  it('shuts down gracefully on SIGTERM', async () => {
    expect(await operatorUnderTest().kill('SIGTERM')).toEqual({ code: 0, signal: null });
  });
});
