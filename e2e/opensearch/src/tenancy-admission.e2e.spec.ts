// Tenancy at admission (issue #20), as a team meets it: `kubectl apply` of an OpenSearch resource outside its
// namespace's rules (a name, a pattern, a backend role, a protected name, a namespace the connection does not select)
// is refused by the chart's ValidatingAdmissionPolicies, at server-side dry run and at real apply, with the operator's
// words and the connection that gives the prefix; the same objects inside the rules are admitted and the operator
// makes them Ready; with the chart's `admissionPolicies.validationActions: [Warn, Audit]` an object outside the rules
// is admitted with a warning, the operator still refuses it with TenancyViolation, and nothing reaches OpenSearch. The
// policies are the chart's, rendered by helm; their bindings are narrowed to this run's namespaces so that nothing
// else on the shared cluster is judged by them.
import { adminClient, adminKubeconfig, backendsUnderTest, eventually, freshNamespace, installChartAdmission, kstatusNow, kubectlApply, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { Applied, ChartAdmission, OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, isNotFound } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, namespacedKinds as KINDS, openSearchConnections, openSearchIndices, openSearchRoles, openSearchTenants, openSearchUsers, openSearchActionGroups, openSearchIndexTemplates } from './kinds.ts';
import type { Resource } from './kinds.ts';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchRequest } from './opensearch-http.ts';

const id = randomSuffix();
const connection = `e2e-osadm-${id}`;
const runLabel = { 'opensearch-admission-e2e': id };
const teamLabel = { 'opensearch-admission-e2e-team': id };
const SECURITY = '/_plugins/_security/api';

let client: Client;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;
let admission: ChartAdmission | undefined;
let kubeconfig: string;
let tenant: string;
let outsider: string;
let secretName = '';

const res = (kind: string, namespace: string, name: string, spec: Record<string, unknown>): Resource => ({
  apiVersion: API_VERSION,
  kind,
  metadata: { namespace, name },
  spec: { connectionRef: { name: connection }, ...spec },
});

/** The full name of the chart's policy `short` (e.g. `opensearch-index`), which is also its binding's. */
function policy(short: string): string {
  const name = admission?.names.find((n) => n.endsWith(`-${short}`));
  if (name === undefined) throw new Error(`the chart has no policy ${short}: ${admission?.names.join(', ') ?? ''}`);
  return name;
}

/** Waits until condition `type` of the object is `status` with `reason`, and returns its message. */
async function conditionMessage(type: ResourceType<Resource>, namespace: string, name: string, want: { type: string; status: string; reason: string }): Promise<string> {
  let last: Resource | undefined;
  return eventually(
    async () => {
      last = await client.get(type, { namespace, name });
      const found = last.status?.conditions?.find((c) => c.type === want.type);
      return found?.status === want.status && found.reason === want.reason ? found.message : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, what: `${type.kind} ${namespace}/${name} ${want.type}=${want.status} ${want.reason} (last: ${JSON.stringify(last?.status?.conditions ?? [])})` },
  );
}

const apply = (object: Resource, dryRun: boolean): Promise<Applied> => kubectlApply(kubeconfig, object, { dryRun });

/**
 * Waits until a server-side dry run of `object` is refused (`refused`) or admitted: each policy and binding, and each
 * change of a binding, reaches the apiserver's caches on its own, a few seconds after it is written.
 */
async function inEffect(object: Resource, refused: boolean): Promise<void> {
  await eventually(async () => ((await apply(object, true)).ok === !refused ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 250,
    what: `a dry run of ${object.kind ?? ''} ${object.metadata?.name ?? ''} ${refused ? 'refused' : 'admitted'}`,
  });
}

