// The OpenSearch operator end to end (issue #7): the bundle run as its chart's ServiceAccount (e2e-harness
// `startOperator`) against testenv's real apiserver and OpenSearch node with its security plugin, driven only through
// the Kubernetes API and checked with independent HTTP requests to OpenSearch, including requests made with the
// credentials of the users the operator manages.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { adminClient, backendsUnderTest, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, eventType, isInvalid, isNotFound } from '@domain-operators/reconcile';
import type { Client, Condition, ResourceType } from '@domain-operators/reconcile';
import { ensureTestEnv, resolvePaths } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, GROUP, openSearchComponentTemplates, openSearchConnections, openSearchIndexTemplates, openSearchIndices, openSearchRoleBindings, openSearchRoles, openSearchUsers } from './kinds.ts';
import type { Resource } from './kinds.ts';

/** Independent credentials for requests to OpenSearch. The password is a secret: never log it. */
interface Credentials {
  readonly username: string;
  readonly password: string;
}


describe('the OpenSearch operator as a process, against the real apiserver and OpenSearch', () => {
  const sfx = randomBytes(3).toString('hex');
  const run = `osop${sfx}`;
  const teamA = `team-a-${sfx}`;
  const teamB = `team-b-${sfx}`;
  const outsider = `team-c-${sfx}`;
  const connectionName = `e2e-${sfx}`;
  let openSearch: { readonly url: string; readonly admin: Credentials };
  let client: Client;
  let operator: OperatorProcess | undefined;

  const os = (method: string, path: string, body?: unknown, credentials?: Credentials) => request(openSearch.url, credentials ?? openSearch.admin, method, path, body);
  const connectionRef = { name: connectionName };
  const meta = (namespace: string, name: string, annotations?: Record<string, string>) => ({ name, namespace, ...(annotations === undefined ? {} : { annotations }) });

  beforeAll(async () => {
    const backends = await backendsUnderTest(['opensearch']);
    openSearch = { url: backends.opensearch.url, admin: backends.opensearch.adminUser };
    client = await adminClient();
    // As the chart's ServiceAccount, watching every namespace (the chart's default).
    operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '5s' } });
    for (const [name, labels] of [
      [teamA, { 'e2e.domain-operators.io/run': run }],
      [teamB, { 'e2e.domain-operators.io/run': run }],
      [outsider, {}],
    ] as const) {
      await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
    }
    // The connection's credentials live in the operator's release namespace, as a platform admin would put them.
    await client.create(coreTypes.secret, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: operator.namespace, name: `opensearch-admin-${sfx}` },
      stringData: { username: openSearch.admin.username, password: openSearch.admin.password },
    });
    await client.create(openSearchConnections, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchConnection',
      metadata: { name: connectionName, annotations: { [`${GROUP}/health-check-interval`]: '2s' } },
      spec: {
        urls: [openSearch.url],
        credentialsSecretRef: { namespace: operator.namespace, name: `opensearch-admin-${sfx}` },
        tenancy: { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { 'e2e.domain-operators.io/run': run } } },
      },
    });
    const ready = await waitForCondition(client, openSearchConnections, undefined, connectionName, { type: 'Ready', status: 'True' }, 90_000);
    expect(ready.status).toMatchObject({ securityPlugin: true, health: expect.stringMatching(/green|yellow/) as string });
  });

  afterAll(async () => {
    // Custom resources first, while the operator still runs to release their finalizers.
    for (const namespace of [teamA, teamB, outsider]) {
      for (const type of [openSearchRoleBindings, openSearchUsers, openSearchRoles, openSearchIndices, openSearchIndexTemplates]) {
        const items = await client.listAll(type, { namespace }).catch(() => []);
        for (const item of items) {
          await client.delete(type, { namespace, name: item.metadata?.name ?? '' }).catch(() => undefined);
        }
      }
    }
    for (const namespace of [teamA, teamB, outsider]) {
      for (const type of [openSearchRoleBindings, openSearchUsers, openSearchRoles, openSearchIndices, openSearchIndexTemplates]) {
        await eventually(`${type.plural} in ${namespace} gone`, 60_000, async () => (await client.listAll(type, { namespace })).length === 0).catch(() => undefined);
      }
    }
    await operator?.stop();
    await client.delete(openSearchConnections, { namespace: undefined, name: connectionName }).catch(() => undefined);
    for (const namespace of [teamA, teamB, outsider]) await client.delete(coreTypes.namespace, { namespace: undefined, name: namespace }).catch(() => undefined);
    // Retained indices and anything a failed step left behind.
    await os('DELETE', `/${teamA}-*,${teamB}-*`).catch(() => undefined);
    await os('DELETE', `/_index_template/${teamA}-*`).catch(() => undefined);
  });

  async function index(namespace: string, name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): Promise<void> {
    await client.create(openSearchIndices, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchIndex',
      metadata: meta(namespace, name, annotations),
      spec: { connectionRef, deletionPolicy: 'Retain', ...spec },
    });
  }

  async function patchSpec(type: ResourceType<Resource>, namespace: string, name: string, spec: Record<string, unknown>): Promise<void> {
    await client.patch(type, { namespace, name }, { type: 'merge', body: { spec } });
  }

  async function settingsOf(name: string): Promise<Record<string, unknown>> {
    const answer = await os('GET', `/${name}/_settings?flat_settings=true`);
    return ((answer.body as Record<string, { settings: Record<string, unknown> }>)[name]?.settings ?? {});
  }

  async function mappingOf(name: string): Promise<Record<string, { type?: string }>> {
    const answer = await os('GET', `/${name}/_mapping`);
    return (answer.body as Record<string, { mappings: { properties?: Record<string, { type?: string }> } }>)[name]?.mappings.properties ?? {};
  }

  async function secretCredentials(namespace: string, name: string): Promise<Credentials> {
    const secret = await client.get(coreTypes.secret, { namespace, name });
    const value = (key: string): string => Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
    return { username: value('username'), password: value('password') };
  }

  it('creates an index with settings, mappings and aliases, then applies a replica change and an added field', async () => {
    const t0 = Date.now();
    await index(teamA, 'logs', {
      settings: { numberOfShards: 2, numberOfReplicas: 0, refreshInterval: '5s' },
      mappings: { properties: { message: { type: 'text' }, level: { type: 'keyword' } } },
      aliases: { [`${teamA}-logs-read`]: {} },
    });
    const ready = await waitForCondition(client, openSearchIndices, teamA, 'logs', { type: 'Ready', status: 'True' });
    expect(ready.status).toMatchObject({ indexName: `${teamA}-logs`, ownership: 'Created', aliases: [`${teamA}-logs-read`], health: 'green' });
    expect(ready.status?.['uuid']).toMatch(/\S{10,}/);
    expect(await settingsOf(`${teamA}-logs`)).toMatchObject({ 'index.number_of_shards': '2', 'index.number_of_replicas': '0', 'index.refresh_interval': '5s' });
    expect(await mappingOf(`${teamA}-logs`)).toEqual({ message: { type: 'text' }, level: { type: 'keyword' } });
    expect((await os('GET', `/_alias/${teamA}-logs-read`)).status).toBe(200);
    console.log(`index Ready after ${Date.now() - t0} ms`);

    await patchSpec(openSearchIndices, teamA, 'logs', { settings: { numberOfShards: 2, numberOfReplicas: 1, refreshInterval: '5s' } });
    await eventually('replicas 1', 30_000, async () => (await settingsOf(`${teamA}-logs`))['index.number_of_replicas'] === '1');

    await patchSpec(openSearchIndices, teamA, 'logs', { mappings: { properties: { message: { type: 'text' }, level: { type: 'keyword' }, host: { type: 'keyword' } } } });
    await eventually('field host added', 30_000, async () => (await mappingOf(`${teamA}-logs`))['host']?.type === 'keyword');
    await waitForCondition(client, openSearchIndices, teamA, 'logs', { type: 'Synced', status: 'True' });

    // Steady state: the connection is rechecked every 2 s and the index is quiet; neither object is written (once the
    // connection reports the cluster's current health, which the replica change above turned yellow).
    await eventually('connection reports the current health', 30_000, async () => {
      const health = ((await os('GET', '/_cluster/health')).body as { status?: string }).status;
      return (await client.get(openSearchConnections, { namespace: undefined, name: connectionName })).status?.['health'] === health;
    });
    const before = [(await client.get(openSearchConnections, { namespace: undefined, name: connectionName })).metadata?.resourceVersion, (await client.get(openSearchIndices, { namespace: teamA, name: 'logs' })).metadata?.resourceVersion];
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const after = [(await client.get(openSearchConnections, { namespace: undefined, name: connectionName })).metadata?.resourceVersion, (await client.get(openSearchIndices, { namespace: teamA, name: 'logs' })).metadata?.resourceVersion];
    expect(after).toEqual(before);
  });

  it('refuses a conflicting mapping with MappingConflict and changes nothing', async () => {
    await patchSpec(openSearchIndices, teamA, 'logs', { mappings: { properties: { message: { type: 'keyword' }, level: { type: 'keyword' }, host: { type: 'keyword' }, extra: { type: 'long' } } } });
    const refused = await waitForCondition(client, openSearchIndices, teamA, 'logs', { type: 'Synced', status: 'False', reason: 'MappingConflict' });
    expect(conditionOf(refused, 'Synced')?.message).toContain('message');
    const mapping = await mappingOf(`${teamA}-logs`);
    expect(mapping['message']?.type).toBe('text');
    expect(mapping['extra']).toBeUndefined();
    // Back to a valid spec.
    await patchSpec(openSearchIndices, teamA, 'logs', { mappings: { properties: { message: { type: 'text' }, level: { type: 'keyword' }, host: { type: 'keyword' } } } });
    await waitForCondition(client, openSearchIndices, teamA, 'logs', { type: 'Synced', status: 'True' });
  });

  it('refuses at admission what the schema and CEL rules can say: a shard count or name change, negative replicas, empty patterns', async () => {
    const rejected = async (write: Promise<unknown>): Promise<string> => {
      const error: unknown = await write.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isInvalid(error)).toBe(true);
      return (error as Error).message;
    };
    expect(await rejected(patchSpec(openSearchIndices, teamA, 'logs', { settings: { numberOfShards: 3 } }))).toContain('numberOfShards is fixed');
    expect(await rejected(patchSpec(openSearchIndices, teamA, 'logs', { indexName: `${teamA}-other` }))).toContain('indexName is immutable');
    expect(await rejected(patchSpec(openSearchIndices, teamA, 'logs', { settings: { numberOfShards: 2, numberOfReplicas: -1 } }))).toContain('numberOfReplicas');
    expect(
      await rejected(
        client.create(openSearchIndexTemplates, { apiVersion: API_VERSION, kind: 'OpenSearchIndexTemplate', metadata: meta(teamA, 'empty'), spec: { connectionRef, indexPatterns: [] } }),
      ),
    ).toContain('indexPatterns');
  });

  it('lets an index template shape an index created afterwards', async () => {
    const template: Resource = {
      apiVersion: API_VERSION,
      kind: 'OpenSearchIndexTemplate',
      metadata: meta(teamA, 'events'),
      spec: {
        connectionRef,
        indexPatterns: [`${teamA}-events-*`],
        template: { settings: { numberOfShards: 3, numberOfReplicas: 0 }, mappings: { properties: { at: { type: 'date' } } } },
        priority: 100,
        deletionPolicy: 'Delete',
      },
    };
    await client.create(openSearchIndexTemplates, template);
    await waitForCondition(client, openSearchIndexTemplates, teamA, 'events', { type: 'Ready', status: 'True' });
    expect((await os('GET', `/_index_template/${teamA}-events`)).status).toBe(200);

    await index(teamA, 'events-1', { mappings: { properties: { note: { type: 'text' } } } });
    await waitForCondition(client, openSearchIndices, teamA, 'events-1', { type: 'Ready', status: 'True' });
    expect((await settingsOf(`${teamA}-events-1`))['index.number_of_shards']).toBe('3');
    expect(await mappingOf(`${teamA}-events-1`)).toEqual({ at: { type: 'date' }, note: { type: 'text' } });
  });

  it("changes an index template's shard count (only indices created afterwards get it, the existing one keeps its own)", async () => {
    const patched = await client.patch(openSearchIndexTemplates, { namespace: teamA, name: 'events' }, { type: 'merge', body: { spec: { template: { settings: { numberOfShards: 2, numberOfReplicas: 0 } } } } });
    const generation = patched.metadata?.generation;
    expect(generation).toBe(2);
    const ready = await waitForCondition(client, openSearchIndexTemplates, teamA, 'events', { type: 'Ready', status: 'True' });
    expect(ready.status?.observedGeneration).toBe(generation);
    const template = (await os('GET', `/_index_template/${teamA}-events`)).body as { index_templates: { index_template: { template: { settings: { index: Record<string, unknown> } } } }[] };
    expect(template.index_templates[0]?.index_template.template.settings.index['number_of_shards']).toBe('2');

    await index(teamA, 'events-2', {});
    await waitForCondition(client, openSearchIndices, teamA, 'events-2', { type: 'Ready', status: 'True' });
    expect((await settingsOf(`${teamA}-events-2`))['index.number_of_shards']).toBe('2');
    expect((await settingsOf(`${teamA}-events-1`))['index.number_of_shards']).toBe('3');
  });

  it('waits with DependencyNotReady for a component template that does not exist yet, and a used one waits for its index template to go', async () => {
    const composed: Resource = {
      apiVersion: API_VERSION,
      kind: 'OpenSearchIndexTemplate',
      metadata: meta(teamA, 'traces'),
      spec: { connectionRef, indexPatterns: [`${teamA}-traces-*`], composedOf: [`${teamA}-trace-base`], deletionPolicy: 'Delete' },
    };
    await client.create(openSearchIndexTemplates, composed);
    await waitForCondition(client, openSearchIndexTemplates, teamA, 'traces', { type: 'Synced', status: 'False', reason: 'DependencyNotReady' });
    expect((await os('GET', `/_index_template/${teamA}-traces`)).status).toBe(404);

    // Only the component template is created; nothing touches the index template, which is retried by itself.
    await client.create(openSearchComponentTemplates, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchComponentTemplate',
      metadata: meta(teamA, 'trace-base'),
      spec: { connectionRef, template: { mappings: { properties: { span: { type: 'keyword' } } } }, deletionPolicy: 'Delete' },
    });
    await waitForCondition(client, openSearchIndexTemplates, teamA, 'traces', { type: 'Ready', status: 'True' });
    expect((await os('GET', `/_index_template/${teamA}-traces`)).status).toBe(200);

    // Both deleted at once: the component template is refused while the index template uses it, then goes.
    await client.delete(openSearchComponentTemplates, { namespace: teamA, name: 'trace-base' });
    await client.delete(openSearchIndexTemplates, { namespace: teamA, name: 'traces' });
    await waitGone(client, openSearchIndexTemplates, teamA, 'traces');
    await waitGone(client, openSearchComponentTemplates, teamA, 'trace-base');
    expect((await os('GET', `/_component_template/${teamA}-trace-base`)).status).toBe(404);
  });

  it('gives a user read on its team’s index and 403 on another team’s, through a role, a user and a binding (the user’s own credentials)', async () => {
    await index(teamB, 'logs', { settings: { numberOfReplicas: 0 } });
    const role: Resource = {
      apiVersion: API_VERSION,
      kind: 'OpenSearchRole',
      metadata: meta(teamA, 'reader', { [`${GROUP}/drift-check-interval`]: '10s' }),
      spec: { connectionRef, clusterPermissions: ['cluster_composite_ops_ro'], indexPermissions: [{ indexPatterns: [`${teamA}-logs*`], allowedActions: ['read'] }] },
    };
    const user: Resource = { apiVersion: API_VERSION, kind: 'OpenSearchUser', metadata: meta(teamA, 'alice'), spec: { connectionRef, attributes: { team: 'a' } } };
    const binding: Resource = {
      apiVersion: API_VERSION,
      kind: 'OpenSearchRoleBinding',
      metadata: meta(teamA, 'alice-reads'),
      spec: { connectionRef, roleRef: { name: 'reader' }, users: [`${teamA}-alice`] },
    };
    await client.create(openSearchRoles, role);
    await client.create(openSearchUsers, user);
    await client.create(openSearchRoleBindings, binding);
    await waitForCondition(client, openSearchRoles, teamA, 'reader', { type: 'Ready', status: 'True' });
    const readyUser = await waitForCondition(client, openSearchUsers, teamA, 'alice', { type: 'Ready', status: 'True' });
    expect(readyUser.status).toMatchObject({ username: `${teamA}-alice`, secretName: 'alice-opensearch-credentials' });
    expect(readyUser.status?.['passwordApplied']).toMatchObject({ fingerprint: expect.stringMatching(/^hmac-sha256:/) as string });
    const readyBinding = await waitForCondition(client, openSearchRoleBindings, teamA, 'alice-reads', { type: 'Ready', status: 'True' });
    expect(readyBinding.status?.['applied']).toEqual({ roleName: `${teamA}-reader`, users: [`${teamA}-alice`], backendRoles: [] });
    await waitForCondition(client, openSearchIndices, teamB, 'logs', { type: 'Ready', status: 'True' });

    const alice = await secretCredentials(teamA, 'alice-opensearch-credentials');
    expect(alice.username).toBe(`${teamA}-alice`);
    expect((await os('GET', `/${teamA}-logs/_search`, undefined, alice)).status).toBe(200);
    expect((await os('GET', `/${teamB}-logs/_search`, undefined, alice)).status).toBe(403);
  });

  it('applies a password rotation: the old password is refused, the new one accepted', async () => {
    const password = strongPassword();
    await client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: teamA, name: 'bob-password' }, stringData: { password } });
    await client.create(openSearchUsers, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchUser',
      metadata: meta(teamA, 'bob'),
      spec: { connectionRef, passwordSecretRef: { name: 'bob-password', key: 'password' } },
    });
    await waitForCondition(client, openSearchUsers, teamA, 'bob', { type: 'Ready', status: 'True' });
    const old = { username: `${teamA}-bob`, password };
    expect((await os('GET', '/_plugins/_security/authinfo', undefined, old)).status).toBe(200);

    const rotated = { username: old.username, password: strongPassword() };
    await client.patch(coreTypes.secret, { namespace: teamA, name: 'bob-password' }, { type: 'merge', body: { stringData: { password: rotated.password } } });
    await eventually('new password accepted', 30_000, async () => (await os('GET', '/_plugins/_security/authinfo', undefined, rotated)).status === 200);
    expect((await os('GET', '/_plugins/_security/authinfo', undefined, old)).status).toBe(401);
  });

  it('picks up a referenced Secret with no label of ours created after the user, and rotates it (metadata-only Secret watch, read by name)', async () => {
    await client.create(openSearchUsers, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchUser',
      metadata: meta(teamA, 'carol'),
      spec: { connectionRef, passwordSecretRef: { name: 'carol-password', key: 'password' } },
    });
    const first = { username: `${teamA}-carol`, password: strongPassword() };
    await client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: teamA, name: 'carol-password' }, stringData: { password: first.password } });
    await waitForCondition(client, openSearchUsers, teamA, 'carol', { type: 'Ready', status: 'True' });
    await eventually('first password accepted', 30_000, async () => (await os('GET', '/_plugins/_security/authinfo', undefined, first)).status === 200);

    const rotated = { username: first.username, password: strongPassword() };
    await client.patch(coreTypes.secret, { namespace: teamA, name: 'carol-password' }, { type: 'merge', body: { stringData: { password: rotated.password } } });
    await eventually('rotated password accepted', 30_000, async () => (await os('GET', '/_plugins/_security/authinfo', undefined, rotated)).status === 200);
    expect((await os('GET', '/_plugins/_security/authinfo', undefined, first)).status).toBe(401);
    const secret = await client.get(coreTypes.secret, { namespace: teamA, name: 'carol-password' });
    expect(secret.metadata?.labels ?? {}).not.toHaveProperty('app.kubernetes.io/managed-by');
  });

  it('puts back a role deleted by hand in OpenSearch (drift), and the user can read again', async () => {
    const roleName = `${teamA}-reader`;
    const alice = await secretCredentials(teamA, 'alice-opensearch-credentials');
    expect((await os('DELETE', `/_plugins/_security/api/roles/${roleName}`)).status).toBe(200);
    // Right after the DELETE the role is gone, unless the 10 s drift check ran in between (seen on a loaded machine):
    // then it is back already, which is what the rest of the test checks.
    const search = (await os('GET', `/${teamA}-logs/_search`, undefined, alice)).status;
    if (search !== 403) expect({ search, role: (await os('GET', `/_plugins/_security/api/roles/${roleName}`)).status }).toEqual({ search: 200, role: 200 });
    await eventually('role recreated', 40_000, async () => (await os('GET', `/_plugins/_security/api/roles/${roleName}`)).status === 200);
    await eventually('alice reads again', 10_000, async () => (await os('GET', `/${teamA}-logs/_search`, undefined, alice)).status === 200);
    // The recorder creates Events without blocking the reconcile, so the Event may land just after the role.
    const driftNotes = async (): Promise<(string | undefined)[]> =>
      (await client.listAll(eventType, { namespace: teamA })).filter((event) => event.regarding.name === 'reader' && event.reason === 'DriftCorrected').map((event) => event.note);
    await eventually('DriftCorrected Event recorded', 10_000, async () => (await driftNotes()).length > 0);
    expect(await driftNotes()).toEqual([`recreated ${connectionName}/${roleName}, which was deleted outside this resource`]);
  });

  it('force-rotate: a new annotation value gives the generated Secret a new password once; the old one is refused, the new one accepted', async () => {
    const old = await secretCredentials(teamA, 'alice-opensearch-credentials');
    await client.patch(openSearchUsers, meta(teamA, 'alice'), { type: 'merge', body: { metadata: { annotations: { 'opensearch.domain-operators.io/force-rotate': 'r1' } } } });
    await eventually('a new generated password', 30_000, async () => (await secretCredentials(teamA, 'alice-opensearch-credentials')).password !== old.password);
    const fresh = await secretCredentials(teamA, 'alice-opensearch-credentials');
    await eventually('the new password accepted', 30_000, async () => (await os('GET', '/_plugins/_security/authinfo', undefined, fresh)).status === 200);
    expect((await os('GET', '/_plugins/_security/authinfo', undefined, old)).status).toBe(401);
    const secret = await client.get(coreTypes.secret, { namespace: teamA, name: 'alice-opensearch-credentials' });
    expect(secret.metadata?.annotations?.['opensearch.domain-operators.io/rotated-for']).toBe('r1');
    expect(JSON.stringify((await client.get(openSearchUsers, meta(teamA, 'alice'))).status)).not.toContain(fresh.password);
  });

  it('refuses tenancy violations with TenancyViolation and writes nothing to OpenSearch', async () => {
    await client.create(openSearchRoles, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchRole',
      metadata: meta(teamA, 'greedy'),
      spec: { connectionRef, indexPermissions: [{ indexPatterns: ['*'], allowedActions: ['read'] }, { indexPatterns: [`${teamB}-*`], allowedActions: ['read'] }] },
    });
    await index(teamA, 'stolen', { indexName: `${teamB}-stolen` });
    await index(outsider, 'logs', {});
    // A backend role outside the prefix: `admin` is mapped to all_access by the demo configuration.
    await client.create(openSearchUsers, { apiVersion: API_VERSION, kind: 'OpenSearchUser', metadata: meta(teamA, 'climber'), spec: { connectionRef, backendRoles: ['admin'] } });
    const greedy = await waitForCondition(client, openSearchRoles, teamA, 'greedy', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(conditionOf(greedy, 'Synced')?.message).toContain(`${teamB}-*`);
    await waitForCondition(client, openSearchIndices, teamA, 'stolen', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    await waitForCondition(client, openSearchIndices, outsider, 'logs', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect((await os('GET', `/_plugins/_security/api/roles/${teamA}-greedy`)).status).toBe(404);
    expect((await os('HEAD', `/${teamB}-stolen`)).status).toBe(404);
    expect((await os('HEAD', `/${outsider}-logs`)).status).toBe(404);
    const climber = await waitForCondition(client, openSearchUsers, teamA, 'climber', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(conditionOf(climber, 'Synced')?.message).toContain('backendRoles[0] "admin"');
    expect((await os('GET', `/_plugins/_security/api/internalusers/${teamA}-climber`)).status).toBe(404);
  });

  it('creates an index refused because its namespace was not selected once the namespace gets the label, untouched', async () => {
    const late = `team-late-${sfx}`;
    await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: late } });
    try {
      await index(late, 'logs', { settings: { numberOfReplicas: 0 } });
      await waitForCondition(client, openSearchIndices, late, 'logs', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
      expect((await os('HEAD', `/${late}-logs`)).status).toBe(404);

      await client.patch(coreTypes.namespace, { namespace: undefined, name: late }, { type: 'merge', body: { metadata: { labels: { 'e2e.domain-operators.io/run': run } } } });
      const ready = await waitForCondition(client, openSearchIndices, late, 'logs', { type: 'Ready', status: 'True' }, 60_000);
      expect(ready.metadata?.generation).toBe(1);
      expect((await os('HEAD', `/${late}-logs`)).status).toBe(200);
    } finally {
      await client.delete(openSearchIndices, { namespace: late, name: 'logs' }).catch(() => undefined);
      await waitGone(client, openSearchIndices, late, 'logs').catch(() => undefined);
      await client.delete(coreTypes.namespace, { namespace: undefined, name: late }).catch(() => undefined);
      await os('DELETE', `/${late}-logs`).catch(() => undefined);
    }
  });

  it('deletes with Retain (the index stays) and Delete (the index and the template go)', async () => {
    await index(teamA, 'scratch', { settings: { numberOfReplicas: 0 }, deletionPolicy: 'Delete' });
    await waitForCondition(client, openSearchIndices, teamA, 'scratch', { type: 'Ready', status: 'True' });
    expect((await os('HEAD', `/${teamA}-scratch`)).status).toBe(200);

    await client.delete(openSearchIndices, { namespace: teamA, name: 'scratch' });
    await client.delete(openSearchIndices, { namespace: teamA, name: 'events-1' });
    await client.delete(openSearchIndices, { namespace: teamA, name: 'events-2' });
    await client.delete(openSearchIndexTemplates, { namespace: teamA, name: 'events' });
    await waitGone(client, openSearchIndices, teamA, 'scratch');
    await waitGone(client, openSearchIndices, teamA, 'events-1');
    await waitGone(client, openSearchIndices, teamA, 'events-2');
    await waitGone(client, openSearchIndexTemplates, teamA, 'events');
    expect((await os('HEAD', `/${teamA}-scratch`)).status).toBe(404);
    expect((await os('HEAD', `/${teamA}-events-1`)).status).toBe(200); // Retain, the default
    expect((await os('GET', `/_index_template/${teamA}-events`)).status).toBe(404);
  });

  it('reports AuthenticationFailed for a connection with wrong credentials, without the password in its status', async () => {
    const wrong = strongPassword();
    await client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: teamA, name: 'wrong-admin' }, stringData: { username: openSearch.admin.username, password: wrong } });
    await client.create(openSearchConnections, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchConnection',
      metadata: { name: `${connectionName}-wrong` },
      spec: { urls: [openSearch.url], credentialsSecretRef: { namespace: teamA, name: 'wrong-admin' } },
    });
    try {
      const refused = await waitForCondition(client, openSearchConnections, undefined, `${connectionName}-wrong`, { type: 'Ready', status: 'False', reason: 'AuthenticationFailed' });
      expect(JSON.stringify(refused.status)).not.toContain(wrong);
    } finally {
      await client.delete(openSearchConnections, { namespace: undefined, name: `${connectionName}-wrong` });
    }
  });

  // The next two control testenv's OpenSearch process: not possible on an existing cluster ($E2E_KUBECONFIG).
  it.skipIf(targetsExistingCluster())('reports OpenSearchUnavailable while OpenSearch is stopped (SIGSTOP) and Ready again after SIGCONT', async () => {
    const pid = Number((await readFile(join(resolvePaths().runDir, 'opensearch', 'opensearch.pid'), 'utf8')).trim());
    expect(Number.isInteger(pid) && pid > 0).toBe(true);
    const t0 = Date.now();
    process.kill(pid, 'SIGSTOP');
    try {
      await waitForCondition(client, openSearchConnections, undefined, connectionName, { type: 'Ready', status: 'False', reason: 'OpenSearchUnavailable' }, 60_000);
      console.log(`OpenSearchUnavailable after ${Date.now() - t0} ms`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const t1 = Date.now();
    await waitForCondition(client, openSearchConnections, undefined, connectionName, { type: 'Ready', status: 'True' }, 90_000);
    console.log(`Ready again ${Date.now() - t1} ms after SIGCONT`);
  });

  it.skipIf(targetsExistingCluster())('reports OpenSearchUnavailable while OpenSearch is killed (SIGKILL) and Ready again once testenv restarts it on its data, with no manual action', async () => {
    // testenv's `up` keeps the data directory of a node that died (it wipes it only without info.json), so the
    // restarted node comes back with its indices and its security index: a real restart, not a new cluster.
    const pidFile = join(resolvePaths().runDir, 'opensearch', 'opensearch.pid');
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(Number.isInteger(pid) && pid > 0).toBe(true);
    const uuidBefore = (await client.get(openSearchIndices, { namespace: teamA, name: 'logs' })).status?.['uuid'];
    const t0 = Date.now();
    process.kill(pid, 'SIGKILL');
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await eventually('the OpenSearch process gone', 30_000, () => Promise.resolve(!alive()));
    const down = await waitForCondition(client, openSearchConnections, undefined, connectionName, { type: 'Ready', status: 'False', reason: 'OpenSearchUnavailable' }, 60_000);
    expect(conditionOf(down, 'Ready')?.message).toMatch(/unreachable/);
    // A connection turning unready wakes the resources on it: the index reports the outage in Synced (Ready stays True
    // by design: the index was not changed, it is the cluster that is away).
    await waitForCondition(client, openSearchIndices, teamA, 'logs', { type: 'Synced', status: 'False', reason: 'OpenSearchUnavailable' }, 60_000);
    console.log(`connection and index OpenSearchUnavailable ${Date.now() - t0} ms after SIGKILL`);

    const t1 = Date.now();
    await ensureTestEnv(['opensearch']);
    console.log(`testenv restarted OpenSearch in ${Date.now() - t1} ms`);
    const t2 = Date.now();
    await waitForCondition(client, openSearchConnections, undefined, connectionName, { type: 'Ready', status: 'True' }, 120_000);
    const index = await waitForCondition(client, openSearchIndices, teamA, 'logs', { type: 'Synced', status: 'True' }, 120_000);
    expect(conditionOf(index, 'Ready')?.status).toBe('True');
    console.log(`connection Ready and index Synced again ${Date.now() - t2} ms after the node served`);
    // The same index (same uuid, not recreated), and the user still authenticates: the data survived the restart.
    expect(index.status?.['uuid']).toBe(uuidBefore);
    expect((await os('HEAD', `/${teamA}-logs`)).status).toBe(200);
    const alice = await secretCredentials(teamA, 'alice-opensearch-credentials');
    expect((await os('GET', `/${teamA}-logs/_search`, undefined, alice)).status).toBe(200);
  });

  it('leaves no OpenSearchUser Secret behind a deleted user (owner reference) and removes the user from OpenSearch', async () => {
    await client.delete(openSearchRoleBindings, { namespace: teamA, name: 'alice-reads' });
    await waitGone(client, openSearchRoleBindings, teamA, 'alice-reads');
    const mapping = await os('GET', `/_plugins/_security/api/rolesmapping/${teamA}-reader`);
    expect(mapping.status).toBe(404); // the binding held the only entry
    await client.delete(openSearchUsers, { namespace: teamA, name: 'alice' });
    await waitGone(client, openSearchUsers, teamA, 'alice');
    expect((await os('GET', `/_plugins/_security/api/internalusers/${teamA}-alice`)).status).toBe(404);
    await eventually('generated Secret garbage-collected', 30_000, async () => {
      try {
        await client.get(coreTypes.secret, { namespace: teamA, name: 'alice-opensearch-credentials' });
        return false;
      } catch (err) {
        return isNotFound(err);
      }
    });
  });

  it('releases Delete resources of a deleted connection with ConnectionGone, leaving OpenSearch alone, so their namespace goes', async () => {
    const gone = `gone-${sfx}`;
    const namespace = `team-gone-${sfx}`;
    await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await client.create(openSearchConnections, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchConnection',
      metadata: { name: gone },
      spec: { urls: [openSearch.url], credentialsSecretRef: { namespace: operator?.namespace ?? '', name: `opensearch-admin-${sfx}` }, tenancy: { indexPrefix: '{namespace}-' } },
    });
    await client.create(openSearchIndices, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchIndex',
      metadata: { namespace, name: 'kept' },
      spec: { connectionRef: { name: gone }, deletionPolicy: 'Delete', settings: { numberOfReplicas: 0 } },
    });
    await client.create(openSearchRoles, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchRole',
      metadata: { namespace, name: 'reader' },
      spec: { connectionRef: { name: gone }, indexPermissions: [{ indexPatterns: [`${namespace}-*`], allowedActions: ['read'] }] },
    });
    await waitForCondition(client, openSearchIndices, namespace, 'kept', { type: 'Ready', status: 'True' }, 90_000);
    await waitForCondition(client, openSearchRoles, namespace, 'reader', { type: 'Ready', status: 'True' }, 90_000);

    await client.delete(openSearchConnections, { namespace: undefined, name: gone });
    await waitGone(client, openSearchConnections, undefined, gone);
    await client.delete(openSearchIndices, { namespace, name: 'kept' });
    await client.delete(openSearchRoles, { namespace, name: 'reader' });
    await waitGone(client, openSearchIndices, namespace, 'kept');
    await waitGone(client, openSearchRoles, namespace, 'reader');
    // Events are sent from a queue after the finalizer is released: wait for both rather than read once.
    const notes = await eventually('two ConnectionGone Events', 30_000, async () => {
      const found = (await client.listAll(eventType, { namespace })).filter((event) => event.reason === 'ConnectionGone').map((event) => event.note ?? '');
      return found.length >= 2 ? found : undefined;
    });
    expect(notes.sort()).toEqual([
      `OpenSearchConnection "${gone}" no longer exists; ${namespace}-kept was not deleted from OpenSearch`,
      `OpenSearchConnection "${gone}" no longer exists; ${namespace}-reader was not deleted from OpenSearch`,
    ]);
    // Nothing was deleted in OpenSearch: there was no connection to delete through.
    expect((await os('HEAD', `/${namespace}-kept`)).status).toBe(200);
    expect((await os('GET', `/_plugins/_security/api/roles/${namespace}-reader`)).status).toBe(200);

    await client.delete(coreTypes.namespace, { namespace: undefined, name: namespace });
    await eventually(`namespace ${namespace} gone`, 60_000, async () => {
      try {
        await client.get(coreTypes.namespace, { namespace: undefined, name: namespace });
        return false;
      } catch (err) {
        return isNotFound(err);
      }
    });
    await os('DELETE', `/${namespace}-kept`);
    await os('DELETE', `/_plugins/_security/api/roles/${namespace}-reader`);
  });
});


