import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject, V1ClusterRole, V1Deployment, V1Role, V1PolicyRule } from '@kubernetes/client-node';
import { parseManagerOptions } from '@domain-operators/reconcile';
import { operatorContainer, singleOfKind } from '@domain-operators/e2e-harness';
import { describe, expect, it } from 'vitest';
import { CHARTS, exampleValuesFiles } from './chart-files.ts';
import { renderChart } from './render.ts';
import { undocumentedValues } from './values-docs.ts';

const deploymentOf = (objects: readonly KubernetesObject[]): V1Deployment => singleOfKind(objects, 'Deployment');

/** The ClusterRole each chart must render: exactly these rules, in this order. */
const EXPECTED_RULES: Readonly<Record<string, readonly V1PolicyRule[]>> = {
  kafka: [
    ...customResourceRules('kafka.domain-operators.io', ['kafkaconnections', 'kafkatopics', 'kafkausers']),
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
    { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
  ],
  opensearch: [
    ...customResourceRules('opensearch.domain-operators.io', [
      'opensearchconnections',
      'opensearchindices',
      'opensearchindextemplates',
      'opensearchcomponenttemplates',
      'opensearchroles',
      'opensearchrolebindings',
      'opensearchusers',
      'opensearchactiongroups',
      'opensearchtenants',
      'opensearchdatastreams',
      'opensearchsnapshotrepositories',
      'opensearchsnapshotpolicies',
      'opensearchsnapshotrestores',
    ]),
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
    { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
  ],
  redis: [
    ...customResourceRules('redis.domain-operators.io', ['redisreplications', 'redisusers', 'redisbackups']),
    { apiGroups: ['redis.domain-operators.io'], resources: ['redisbackups'], verbs: ['create', 'delete'] },
    { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
    { apiGroups: [''], resources: ['services', 'configmaps', 'secrets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] },
    { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get'] },
    { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
    { apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] },
  ],
};

const LEASE_RULE: V1PolicyRule = { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] };

/** The Role in the release namespace: the Lease, and what an operator keeps there of its own (Kafka: the claims ledger). */
const EXPECTED_NAMESPACED_RULES: Readonly<Record<string, readonly V1PolicyRule[]>> = {
  kafka: [
    LEASE_RULE,
    { apiGroups: [''], resources: ['configmaps'], verbs: ['create'] },
    { apiGroups: [''], resources: ['configmaps'], resourceNames: ['kafka-operator-create-claims'], verbs: ['get', 'update'] },
  ],
  opensearch: [LEASE_RULE],
  redis: [LEASE_RULE],
};

function customResourceRules(group: string, plurals: readonly string[]): V1PolicyRule[] {
  return [
    { apiGroups: [group], resources: [...plurals], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
    { apiGroups: [group], resources: plurals.map((p) => `${p}/status`), verbs: ['get', 'update', 'patch'] },
    { apiGroups: [group], resources: plurals.map((p) => `${p}/finalizers`), verbs: ['update'] },
  ];
}

describe.each(CHARTS)('chart $name', (chart) => {
  it('renders the operator objects and nothing optional by default', async () => {
    // Distinct kinds: a chart may ship several admission policies (the OpenSearch chart has one per rule set).
    const kinds = [...new Set((await renderChart(chart)).map((o) => o.kind))].sort();
    // A chart that ships admission policies (issue #20) has them on by default.
    const admission = existsSync(join(chart.dir, 'templates/admission-policies.yaml')) ? ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'] : [];
    expect(kinds).toEqual(['ClusterRole', 'ClusterRoleBinding', 'Deployment', 'Role', 'RoleBinding', 'Service', 'ServiceAccount', ...admission]);
  });

  it('runs the operator under Pod Security "restricted", with probes, resources and POD_NAMESPACE', async () => {
    const deployment = deploymentOf(await renderChart(chart));
    const pod = deployment.spec?.template.spec;
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532, seccompProfile: { type: 'RuntimeDefault' } });
    const container = operatorContainer(deployment);
    expect(container.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.image).toBe(`ghcr.io/domain-operators/${chart.name}:0.1.0`);
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'probes' });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'probes' });
    expect(container.ports).toEqual([
      { name: 'metrics', containerPort: 8080, protocol: 'TCP' },
      { name: 'probes', containerPort: 8081, protocol: 'TCP' },
    ]);
    expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(container.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(container.env).toContainEqual({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    expect(pod?.serviceAccountName).toBe(`r-${chart.name}`);
  });

  it("passes flags the operator's own parser accepts: one replica, no leader election, Recreate rollout", async () => {
    const deployment = deploymentOf(await renderChart(chart));
    const options = parseManagerOptions(operatorContainer(deployment).args ?? [], {}, { leaseName: 'lease' });
    expect(options).toMatchObject({
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      logLevel: 'info',
      maxConcurrentReconciles: 1,
      namespaces: [],
      leaderElection: { enabled: false },
    });
    expect(deployment.spec?.strategy?.type).toBe('Recreate');
  });

  it('turns leader election on in the release namespace when replicaCount > 1', async () => {
    const deployment = deploymentOf(await renderChart(chart, { namespace: 'operators', setJson: { replicaCount: 3, logLevel: 'debug', watchNamespaces: ['a', 'b'] } }));
    const options = parseManagerOptions(operatorContainer(deployment).args ?? [], {}, { leaseName: 'lease' });
    expect(options).toMatchObject({ logLevel: 'debug', namespaces: ['a', 'b'], leaderElection: { enabled: true, namespace: 'operators' } });
    expect(deployment.spec?.replicas).toBe(3);
    expect(deployment.spec?.strategy?.type).toBe('RollingUpdate');
  });

  it('grants exactly the listed permissions, never a wildcard', async () => {
    const objects = await renderChart(chart);
    const clusterRole: V1ClusterRole = singleOfKind(objects, 'ClusterRole');
    expect(clusterRole.rules).toEqual(EXPECTED_RULES[chart.system]);
    const role: V1Role = singleOfKind(objects, 'Role');
    expect(role.metadata?.namespace).toBe('ops');
    expect(role.rules).toEqual(EXPECTED_NAMESPACED_RULES[chart.system]);
    for (const rule of [...(clusterRole.rules ?? []), ...(role.rules ?? [])]) {
      expect([...rule.verbs, ...(rule.resources ?? []), ...(rule.apiGroups ?? [])]).not.toContain('*');
    }
  });

  it('binds both roles to the ServiceAccount in the release namespace', async () => {
    const objects = await renderChart(chart);
    const subject = { kind: 'ServiceAccount', name: `r-${chart.name}`, namespace: 'ops' };
    expect((singleOfKind(objects, 'ClusterRoleBinding') as unknown as { subjects: unknown[] }).subjects).toEqual([subject]);
    expect((singleOfKind(objects, 'RoleBinding') as unknown as { subjects: unknown[] }).subjects).toEqual([subject]);
  });

  it.each(exampleValuesFiles())('renders the PodDisruptionBudget and ServiceMonitor of %s', async (valuesFile) => {
    const objects = await renderChart(chart, { valuesFiles: [valuesFile] });
    expect(objects.map((o) => o.kind)).toEqual(expect.arrayContaining(['PodDisruptionBudget', 'ServiceMonitor']));
    const monitor = singleOfKind(objects, 'ServiceMonitor') as unknown as { spec: { endpoints: { port: string; path: string }[] } };
    expect(monitor.spec.endpoints[0]).toMatchObject({ port: 'metrics', path: '/metrics' });
  });

  it('documents every value in values.yaml with a "# --" comment', () => {
    expect(undocumentedValues(readFileSync(join(chart.dir, 'values.yaml'), 'utf8'))).toEqual([]);
  });

  it('shares its generic templates and schema with the other charts byte for byte', () => {
    const shared = ['templates/_helpers.tpl', 'templates/deployment.yaml', 'templates/serviceaccount.yaml', 'templates/clusterrolebinding.yaml', 'templates/leader-election-rbac.yaml', 'templates/service.yaml', 'templates/servicemonitor.yaml', 'templates/poddisruptionbudget.yaml', 'templates/grafana-dashboard.yaml', 'dashboards/operator.json', 'values.schema.json'];
    const reference = CHARTS[0];
    if (reference === undefined) throw new Error('no charts');
    for (const file of shared) {
      expect(readFileSync(join(chart.dir, file), 'utf8'), file).toBe(readFileSync(join(reference.dir, file), 'utf8'));
    }
  });
});
