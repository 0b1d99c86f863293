import { KubeConfig } from '@kubernetes/client-node';
import { coreTypes, HttpsRestTransport } from '@domain-operators/reconcile';
import type { RestTransport } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorProcess } from './operator-handle.ts';
import type { OperatorSystem } from './system.ts';
import { startOperator } from './start-operator.ts';
import { adminClient } from './cluster.ts';

/** One resource-attribute check of a SelfSubjectAccessReview. */
export interface AccessCheck {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace?: string;
}

/** What {@link operatorSmokeSuite} checks for one operator. */
export interface SmokeSuiteOptions {
  readonly system: OperatorSystem;
  /** Something the chart's RBAC must allow, e.g. watching the operator's own kind. */
  readonly allowed: AccessCheck;
  /** Something the chart's RBAC must not allow. */
  readonly denied: AccessCheck;
}

/**
 * Declares the smoke suite every operator's e2e project runs (call it at the top level of a `*.e2e.spec.ts` file):
 * the operator starts as its chart's ServiceAccount (a TokenRequest token and the chart's RBAC, nothing more) against
 * the real apiserver, syncs its caches and reports ready, holds exactly the chart's RBAC (its own Leases, not other
 * namespaces'), runs as the chart's Pod from its image (unless in process mode), serves controller-runtime metrics,
 * logs no authorization failure, and exits 0 on SIGTERM.
 */
export function operatorSmokeSuite(options: SmokeSuiteOptions): void {
  let started: OperatorProcess | undefined;
  let asOperator: RestTransport | undefined;

  const operator = (): OperatorProcess => {
    if (started === undefined) throw new Error('the operator did not start');
    return started;
  };
  const allowed = async (check: AccessCheck): Promise<boolean> => {
    if (asOperator === undefined) throw new Error('the operator did not start');
    const { verb, ...resource } = check;
    const review = (await asOperator.json({
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb, ...resource } } },
    })) as { status?: { allowed?: boolean } };
    return review.status?.allowed === true;
  };

  beforeAll(async () => {
    started = await startOperator({ system: options.system });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(started.kubeconfigPath);
    asOperator = await HttpsRestTransport.create(kubeConfig);
  });

  afterAll(async () => {
    await started?.stop();
  });

  describe(`${options.system} operator smoke`, () => {
    it('is ready, with healthy caches', async () => {
      expect(await operator().readyz()).toMatchObject({ status: 200 });
    });

    it("is authenticated as the chart's ServiceAccount and holds exactly the chart's RBAC", async () => {
      if (asOperator === undefined) throw new Error('the operator did not start');
      const review = (await asOperator.json({
        method: 'POST',
        path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      })) as { status?: { userInfo?: { username?: string } } };
      expect(review.status?.userInfo?.username).toBe(`system:serviceaccount:${operator().namespace}:${operator().serviceAccount}`);
      expect(await allowed(options.allowed)).toBe(true);
      expect(await allowed({ verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: operator().namespace })).toBe(true);
      expect(await allowed(options.denied)).toBe(false);
      expect(await allowed({ verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: 'default' })).toBe(false);
    });

    it.skipIf(process.env['E2E_OPERATOR_MODE'] === 'process')("runs as the chart's Pod: its image, its ServiceAccount, Running and Ready", async () => {
      const deployment = operator().installation.deployment;
      const container = deployment.spec?.template.spec?.containers.find((c) => c.name === 'operator');
      const selector = Object.entries(deployment.spec?.selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
      const pods = (await (await adminClient()).list(coreTypes.pod, { namespace: operator().namespace, labelSelector: selector })).items;
      expect(pods.length).toBeGreaterThan(0);
      for (const pod of pods) {
        expect(pod.spec?.serviceAccountName).toBe(operator().serviceAccount);
        const status = pod.status?.containerStatuses?.find((c) => c.name === 'operator');
        expect(status?.image).toBe(container?.image);
        expect(status?.imageID).toMatch(/sha256:[0-9a-f]{64}$/);
        expect(status?.ready).toBe(true);
        expect(pod.status?.phase).toBe('Running');
      }
    });

    it('serves controller-runtime metrics', async () => {
      expect(await operator().metricsText()).toContain('controller_runtime_');
    });

    it('logged no authorization failure', async () => {
      // A namespace being deleted refuses new objects with a 403 too ("unable to create new content in namespace …
      // because it is being terminated"): an Event about a resource of an earlier test's namespace may meet it.
      // That is not a missing permission.
      const refusals = (await operator().logTail(500)).split('\n').filter((line) => /forbidden/i.test(line) && !line.includes('because it is being terminated'));
      expect(refusals).toEqual([]);
    });

    it('shuts down gracefully on SIGTERM', async () => {
      expect(await operator().kill('SIGTERM')).toEqual({ code: 0, signal: null });
    });
  });
}
