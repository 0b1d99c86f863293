import { KubeConfig } from '@kubernetes/client-node';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { Client, coreTypes, HttpsRestTransport, isForbidden, isNotFound, resourceType } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminConnection, randomSuffix } from './cluster.ts';
import type { AdminConnection } from './cluster.ts';
import { installChartForProcess, uninstallChartForProcess } from './install.ts';
import type { ChartInstallation } from './install.ts';
import { clusterEndpoint, renderTokenKubeconfig, requestServiceAccountToken } from './kubeconfig.ts';
import { typeOfManifest } from './manifests.ts';
import { OPERATOR_SYSTEMS } from './system.ts';

// (b) and (c) of startOperator against the real apiserver: the chart's CRDs and RBAC installed as admin, a
// TokenRequest token for its ServiceAccount, and a kubeconfig with that token that has exactly the chart's rights.

let admin: AdminConnection;

beforeAll(async () => {
  admin = await adminConnection();
});

describe.each(OPERATOR_SYSTEMS)('the %s chart installed for a local operator process', (system) => {
  let installation: ChartInstallation;
  let asOperator: Client;

  beforeAll(async () => {
    const suffix = randomSuffix();
    installation = await installChartForProcess(admin.client, { system, releaseName: `e2e-${suffix}`, namespace: `e2e-harness-${suffix}` });
    const token = await requestServiceAccountToken(admin.rest, { namespace: installation.namespace, serviceAccount: installation.serviceAccount });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(renderTokenKubeconfig({ ...clusterEndpoint(admin.kubeConfig), token, namespace: installation.namespace, name: 'operator' }));
    asOperator = new Client({ rest: await HttpsRestTransport.create(kubeConfig) });
  });

  afterAll(async () => {
    await uninstallChartForProcess(admin.client, installation);
  });

  it('applies the CRDs, ServiceAccount and RBAC, and nothing that would run a pod', async () => {
    expect(new Set(installation.installed.map((o) => o.kind))).toEqual(new Set(['CustomResourceDefinition', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']));
    for (const object of installation.installed) {
      await expect(admin.client.get(typeOfManifest(object), { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' })).resolves.toBeDefined();
    }
    const deployments = resourceType({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true });
    expect((await admin.client.list(deployments, { namespace: installation.namespace })).items).toEqual([]);
  });

  it("gives the token exactly the chart's rights: its kinds everywhere, no ServiceAccounts, Leases only in its namespace", async () => {
    const crds = installation.installed.filter((o): o is V1CustomResourceDefinition => o.kind === 'CustomResourceDefinition');
    expect(crds.length).toBeGreaterThan(0);
    for (const crd of crds) {
      const type = resourceType({
        group: crd.spec.group,
        version: crd.spec.versions[0]?.name ?? '',
        kind: crd.spec.names.kind,
        plural: crd.spec.names.plural,
        namespaced: crd.spec.scope === 'Namespaced',
      });
      await expect(asOperator.list(type, { limit: 1 })).resolves.toHaveProperty('items');
    }
    await expect(asOperator.list(coreTypes.serviceAccount, { namespace: 'kube-system' })).rejects.toSatisfy(isForbidden);
    await expect(
      asOperator.create(coreTypes.lease, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'probe', namespace: installation.namespace } }, { dryRun: true }),
    ).resolves.toMatchObject({ kind: 'Lease' });
    await expect(
      asOperator.create(coreTypes.lease, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'probe', namespace: 'default' } }, { dryRun: true }),
    ).rejects.toSatisfy(isForbidden);
  });

  it('uninstalls the RBAC and the namespace it created, and keeps the CRDs', async () => {
    const other = await installChartForProcess(admin.client, { system, releaseName: `e2e-${randomSuffix()}`, namespace: `e2e-harness-${randomSuffix()}` });
    await uninstallChartForProcess(admin.client, other);
    const clusterRole = other.installed.find((o) => o.kind === 'ClusterRole');
    if (clusterRole === undefined) throw new Error('no ClusterRole');
    await expect(admin.client.get(typeOfManifest(clusterRole), { namespace: undefined, name: clusterRole.metadata?.name ?? '' })).rejects.toSatisfy(isNotFound);
    const namespace = await admin.client.reader(coreTypes.namespace).get({ namespace: undefined, name: other.namespace });
    expect(namespace === undefined || namespace.metadata?.deletionTimestamp !== undefined).toBe(true);
    const crd = other.installed.find((o) => o.kind === 'CustomResourceDefinition');
    await expect(admin.client.get(coreTypes.customResourceDefinition, { namespace: undefined, name: crd?.metadata?.name ?? '' })).resolves.toBeDefined();
  });
});
