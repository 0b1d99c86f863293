// OpenSearchActionGroup, OpenSearchTenant and a role's tenantPermissions end to end (issue #19): the bundle run as its
// chart's ServiceAccount against testenv's apiserver and OpenSearch node with its security plugin. A role that names
// an action group and a tenant, bound to a user, gives that user exactly those rights, checked with the user's own
// login (allowed calls succeed, the others get 403); names outside the namespace's prefix are refused with
// TenancyViolation and nothing is created; the plugin's reserved action group and tenant are never modified, even
// through a connection without a prefix.
import { randomBytes } from 'node:crypto';
import { adminClient, backendsUnderTest, eventually, kstatusNow, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, isInvalid, isNotFound } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchLogin, OpenSearchRequest } from './opensearch-http.ts';
import { API_VERSION, openSearchActionGroups, openSearchConnections, openSearchRoleBindings, openSearchRoles, openSearchTenants, openSearchUsers } from './kinds.ts';
import type { Resource } from './kinds.ts';

const sfx = randomBytes(3).toString('hex');
const run = `osag${sfx}`;
const team = `team-g-${sfx}`;
const trusted = `trusted-g-${sfx}`;
const connectionName = `e2e-groups-${sfx}`;
const trustedConnection = `e2e-groups-trusted-${sfx}`;
const SECURITY = '/_plugins/_security/api';
const KINDS: readonly ResourceType<Resource>[] = [openSearchRoleBindings, openSearchUsers, openSearchRoles, openSearchActionGroups, openSearchTenants];

let client: Client;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;

const meta = (namespace: string, name: string) => ({ namespace, name });
const resource = (kind: string, namespace: string, name: string, spec: Record<string, unknown>, connection = connectionName): Resource => ({
  apiVersion: API_VERSION,
  kind,
  metadata: meta(namespace, name),
  spec: { connectionRef: { name: connection }, ...spec },
});

/** Waits until condition `type` is `status` (with `reason`, when given) at the object's current generation. */
async function condition(type: ResourceType<Resource>, namespace: string, name: string, want: { type: string; status: 'True' | 'False'; reason?: string }, timeoutMs = 60_000): Promise<Resource> {
  let last: Resource | undefined;
  return eventually(
    async () => {
      last = await client.get(type, { namespace, name });
      const found = last.status?.conditions?.find((c) => c.type === want.type);
      const current = found?.observedGeneration === undefined || (found.observedGeneration >= (last.metadata?.generation ?? 0));
      return found?.status === want.status && (want.reason === undefined || found.reason === want.reason) && current ? last : undefined;
    },
    { timeoutMs, intervalMs: 250, what: `${type.kind} ${namespace}/${name} ${want.type}=${want.status} ${want.reason ?? ''} (last: ${JSON.stringify(last?.status?.conditions ?? [])})` },
  );
}

async function security(collection: string, name: string): Promise<{ status: number; body: unknown }> {
  return os('GET', `${SECURITY}/${collection}/${name}`);
}

beforeAll(async () => {
  const backends = await backendsUnderTest(['opensearch']);
  os = openSearchRequests(backends.opensearch);
  client = await adminClient();
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '5s' } });
  for (const name of [team, trusted]) await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'e2e.domain-operators.io/run': run } } });
  await client.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: operator.namespace, name: `opensearch-admin-${sfx}` },
    stringData: { username: backends.opensearch.adminUser.username, password: backends.opensearch.adminUser.password },
  });
  const connection = (name: string, tenancy: Record<string, unknown>): Resource => ({
    apiVersion: API_VERSION,
    kind: 'OpenSearchConnection',
    metadata: { name },
    spec: { urls: [backends.opensearch.url], credentialsSecretRef: { namespace: operator?.namespace ?? '', name: `opensearch-admin-${sfx}` }, tenancy },
  });
  // The team's connection gives it the prefix "<namespace>-"; the trusted one (a platform admin's own namespace) no prefix at all.
  await client.create(openSearchConnections, connection(connectionName, { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { 'e2e.domain-operators.io/run': run } } }));
  await client.create(openSearchConnections, connection(trustedConnection, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': trusted } } }));
  for (const name of [connectionName, trustedConnection]) {
    await eventually(async () => ((await client.get(openSearchConnections, { namespace: undefined, name })).status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true ? true : undefined), {
      timeoutMs: 90_000,
      what: `connection ${name} Ready`,
    });
  }
  for (const index of ['orders', 'other']) {
    expect((await os('PUT', `/${team}-${index}`, { settings: { number_of_replicas: 0 } })).status).toBe(200);
    expect((await os('PUT', `/${team}-${index}/_doc/1?refresh=true`, { item: index })).status).toBe(201);
  }
});

