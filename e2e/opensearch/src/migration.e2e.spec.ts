// Migration from opensearch-k8s-operator end to end (issue #30): security objects made in the real OpenSearch as
// their operator would have made them, their v1 objects (written from their public CRD schema) converted by the
// operator bundle's `migrate-opster` command, the output applied with `kubectl apply`, and our operator adopting the
// objects in place. The user logs in and reads its index every 100 ms throughout: not one refused request, and nothing
// in OpenSearch is deleted or renamed.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { adminClient, adminKubeconfig, backendsUnderTest, buildOperator, eventually, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminConnection } from './admin-connection.ts';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchLogin, OpenSearchRequest } from './opensearch-http.ts';
import { openSearchActionGroups, openSearchConnections, openSearchRoleBindings, openSearchRoles, openSearchTenants, openSearchUsers } from './kinds.ts';
import type { Resource } from './kinds.ts';

const run = promisify(execFile);
const sfx = randomBytes(3).toString('hex');
const team = `mig-${sfx}`;
const connectionName = `e2e-migrate-${sfx}`;
const SECURITY = '/_plugins/_security/api';
const names = { group: `${team}-search`, tenant: `${team}-tenant`, role: `${team}-reader`, user: `${team}-app`, index: `${team}-data` };
const KINDS: readonly ResourceType<Resource>[] = [openSearchRoleBindings, openSearchUsers, openSearchRoles, openSearchActionGroups, openSearchTenants];

let client: Client;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;
let login: OpenSearchLogin;

/** One of their objects, as their operator's users wrote them. */
const theirs = (kind: string, name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'opensearch.opster.io/v1',
  kind,
  metadata: { namespace: team, name },
  spec: { opensearchCluster: { name: 'my-cluster' }, ...spec },
});

/** Their five security objects for the team (JSON is YAML, one document each). */
function theirObjects(): string {
  return [
    theirs('OpensearchActionGroup', names.group, { allowedActions: ['indices:data/read/search*'], type: 'index', description: 'search only' }),
    theirs('OpensearchTenant', names.tenant, { description: 'dashboards of the team' }),
    theirs('OpensearchRole', names.role, {
      clusterPermissions: ['cluster_composite_ops_ro'],
      indexPermissions: [{ indexPatterns: [`${names.index}*`], allowedActions: [names.group] }],
      tenantPermissions: [{ tenantPatterns: [names.tenant], allowedActions: ['kibana_all_read'] }],
    }),
    theirs('OpensearchUser', names.user, { passwordFrom: { name: 'app-password', key: 'password' }, attributes: { team: 'mig' } }),
    theirs('OpensearchUserRoleBinding', 'app-access', { roles: [names.role], users: [names.user] }),
  ]
    .map((object) => JSON.stringify(object))
    .join('\n---\n');
}

/** `node main.js migrate-opster …` of the operator's bundle with `input` on stdin: its stdout, stderr and exit code. */
async function migrate(input: string, args: readonly string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const bundle = await buildOperator('opensearch');
  const child = run(process.execPath, [bundle, 'migrate-opster', ...args], { encoding: 'utf8' });
  child.child.stdin?.end(input);
  try {
    const { stdout, stderr } = await child;
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string; code?: number };
    return { stdout: failed.stdout ?? '', stderr: failed.stderr ?? '', code: failed.code ?? -1 };
  }
}

/** Polls the user's login and its read of the team's index every 100 ms until stopped; counts what was refused. */
function watchAccess(): { stop(): Promise<{ tries: number; refused: readonly string[] }> } {
  const state = { stopped: false };
  let tries = 0;
  const refused: string[] = [];
  const loop = (async () => {
    while (!state.stopped) {
      tries++;
      const auth = await os('GET', '/_plugins/_security/authinfo', undefined, login).catch((e: unknown) => ({ status: -1, body: String(e) }));
      const search = await os('GET', `/${names.index}/_search`, undefined, login).catch((e: unknown) => ({ status: -1, body: String(e) }));
      if (auth.status !== 200) refused.push(`authinfo ${auth.status}`);
      if (search.status !== 200) refused.push(`search ${search.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      state.stopped = true;
      await loop;
      return { tries, refused };
    },
  };
}

async function ready(type: ResourceType<Resource>, name: string): Promise<Resource> {
  let last: Resource | undefined;
  return eventually(
    async () => {
      last = await client.get(type, { namespace: team, name });
      const found = last.status?.conditions?.find((c) => c.type === 'Ready');
      return found?.status === 'True' && (found.observedGeneration ?? 0) >= (last.metadata?.generation ?? 0) ? last : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, what: `${type.kind} ${team}/${name} Ready (last: ${JSON.stringify(last?.status?.conditions ?? [])})` },
  );
}

beforeAll(async () => {
  const backends = await backendsUnderTest(['opensearch']);
  os = openSearchRequests(backends.opensearch);
  client = await adminClient();
  login = { username: names.user, password: `Mig-${randomBytes(12).toString('hex')}-9z` };
  // What their operator had made: the security objects, the user's password Secret, and an index the role reads.
  expect((await os('PUT', `/${names.index}`, { settings: { number_of_replicas: 0 } })).status).toBe(200);
  expect((await os('PUT', `/${names.index}/_doc/1?refresh=true`, { item: 'kept' })).status).toBe(201);
  for (const [collection, name, body] of [
    ['actiongroups', names.group, { allowed_actions: ['indices:data/read/search*'], type: 'index', description: 'search only' }],
    ['tenants', names.tenant, { description: 'dashboards of the team' }],
    [
      'roles',
      names.role,
      {
        cluster_permissions: ['cluster_composite_ops_ro'],
        index_permissions: [{ index_patterns: [`${names.index}*`], allowed_actions: [names.group] }],
        tenant_permissions: [{ tenant_patterns: [names.tenant], allowed_actions: ['kibana_all_read'] }],
      },
    ],
    ['internalusers', names.user, { password: login.password, attributes: { team: 'mig', 'k8s-uid': 'their-uid' } }],
    ['rolesmapping', names.role, { users: [names.user] }],
  ] as const) {
    const answer = await os('PUT', `${SECURITY}/${collection}/${name}`, body);
    expect([200, 201], `PUT ${collection}/${name}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
  }
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '5s' } });
  await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: team } });
  await client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: team, name: 'app-password' }, stringData: { password: login.password } });
  await createAdminConnection(client, backends.opensearch, {
    name: connectionName,
    secretNamespace: operator.namespace,
    secretName: `opensearch-admin-${sfx}`,
    spec: { tenancy: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': team } } } },
  });
});