beforeAll(async () => {
  const backends = await backendsUnderTest(['opensearch']);
  os = openSearchRequests(backends.opensearch);
  client = await adminClient();
  kubeconfig = await adminKubeconfig();
  tenant = await freshNamespace({ ...runLabel, ...teamLabel }, 'e2e-osadm');
  outsider = await freshNamespace(runLabel, 'e2e-osadm-out');
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '5s' } });
  secretName = `opensearch-admin-${id}`;
  await client.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: operator.namespace, name: secretName },
    stringData: { username: backends.opensearch.adminUser.username, password: backends.opensearch.adminUser.password },
  });
  await client.create(openSearchConnections, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchConnection',
    metadata: { name: connection },
    spec: {
      urls: [backends.opensearch.url],
      credentialsSecretRef: { namespace: operator.namespace, name: secretName },
      tenancy: { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: teamLabel }, bindableRoles: ['readall'] },
    },
  });
  admission = await installChartAdmission({ client, system: 'opensearch', release: `adm-${id}`, namespaceLabels: runLabel });
  expect(admission.bindings.map((b) => b.spec['validationActions'])).toEqual(admission.names.map(() => ['Deny']));
  await waitForCondition(client, openSearchConnections, { namespace: undefined, name: connection }, 'Ready', 'True', 90_000);
}, 300_000);

afterAll(async () => {
  for (const namespace of [tenant, outsider]) {
    for (const type of KINDS) for (const item of await client.listAll(type, { namespace }).catch(() => [])) await client.delete(type, { namespace, name: item.metadata?.name ?? '' }).catch(() => undefined);
  }
  for (const type of KINDS) await eventually(async () => ((await client.listAll(type, { namespace: tenant })).length === 0 ? true : undefined), { timeoutMs: 60_000, what: `${type.plural} gone` }).catch(() => undefined);
  await operator?.stop();
  await admission?.remove();
  await client.delete(openSearchConnections, { namespace: undefined, name: connection }).catch(() => undefined);
  if (operator !== undefined) await client.delete(coreTypes.secret, { namespace: operator.namespace, name: secretName }).catch(() => undefined);
  for (const name of [tenant, outsider]) await client.delete(coreTypes.namespace, { namespace: undefined, name }).catch(() => undefined);
  // Retained indices and tenants, and anything a failed step left behind.
  await os('DELETE', `/${tenant}-*`).catch(() => undefined);
  for (const [collection, name] of [
    ['roles', `${tenant}-reader`],
    ['internalusers', `${tenant}-alice`],
    ['actiongroups', `${tenant}-mon`],
    ['tenants', `${tenant}-dash`],
  ] as const) {
    await os('DELETE', `${SECURITY}/${collection}/${name}`).catch(() => undefined);
  }
});