afterAll(async () => {
  for (const namespace of [team, trusted]) {
    for (const type of KINDS) for (const item of await client.listAll(type, { namespace }).catch(() => [])) await client.delete(type, { namespace, name: item.metadata?.name ?? '' }).catch(() => undefined);
  }
  for (const namespace of [team, trusted]) {
    for (const type of KINDS) await eventually(async () => ((await client.listAll(type, { namespace })).length === 0 ? true : undefined), { timeoutMs: 60_000, what: `${type.plural} gone` }).catch(() => undefined);
  }
  await operator?.stop();
  for (const name of [connectionName, trustedConnection]) await client.delete(openSearchConnections, { namespace: undefined, name }).catch(() => undefined);
  for (const name of [team, trusted]) await client.delete(coreTypes.namespace, { namespace: undefined, name }).catch(() => undefined);
  await os('DELETE', `/${team}-*`).catch(() => undefined);
  // The tenant is Retain; anything a failed step left behind goes too.
  for (const [collection, name] of [
    ['tenants', `${team}-dashboards`],
    ['actiongroups', `${team}-search`],
    ['roles', `${team}-viewer`],
    ['rolesmapping', `${team}-viewer`],
    ['internalusers', `${team}-alice`],
  ] as const) {
    await os('DELETE', `${SECURITY}/${collection}/${name}`).catch(() => undefined);
  }
});