afterAll(async () => {
  for (const type of KINDS) for (const item of await client.listAll(type, { namespace: team }).catch(() => [])) await client.delete(type, { namespace: team, name: item.metadata?.name ?? '' }).catch(() => undefined);
  await eventually(async () => ((await Promise.all(KINDS.map((type) => client.listAll(type, { namespace: team })))).every((items) => items.length === 0) ? true : undefined), { timeoutMs: 60_000, what: 'migrated objects gone' }).catch(() => undefined);
  await operator?.stop();
  await client.delete(openSearchConnections, { namespace: undefined, name: connectionName }).catch(() => undefined);
  await client.delete(coreTypes.namespace, { namespace: undefined, name: team }).catch(() => undefined);
  await os('DELETE', `/${names.index}`).catch(() => undefined);
  for (const [collection, name] of [
    ['rolesmapping', names.role],
    ['internalusers', names.user],
    ['roles', names.role],
    ['tenants', names.tenant],
    ['actiongroups', names.group],
  ] as const) {
    await os('DELETE', `${SECURITY}/${collection}/${name}`).catch(() => undefined);
  }
});

describe('migration from opensearch-k8s-operator against the real OpenSearch', () => {
  it('converts their five security objects, adopts them in place, and the user never loses access', async () => {
    expect((await os('GET', '/_plugins/_security/authinfo', undefined, login)).status).toBe(200);
    expect((await os('GET', `/${names.index}/_search`, undefined, login)).status).toBe(200);

    const converted = await migrate(theirObjects(), ['--connection', connectionName]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stderr).toContain('5 objects written');

    const access = watchAccess();
    try {
      const kubeconfig = await adminKubeconfig();
      const apply = run('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', '-'], { encoding: 'utf8' });
      apply.child.stdin?.end(converted.stdout);
      const applied = await apply;
      expect(applied.stdout).toContain(`opensearchuser.opensearch.domain-operators.io/${names.user} created`);

      const user = await ready(openSearchUsers, names.user);
      expect(user.status?.['ownership']).toBe('Adopted');
      const role = await ready(openSearchRoles, names.role);
      expect(role.status?.['ownership']).toBe('Adopted');
      await ready(openSearchActionGroups, names.group);
      await ready(openSearchTenants, names.tenant);
      await ready(openSearchRoleBindings, 'app-access');
      // A few more reconciles' worth of requests after everything is Ready.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    } catch (err) {
      await access.stop();
      throw err;
    }
    const outcome = await access.stop();
    expect(outcome.tries).toBeGreaterThan(10);
    expect(outcome.refused).toEqual([]);

    // The same objects, under the same names; the mapping still holds the user; their ownership mark is gone.
    for (const [collection, name] of [
      ['actiongroups', names.group],
      ['tenants', names.tenant],
      ['roles', names.role],
      ['internalusers', names.user],
      ['rolesmapping', names.role],
    ] as const) {
      expect((await os('GET', `${SECURITY}/${collection}/${name}`)).status, `${collection}/${name}`).toBe(200);
    }
    const mapping = (await os('GET', `${SECURITY}/rolesmapping/${names.role}`)).body as Record<string, { users?: string[] }>;
    expect(mapping[names.role]?.users).toContain(names.user);
    const internal = (await os('GET', `${SECURITY}/internalusers/${names.user}`)).body as Record<string, { attributes?: Record<string, string> }>;
    expect(internal[names.user]?.attributes).toEqual({ team: 'mig' });
    expect((await os('GET', `/${names.index}/_doc/1`)).status).toBe(200);
  });

  it('refuses what it cannot carry over without losing access, and says why (exit 2)', async () => {
    const input = [
      JSON.stringify(theirs('OpensearchUser', `${team}-legacy`, { passwordFrom: { name: 'app-password', key: 'password' }, opendistroSecurityRoles: ['all_access'] })),
      JSON.stringify(theirs('OpenSearchISMPolicy', 'rollover', { policyId: 'rollover', states: [] })),
    ].join('\n---\n');
    const converted = await migrate(input, ['--connection', connectionName]);
    expect(converted.code).toBe(2);
    expect(converted.stdout.trim()).toBe('');
    expect(converted.stderr).toContain('opendistroSecurityRoles');
    expect(converted.stderr).toContain('ISM');
  });
});