describe('OpenSearch tenancy at kubectl apply', () => {
  it('refuses, at server-side dry run and at real apply, each object outside the rules with the operator\u2019s words', async () => {
    const outside = `is outside the prefix "${tenant}-" that OpenSearchConnection "${connection}" gives namespace "${tenant}"`;
    const refusals: [string, Resource, string][] = [
      ['opensearch-index', res('OpenSearchIndex', tenant, 'logs', { indexName: 'team-b-logs' }), `index name "team-b-logs" ${outside}`],
      ['opensearch-index-template', res('OpenSearchIndexTemplate', tenant, 'logs', { indexPatterns: ['logs-*'] }), `indexPatterns[0] "logs-*" ${outside}`],
      ['opensearch-component-template', res('OpenSearchComponentTemplate', tenant, 'base', { templateName: 'shared-settings', template: {} }), `component template name "shared-settings" ${outside}`],
      ['opensearch-role', res('OpenSearchRole', tenant, 'reader', { indexPermissions: [{ indexPatterns: ['*'], allowedActions: ['read'] }] }), `indexPermissions[0].indexPatterns[0] "*" ${outside}`],
      [
        'opensearch-role',
        res('OpenSearchRole', tenant, 'reader', { tenantPermissions: [{ tenantPatterns: ['global_tenant'], allowedActions: ['kibana_all_write'] }] }),
        `tenantPermissions[0].tenantPatterns[0] "global_tenant" ${outside}`,
      ],
      ['opensearch-role', res('OpenSearchRole', tenant, 'root', { roleName: 'all_access' }), 'role "all_access" is a protected security object and is never modified'],
      ['opensearch-role-binding', res('OpenSearchRoleBinding', tenant, 'readers', { externalRole: 'readall', users: ['team-b-bob'] }), `users[0] "team-b-bob" ${outside}`],
      ['opensearch-user', res('OpenSearchUser', tenant, 'alice', { backendRoles: ['team-b-admins'] }), `backendRoles[0] "team-b-admins" ${outside}`],
      ['opensearch-user', res('OpenSearchUser', tenant, 'alice', { backendRoles: ['admin'] }), 'backend role "admin" is a protected security object and is never modified'],
      ['opensearch-action-group', res('OpenSearchActionGroup', tenant, 'mon', { type: 'cluster', allowedActions: ['cluster_all'] }), 'allowedActions[0] "cluster_all" is not allowed in a cluster action group of a namespace'],
      ['opensearch-tenant', res('OpenSearchTenant', tenant, 'dash', { name: 'global_tenant' }), `tenant name "global_tenant" ${outside}`],
      ['opensearch-data-stream', res('OpenSearchDataStream', tenant, 'events', { name: 'logs-app' }), `data stream name "logs-app" ${outside}`],
      ['opensearch-snapshot-policy', res('OpenSearchSnapshotPolicy', tenant, 'nightly', { repositoryRef: { name: 'backups' }, schedule: '0 2 * * *', indices: ['*'] }), `indices[0] "*" ${outside}`],
      ['opensearch-snapshot-restore', res('OpenSearchSnapshotRestore', tenant, 'drill', { repositoryRef: { name: 'backups' }, snapshot: 'nightly', indices: ['team-b-logs'] }), `indices[0] "team-b-logs" ${outside}`],
      ['opensearch-namespace-selected', res('OpenSearchIndex', outsider, 'logs', {}), `namespace "${outsider}" is not selected by OpenSearchConnection "${connection}" (tenancy.namespaceSelector)`],
    ];
    for (const [short, object, message] of refusals) {
      await inEffect(object, true);
      for (const dryRun of [true, false]) {
        const applied = await apply(object, dryRun);
        expect(applied.ok, applied.output).toBe(false);
        // What a person sees (the docs show one).
        if (dryRun) console.info(applied.output.trim());
        expect(applied.output).toContain(`ValidatingAdmissionPolicy '${policy(short)}' with binding '${policy(short)}' denied request: `);
        expect(applied.output).toContain(message);
      }
    }
    // Nothing was created, so nothing reached the operator either.
    for (const namespace of [tenant, outsider]) for (const type of KINDS) expect(await client.listAll(type, { namespace }), `${type.plural} in ${namespace}`).toEqual([]);
  });

  it('admits the same objects inside the rules, and the operator makes them Ready', async () => {
    const inside = [
      res('OpenSearchIndex', tenant, 'logs', {}),
      res('OpenSearchIndexTemplate', tenant, 'logs', { indexPatterns: [`${tenant}-logs-*`] }),
      res('OpenSearchComponentTemplate', tenant, 'base', { template: {} }),
      res('OpenSearchRole', tenant, 'reader', {
        indexPermissions: [{ indexPatterns: [`${tenant}-*`], allowedActions: ['read'] }],
        tenantPermissions: [{ tenantPatterns: [`${tenant}-dash`], allowedActions: ['kibana_all_write'] }],
      }),
      res('OpenSearchRoleBinding', tenant, 'readers', { externalRole: 'readall', users: [`${tenant}-alice`] }),
      res('OpenSearchUser', tenant, 'alice', { backendRoles: [`${tenant}-readers`] }),
      res('OpenSearchActionGroup', tenant, 'mon', { type: 'cluster', allowedActions: ['cluster_monitor'] }),
      res('OpenSearchTenant', tenant, 'dash', {}),
      res('OpenSearchDataStream', tenant, 'events', {}),
      res('OpenSearchSnapshotPolicy', tenant, 'nightly', { repositoryRef: { name: 'backups' }, schedule: '0 2 * * *', indices: [`${tenant}-*`] }),
      res('OpenSearchSnapshotRestore', tenant, 'drill', { repositoryRef: { name: 'backups' }, snapshot: 'nightly', indices: [`${tenant}-logs`] }),
    ];
    for (const object of inside) {
      const dry = await apply(object, true);
      expect(dry.ok, dry.output).toBe(true);
      const applied = await apply(object, false);
      expect(applied.ok, applied.output).toBe(true);
      expect(applied.output).not.toContain('Warning');
    }
    for (const [type, name] of [
      [openSearchIndices, 'logs'],
      [openSearchIndexTemplates, 'logs'],
      [openSearchRoles, 'reader'],
      [openSearchUsers, 'alice'],
      [openSearchActionGroups, 'mon'],
      [openSearchTenants, 'dash'],
    ] as const) {
      await waitForCondition(client, type, { namespace: tenant, name }, 'Ready', 'True', 90_000);
    }
    expect((await os('GET', `/${tenant}-logs`)).status).toBe(200);
    expect((await os('GET', `${SECURITY}/roles/${tenant}-reader`)).status).toBe(200);
  });

  it('with the chart on [Warn, Audit], admits with a warning, and the operator still refuses with TenancyViolation and writes nothing to OpenSearch', async () => {
    await admission?.setValidationActions(['Warn', 'Audit']);
    const stray = res('OpenSearchIndex', tenant, 'stray', { indexName: `stray-${id}` });
    const grabber = res('OpenSearchRole', tenant, 'grabber', { indexPermissions: [{ indexPatterns: ['team-b-*'], allowedActions: ['read'] }] });
    await inEffect(stray, false);
    await inEffect(grabber, false);
    const applied = await apply(stray, false);
    expect(applied.ok, applied.output).toBe(true);
    expect(applied.output).toContain(`Warning: Validation failed for ValidatingAdmissionPolicy '${policy('opensearch-index')}' with binding '${policy('opensearch-index')}': index name "stray-${id}" is outside the prefix "${tenant}-"`);
    const warned = await apply(grabber, false);
    expect(warned.ok, warned.output).toBe(true);
    expect(warned.output).toContain(`Warning: Validation failed for ValidatingAdmissionPolicy '${policy('opensearch-role')}' with binding '${policy('opensearch-role')}': indexPermissions[0].indexPatterns[0] "team-b-*" is outside the prefix`);

    expect(await conditionMessage(openSearchIndices, tenant, 'stray', { type: 'Synced', status: 'False', reason: 'TenancyViolation' })).toContain(`index name "stray-${id}" is outside the prefix "${tenant}-"`);
    expect(await conditionMessage(openSearchRoles, tenant, 'grabber', { type: 'Synced', status: 'False', reason: 'TenancyViolation' })).toContain(`indexPermissions[0].indexPatterns[0] "team-b-*" is outside the prefix "${tenant}-"`);
    expect((await os('GET', `/stray-${id}`)).status).toBe(404);
    expect((await os('GET', `${SECURITY}/roles/${tenant}-grabber`)).status).toBe(404);
    // A refusal that waits for a change: Failed for Flux and kpt at once, not InProgress until their timeout.
    expect((await kstatusNow(client, [stray, grabber], (o) => (o.kind === 'OpenSearchIndex' ? openSearchIndices : openSearchRoles), 'Failed')).others).toEqual([]);
  });

  it('back on [Deny], lets a label change and the deletion of an object admitted under Warn through, and refuses a change of its spec', async () => {
    await admission?.setValidationActions(['Deny']);
    await inEffect(res('OpenSearchIndex', tenant, 'probe2', { indexName: `elsewhere-${id}` }), true);
    const request = { namespace: tenant, name: 'stray' };
    await client.patch(openSearchIndices, request, { type: 'merge', body: { metadata: { labels: { team: 'b' } } } });
    const changed = await apply(res('OpenSearchIndex', tenant, 'stray', { indexName: `stray-${id}`, settings: { numberOfReplicas: 0 } }), false);
    expect(changed.ok, changed.output).toBe(false);
    expect(changed.output).toContain(`index name "stray-${id}" is outside the prefix "${tenant}-"`);
    // The operator's finalizer, if any, comes off through the policies: the object is released.
    await client.delete(openSearchIndices, request);
    await eventually(async () => client.get(openSearchIndices, request).then(() => undefined, (err: unknown) => (isNotFound(err) ? true : undefined)), { timeoutMs: 60_000, what: 'the stray OpenSearchIndex deleted' });
    expect((await os('GET', `/stray-${id}`)).status).toBe(404);
  });
});