describe('action groups, tenants and tenant permissions against the real security plugin', () => {
  let login: OpenSearchLogin;

  it('a role naming an action group and a tenant, bound to a user, gives that user exactly those rights (its own login)', async () => {
    await client.create(openSearchActionGroups, resource('OpenSearchActionGroup', team, 'search', { type: 'index', allowedActions: ['indices:data/read/search*'], description: 'search only' }));
    await client.create(openSearchTenants, resource('OpenSearchTenant', team, 'dashboards', { description: 'dashboards of the team' }));
    await client.create(
      openSearchRoles,
      resource('OpenSearchRole', team, 'viewer', {
        clusterPermissions: ['cluster_composite_ops_ro'],
        indexPermissions: [{ indexPatterns: [`${team}-orders*`], allowedActions: [`${team}-search`] }],
        tenantPermissions: [{ tenantPatterns: [`${team}-dashboards`], allowedActions: ['kibana_all_read'] }],
      }),
    );
    await client.create(openSearchUsers, resource('OpenSearchUser', team, 'alice', {}));
    await client.create(openSearchRoleBindings, resource('OpenSearchRoleBinding', team, 'alice-views', { roleRef: { name: 'viewer' }, users: [`${team}-alice`] }));

    const group = await condition(openSearchActionGroups, team, 'search', { type: 'Ready', status: 'True' });
    expect(group.status).toMatchObject({ actionGroupName: `${team}-search`, ownership: 'Created' });
    const tenant = await condition(openSearchTenants, team, 'dashboards', { type: 'Ready', status: 'True' });
    expect(tenant.status).toMatchObject({ tenantName: `${team}-dashboards`, ownership: 'Created' });
    for (const [type, name] of [[openSearchRoles, 'viewer'], [openSearchUsers, 'alice'], [openSearchRoleBindings, 'alice-views']] as const) await condition(type, team, name, { type: 'Ready', status: 'True' });

    expect((await security('actiongroups', `${team}-search`)).body).toMatchObject({ [`${team}-search`]: { type: 'index', allowed_actions: ['indices:data/read/search*'], description: 'search only', reserved: false } });
    expect((await security('tenants', `${team}-dashboards`)).body).toMatchObject({ [`${team}-dashboards`]: { description: 'dashboards of the team', reserved: false } });
    expect((await security('roles', `${team}-viewer`)).body).toMatchObject({
      [`${team}-viewer`]: { tenant_permissions: [{ tenant_patterns: [`${team}-dashboards`], allowed_actions: ['kibana_all_read'] }] },
    });

    const secret = await client.get(coreTypes.secret, { namespace: team, name: 'alice-opensearch-credentials' });
    const value = (key: string): string => Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
    login = { username: value('username'), password: value('password') };
    // The tenant, read-only: authinfo lists it with false (true would be write access).
    const info = await eventually(
      async () => {
        const answer = await os('GET', '/_plugins/_security/authinfo', undefined, login);
        const body = answer.body as { roles?: string[]; tenants?: Record<string, boolean> };
        return answer.status === 200 && body.roles?.includes(`${team}-viewer`) === true ? body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: 'alice holding the role' },
    );
    expect(info.tenants?.[`${team}-dashboards`]).toBe(false);
    expect(Object.keys(info.tenants ?? {}).filter((name) => name !== login.username)).toEqual([`${team}-dashboards`]);

    // The action group's one action: search on the role's indices, nothing else there, nothing elsewhere.
    expect((await os('GET', `/${team}-orders/_search`, undefined, login)).status).toBe(200);
    expect((await os('GET', `/${team}-orders/_doc/1`, undefined, login)).status).toBe(403);
    expect((await os('PUT', `/${team}-orders/_doc/2`, { item: 'new' }, login)).status).toBe(403);
    expect((await os('GET', `/${team}-other/_search`, undefined, login)).status).toBe(403);
  });

  it('a change of the action group and of the tenant permission is applied, and the user gets exactly the new rights', async () => {
    await client.patch(openSearchActionGroups, { namespace: team, name: 'search' }, { type: 'merge', body: { spec: { allowedActions: ['indices:data/read/search*', 'indices:data/read/get*'] } } });
    await client.patch(openSearchRoles, { namespace: team, name: 'viewer' }, { type: 'merge', body: { spec: { tenantPermissions: [{ tenantPatterns: [`${team}-dashboards`], allowedActions: ['kibana_all_write'] }] } } });
    await condition(openSearchActionGroups, team, 'search', { type: 'Synced', status: 'True' });
    await condition(openSearchRoles, team, 'viewer', { type: 'Synced', status: 'True' });
    await eventually(async () => ((await os('GET', `/${team}-orders/_doc/1`, undefined, login)).status === 200 ? true : undefined), { timeoutMs: 30_000, intervalMs: 500, what: 'get allowed' });
    const info = (await os('GET', '/_plugins/_security/authinfo', undefined, login)).body as { tenants?: Record<string, boolean> };
    expect(info.tenants?.[`${team}-dashboards`]).toBe(true);
    expect((await os('PUT', `/${team}-orders/_doc/2`, { item: 'new' }, login)).status).toBe(403);
    expect((await os('GET', `/${team}-other/_doc/1`, undefined, login)).status).toBe(403);
  });

  it('refuses names and actions outside the tenancy with TenancyViolation, and creates nothing in OpenSearch', async () => {
    await client.create(openSearchActionGroups, resource('OpenSearchActionGroup', team, 'foreign', { name: `team-other-${sfx}-search`, type: 'index', allowedActions: ['read'] }));
    await client.create(openSearchActionGroups, resource('OpenSearchActionGroup', team, 'greedy', { type: 'cluster', allowedActions: ['cluster_monitor', 'cluster_all'] }));
    await client.create(openSearchTenants, resource('OpenSearchTenant', team, 'global', { name: 'global_tenant' }));
    await client.create(openSearchTenants, resource('OpenSearchTenant', team, 'foreign', { name: `team-other-${sfx}-dashboards` }));
    await client.create(openSearchRoles, resource('OpenSearchRole', team, 'global-viewer', { tenantPermissions: [{ tenantPatterns: ['global_tenant'], allowedActions: ['kibana_all_write'] }] }));

    const foreign = await condition(openSearchActionGroups, team, 'foreign', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(foreign.status?.conditions?.find((c) => c.type === 'Synced')?.message).toContain(`outside the prefix "${team}-"`);
    const greedy = await condition(openSearchActionGroups, team, 'greedy', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(greedy.status?.conditions?.find((c) => c.type === 'Synced')?.message).toContain('allowedActions[1] "cluster_all"');
    await condition(openSearchTenants, team, 'global', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    await condition(openSearchTenants, team, 'foreign', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    const role = await condition(openSearchRoles, team, 'global-viewer', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(role.status?.conditions?.find((c) => c.type === 'Synced')?.message).toContain('tenantPermissions[0].tenantPatterns[0] "global_tenant"');

    expect((await security('actiongroups', `team-other-${sfx}-search`)).status).toBe(404);
    expect((await security('actiongroups', `${team}-greedy`)).status).toBe(404);
    expect((await security('tenants', `team-other-${sfx}-dashboards`)).status).toBe(404);
    expect((await security('roles', `${team}-global-viewer`)).status).toBe(404);
    expect(((await security('tenants', 'global_tenant')).body as Record<string, { description: string }>)['global_tenant']?.description).toBe('Global tenant');

    // A tenant action other than kibana_all_read and kibana_all_write never gets past admission.
    const refused = await client
      .create(openSearchRoles, resource('OpenSearchRole', team, 'odd', { tenantPermissions: [{ tenantPatterns: [`${team}-dashboards`], allowedActions: ['kibana_all_admin'] }] }))
      .then(() => undefined, (err: unknown) => err);
    expect(isInvalid(refused)).toBe(true);
  });

  it('never modifies the plugin’s reserved action group and tenant, even through a connection without a prefix', async () => {
    const before = await Promise.all([security('actiongroups', 'read'), security('tenants', 'global_tenant')]);
    await client.create(openSearchActionGroups, resource('OpenSearchActionGroup', trusted, 'read', { name: 'read', type: 'index', allowedActions: ['indices:*'] }, trustedConnection));
    await client.create(openSearchTenants, resource('OpenSearchTenant', trusted, 'global', { name: 'global_tenant', description: 'taken over' }, trustedConnection));
    const group = await condition(openSearchActionGroups, trusted, 'read', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(group.status?.conditions?.find((c) => c.type === 'Synced')?.message).toBe('action group "read" is reserved and static in OpenSearch and is never modified');
    const tenant = await condition(openSearchTenants, trusted, 'global', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(tenant.status?.conditions?.find((c) => c.type === 'Synced')?.message).toContain('"global_tenant" is reserved');
    // A protected security object waits for a change of the resource: Failed for Flux and kpt at once, with the reason.
    const verdicts = await kstatusNow(client, [group, tenant], (o) => (o.kind === 'OpenSearchActionGroup' ? openSearchActionGroups : openSearchTenants), 'Failed');
    expect(verdicts.others).toEqual([]);
    // Deleting them releases nothing in OpenSearch either.
    await client.delete(openSearchActionGroups, { namespace: trusted, name: 'read' });
    await client.delete(openSearchTenants, { namespace: trusted, name: 'global' });
    for (const [type, name] of [[openSearchActionGroups, 'read'], [openSearchTenants, 'global']] as const) {
      await eventually(async () => client.get(type, { namespace: trusted, name }).then(() => undefined, (err: unknown) => (isNotFound(err) ? true : undefined)), { timeoutMs: 60_000, what: `${name} deleted` });
    }
    const after = await Promise.all([security('actiongroups', 'read'), security('tenants', 'global_tenant')]);
    expect(after).toEqual(before);
  });

  it('deleted, the action group goes from OpenSearch (Delete) and the tenant stays (Retain)', async () => {
    await client.delete(openSearchActionGroups, { namespace: team, name: 'search' });
    await client.delete(openSearchTenants, { namespace: team, name: 'dashboards' });
    for (const [type, name] of [[openSearchActionGroups, 'search'], [openSearchTenants, 'dashboards']] as const) {
      await eventually(async () => client.get(type, { namespace: team, name }).then(() => undefined, (err: unknown) => (isNotFound(err) ? true : undefined)), { timeoutMs: 60_000, what: `${name} deleted` });
    }
    expect((await security('actiongroups', `${team}-search`)).status).toBe(404);
    expect((await security('tenants', `${team}-dashboards`)).status).toBe(200);
  });
});