/** A plain HTTP request to OpenSearch with the given credentials; the status and the parsed JSON (or text) body. */
async function request(url: string, credentials: Credentials, method: string, path: string, body?: unknown): Promise<{ readonly status: number; readonly body: unknown }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

/** A password the security plugin's default policy accepts. */
function strongPassword(): string {
  return `Op-${randomBytes(12).toString('hex')}!A1`;
}

/** Polls `check` every 250 ms until it returns a value other than `undefined`/`false`; throws naming `what` after `timeoutMs`. */
async function eventually<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last instanceof Error ? ` (last error: ${last.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function conditionOf(object: Resource, type: string): Condition | undefined {
  return object.status?.conditions?.find((condition) => condition.type === type);
}

/** Waits until condition `type` has `status` (and `reason`, when given) for the object's current generation. */
async function waitForCondition(
  client: Client,
  type: ResourceType<Resource>,
  namespace: string | undefined,
  name: string,
  condition: { readonly type: string; readonly status: 'True' | 'False'; readonly reason?: string },
  timeoutMs = 60_000,
): Promise<Resource> {
  let last: Resource | undefined;
  try {
    return await eventually(`${type.kind} ${namespace ?? ''}/${name} ${condition.type}=${condition.status}${condition.reason === undefined ? '' : ` (${condition.reason})`}`, timeoutMs, async () => {
      last = await client.get(type, { namespace, name });
      const found = conditionOf(last, condition.type);
      const generation = last.metadata?.generation;
      const current = found?.observedGeneration === undefined || generation === undefined || found.observedGeneration >= generation;
      return found?.status === condition.status && (condition.reason === undefined || found.reason === condition.reason) && current ? last : undefined;
    });
  } catch (err) {
    const conditions = (last?.status?.conditions ?? []).map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`);
    throw new Error(`${(err as Error).message}; last conditions: ${conditions.join(' | ') || 'none'}`, { cause: err });
  }
}

/** Resolves once the object is gone (404). */
async function waitGone(client: Client, type: ResourceType<Resource>, namespace: string | undefined, name: string, timeoutMs = 60_000): Promise<void> {
  await eventually(`${type.kind} ${namespace ?? ''}/${name} deleted`, timeoutMs, async () => {
    try {
      await client.get(type, { namespace, name });
      return false;
    } catch (err) {
      if (isNotFound(err)) return true;
      throw err;
    }
  });
}
