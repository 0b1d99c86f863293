import { stat } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestEnv } from '@domain-operators/testenv';
import { auditEntries, WRITE_VERBS } from '../testing/audit-log.ts';
import { Client } from '../client/client.ts';
import { ControllerBuilder } from './controller.ts';
import { getCondition, isTrue } from '../core/conditions.ts';
import { Manager } from '../manager/manager.ts';
import { parseManagerOptions } from '../manager/manager-options.ts';
import { coreTypes, resourceType } from '../client/resource-type.ts';
import { HttpsRestTransport } from '../client/rest.ts';
import { Result } from '../core/result.ts';
import { patchStatusIfChanged } from '../status/status.ts';
import type { Gauge, LiveCluster } from '../testing/control-plane.ts';
import { deleteNamespace, eventually, freshNamespace, gaugeType, installGaugeCrd, liveCluster } from '../testing/control-plane.ts';

const RESOURCES = 100;
const WINDOW_MS = 60_000;
const roleType = resourceType({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true });
const roleBindingType = resourceType({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true });

/** A KubeConfig that authenticates as the ServiceAccount `name` in `namespace`, with a token from the TokenRequest API. */
async function serviceAccountConfig(cluster: LiveCluster, namespace: string, name: string): Promise<KubeConfig> {
  const env = await ensureTestEnv(['apiserver']);
  await cluster.client.create(coreTypes.serviceAccount, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
  await cluster.client.create(roleType, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name, namespace },
    rules: [
      { apiGroups: ['test.domain-operators.io'], resources: ['gauges'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['test.domain-operators.io'], resources: ['gauges/status'], verbs: ['patch'] },
    ],
  } as never);
  await cluster.client.create(roleBindingType, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{ kind: 'ServiceAccount', name, namespace }],
  } as never);
  const tokenRequest = (await cluster.client.create(
    resourceType({ group: '', version: 'v1', kind: 'TokenRequest', plural: `serviceaccounts/${name}/token`, namespaced: true }),
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { namespace }, spec: { expirationSeconds: 3600 } } as never,
  )) as unknown as { status: { token: string } };
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'testenv', server: env.apiserver.url, caFile: env.apiserver.caFile }],
    users: [{ name, token: tokenRequest.status.token }],
    contexts: [{ name, cluster: 'testenv', user: name, namespace }],
    currentContext: name,
  });
  return kubeConfig;
}

describe('steady state', () => {
  let cluster: LiveCluster;
  let namespace: string;

  beforeAll(async () => {
    cluster = await liveCluster();
    await installGaugeCrd(cluster);
    namespace = await freshNamespace(cluster, 'steady');
  });

  afterAll(async () => {
    await deleteNamespace(cluster, namespace);
  });

  it(`writes nothing to the apiserver for ${WINDOW_MS / 1000} s with ${RESOURCES} Ready resources, while reconciling them again and again`, async () => {
    const account = 'steady-operator';
    const kubeConfig = await serviceAccountConfig(cluster, namespace, account);
    const username = `system:serviceaccount:${namespace}:${account}`;
    const options = parseManagerOptions(['--metrics-bind-address', '0', '--health-probe-bind-address', '0', '--namespaces', namespace], {}, { leaseName: 'steady' });
    const manager = new Manager({ kubeConfig }, options);
    const client = new Client({ rest: await HttpsRestTransport.create(kubeConfig) });
    let reconciles = 0;
    manager.add(
      new ControllerBuilder({ informers: manager.informers }, 'gauges')
        .for(gaugeType)
        .withOptions({ ...manager.controllerOptions(), maxConcurrentReconciles: 4 })
        .complete({
          async reconcile(gauge: Gauge, ctx) {
            reconciles++;
            await patchStatusIfChanged(client, gaugeType, gauge, {
              conditions: [{ type: 'Ready', status: 'True', reason: 'Available', message: `level ${gauge.spec?.level ?? 0}` }],
              fields: { level: gauge.spec?.level ?? 0 },
            }, { signal: ctx.signal });
            // Re-check every 2 s (a drift check far more frequent than the 10-minute default) to prove that
            // reconciling an unchanged object writes nothing.
            return Result.requeueAfter(2_000);
          },
        }),
    );
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    try {
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < RESOURCES) {
            const i = next++;
            await cluster.client.create(gaugeType, { apiVersion: 'test.domain-operators.io/v1', kind: 'Gauge', metadata: { name: `g-${i}`, namespace }, spec: { level: i } });
          }
        }),
      );
      await eventually(
        async () => {
          const gauges = await cluster.client.listAll(gaugeType, { namespace });
          return gauges.length === RESOURCES && gauges.every((g) => isTrue(g.status?.conditions, 'Ready'));
        },
        60_000,
        'every Gauge Ready',
      );
      const auditLog = (await ensureTestEnv(['apiserver'])).apiserver.auditLog;
      const mine = (entry: { verb: string; user?: { username?: string } }): boolean => entry.user?.username === username && WRITE_VERBS.has(entry.verb);
      const writesBefore = (await auditEntries(auditLog, mine)).length;
      const sizeBefore = (await stat(auditLog)).size;
      const reconcilesBefore = reconciles;

      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));

      const writesAfter = (await auditEntries(auditLog, mine)).length;
      expect(writesBefore).toBeGreaterThanOrEqual(RESOURCES); // the status writes that made them Ready are counted
      expect((await stat(auditLog)).size).toBeGreaterThan(sizeBefore); // the audit log is live (the apiserver's own lease renewals)
      expect(reconciles - reconcilesBefore).toBeGreaterThan(RESOURCES * 10); // every resource reconciled many times
      expect(writesAfter - writesBefore).toBe(0);
      const sample = await cluster.client.get(gaugeType, { namespace, name: 'g-7' });
      expect(getCondition(sample.status?.conditions, 'Ready')?.reason).toBe('Available');
    } finally {
      stop.abort();
      await running;
    }
  }, 180_000);
});
