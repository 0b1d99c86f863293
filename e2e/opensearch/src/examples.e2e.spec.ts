// examples/opensearch applied for real, as a user applies it (`kubectl apply -f examples/opensearch/`, file order,
// through the Kubernetes API), with the opensearch operator running as its chart's ServiceAccount, and checked in
// OpenSearch with independent HTTP requests, some made with the generated user's own login. Only two kinds of
// change are made to the examples: names, so that this run touches nobody else's objects (every namespace gets a
// random suffix, the connection `main` a random name, and the tenant names in the namespace's prefix follow:
// forTestRun), and what is specific to where OpenSearch runs, from the OpenSearch under test: the connection's URL,
// the login Secret's username and password, and TLS (testenv's OpenSearch serves plain HTTP, so the connection's
// `tls` goes; an HTTPS backend keeps it, with its real CA in the CA Secret). Tenancy labels and prefix, bindable
// roles, templates, settings, mappings, aliases, permissions and attributes stay as the examples have them. All
// objects are applied at once, so the operator may meet the index template before its component template exists
// (OpenSearch refuses it; the operator retries it as DependencyNotReady), and deleted at once, so the component
// template may be deleted while the index template still uses it (refused, retried the same way). The snapshot
// repository's `location` is the one path specific to the machine: on testenv it moves under the node's `path.repo`
// (env.json `opensearch.snapshotDir`); an existing cluster, whose path.repo this suite cannot know, runs the examples
// without the three snapshot kinds.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import { adminClient, backendsUnderTest, deleteNamespace, eventually, ExampleRun, kstatusNow, randomSuffix, startOperator, targetsExistingCluster, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, requestFor as request } from '@domain-operators/reconcile';
import type { Client, Condition } from '@domain-operators/reconcile';
import type { OpenSearchInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchLogin, OpenSearchRequest } from './opensearch-http.ts';

/** A custom resource as this suite sees it: spec and status as plain JSON. */
interface Resource extends KubernetesObject {
  spec: Record<string, unknown>;
  status?: { conditions?: readonly Condition[] } & Record<string, unknown>;
}

/** A reference to a key of a Secret, as the connection spells it. */
interface SecretRef {
  namespace: string;
  name: string;
  usernameKey?: string;
  passwordKey?: string;
  key?: string;
}

const suffix = randomSuffix();
const run = new ExampleRun('opensearch', suffix);
const { examples, namespaces } = run;
const resources = run.resources as readonly Resource[];
const secretKey = (namespace: string | undefined, name: string | undefined): string => `${namespace ?? ''}/${name ?? ''}`;

/**
 * The examples with what is specific to where OpenSearch runs taken from `openSearch`: each OpenSearchConnection's
 * URL; the username and password of its login Secret (under the keys the connection names); and TLS: an HTTPS
 * backend with a CA file gets that CA in the CA Secret the connection names, a plain HTTP one (testenv's) a
 * connection without `tls`, since there is nothing to verify. Throws when the examples lack the login Secret, or
 * the backend is HTTPS without a CA file. Pure apart from reading the CA file.
 */
function atOpenSearchUnderTest(objects: readonly KubernetesObject[], openSearch: OpenSearchInfo): KubernetesObject[] {
  const https = openSearch.url.startsWith('https:');
  if (https && openSearch.caFile === undefined) throw new Error('the OpenSearch under test serves HTTPS but names no CA file');
  const connections = objects.filter((object): object is Resource => object.kind === 'OpenSearchConnection');
  const logins = new Map(connections.map((c) => c.spec['credentialsSecretRef'] as SecretRef).map((ref) => [secretKey(ref.namespace, ref.name), ref] as const));
  const cas = new Map(connections.flatMap((c) => ((c.spec['tls'] as { caSecretRef?: SecretRef } | undefined)?.caSecretRef ?? [])).map((ref) => [secretKey(ref.namespace, ref.name), ref] as const));
  const secrets = new Set(objects.filter((object) => object.kind === 'Secret').map((object) => secretKey(object.metadata?.namespace, object.metadata?.name)));
  if (connections.length === 0 || [...logins.keys()].some((key) => !secrets.has(key))) throw new Error('examples/opensearch: expected an OpenSearchConnection and the login Secret it references');
  return objects.map((object) => {
    if (object.kind === 'OpenSearchConnection') {
      const connection = structuredClone(object) as Resource;
      connection.spec['urls'] = [openSearch.url];
      if (!https) delete connection.spec['tls'];
      return connection;
    }
    if (object.kind !== 'Secret') return object;
    const key = secretKey(object.metadata?.namespace, object.metadata?.name);
    const login = logins.get(key);
    const ca = cas.get(key);
    const secret = structuredClone(object) as V1Secret;
    if (login !== undefined) {
      secret.stringData = { ...secret.stringData, [login.usernameKey ?? 'username']: openSearch.adminUser.username, [login.passwordKey ?? 'password']: openSearch.adminUser.password };
    }
    if (ca !== undefined && https && openSearch.caFile !== undefined) secret.stringData = { ...secret.stringData, [ca.key ?? 'ca.crt']: readFileSync(openSearch.caFile, 'utf8') };
    return secret;
  });
}

/** The folders this run's snapshot repositories use (removed at the end). */
const snapshotFolders: string[] = [];

/** The kinds of the snapshot examples, run only where the snapshot folder is known. */
const SNAPSHOT_KINDS: ReadonlySet<string> = new Set(['OpenSearchSnapshotRepository', 'OpenSearchSnapshotPolicy', 'OpenSearchSnapshotRestore']);

/**
 * The examples with the snapshot repository's `location` under `snapshotDir` (its last path element kept, the run's
 * suffix added, and remembered in `snapshotFolders`); without `snapshotDir`, the examples without the snapshot kinds.
 */
function atSnapshotFolder(objects: readonly KubernetesObject[], snapshotDir: string | undefined): KubernetesObject[] {
  if (snapshotDir === undefined) return objects.filter((object) => !SNAPSHOT_KINDS.has(object.kind ?? ''));
  return objects.map((object) => {
    if (object.kind !== 'OpenSearchSnapshotRepository') return object;
    const repository = structuredClone(object) as Resource;
    const settings = (repository.spec['settings'] ?? {}) as Record<string, unknown>;
    const location = settings['location'];
    const folder = (typeof location === 'string' ? location : 'backups').split('/').pop() ?? 'backups';
    const moved = join(snapshotDir, `${folder}-${suffix}`);
    snapshotFolders.push(moved);
    repository.spec['settings'] = { ...settings, location: moved };
    return repository;
  });
}

let client: Client;
let openSearch: OpenSearchInfo;
let snapshotDir: string | undefined;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;
const typeOf = (object: KubernetesObject) => run.typeOf(object);
const only = (kind: string): Resource => run.only(kind) as Resource;
/** The example of `kind` named `name` (for kinds with more than one example). */
const named = (kind: string, name: string): Resource => {
  const found = resources.find((object) => object.kind === kind && object.metadata?.name === name);
  if (found === undefined) throw new Error(`examples/opensearch: no ${kind} ${name}`);
  return found;
};
/** The index template of plain indices (40-opensearchindextemplate.yaml); 67's is the data stream's. */
const logsTemplate = (): Resource => named('OpenSearchIndexTemplate', 'logs');
const gone = (object: KubernetesObject): Promise<boolean> => run.gone(client, object);

/** The name in OpenSearch of a namespaced example: `<namespace>-<name>` (the connection's `indexPrefix`). */
const externalName = (object: KubernetesObject): string => `${object.metadata?.namespace ?? ''}-${object.metadata?.name ?? ''}`;

async function ready(object: Resource): Promise<Resource> {
  return (await waitForCondition(client, typeOf(object), request(object), 'Ready', 'True', 60_000)) as Resource;
}

async function get(path: string, login?: OpenSearchLogin): Promise<Record<string, unknown>> {
  const answer = await os('GET', path, undefined, login);
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body as Record<string, unknown>;
}

beforeAll(async () => {
  client = await adminClient();
  ({ opensearch: openSearch } = await backendsUnderTest(['opensearch']));
  os = openSearchRequests(openSearch);
  operator = await startOperator({ system: 'opensearch' });
  run.useCrds(operator.installation.rendered);
  snapshotDir = targetsExistingCluster() ? undefined : openSearch.snapshotDir;
  await run.apply(client, atSnapshotFolder(atOpenSearchUnderTest(examples, openSearch), snapshotDir));
});

/**
 * Deletes the example's custom resources while the operator runs, so that its finalizers remove what they made in
 * OpenSearch (the example index is Retain: switched to Delete first), all at once as a namespace deletion would: a
 * component template still in use by the index template is refused until that one is gone, and retried. Never
 * rejects.
 */
async function deleteThroughOperator(): Promise<void> {
  const namespaced = resources.filter((object) => object.metadata?.namespace !== undefined);
  try {
    for (const object of namespaced.filter((o) => o.kind === 'OpenSearchIndex')) {
      await client.patch(typeOf(object), request(object), { type: 'merge', body: { spec: { deletionPolicy: 'Delete' } } }).catch(() => undefined);
    }
    for (const object of namespaced) await client.delete(typeOf(object), request(object)).catch(() => undefined);
    for (const object of namespaced) {
      await eventually(async () => ((await gone(object)) ? true : undefined), { timeoutMs: 60_000, what: `${object.kind ?? ''} ${object.metadata?.name ?? ''} deleted` });
    }
  } catch (err) {
    console.warn(`examples/opensearch clean-up through the operator: ${String(err)}`);
  }
}

afterAll(async () => {
  if (operator !== undefined) {
    await deleteThroughOperator();
    await operator.stop();
  }
  // Nobody releases a finalizer left after the operator stopped: remove them, so that the namespace goes.
  for (const object of resources.filter((o) => o.metadata?.namespace !== undefined)) {
    await client.patch(typeOf(object), request(object), { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
  }
  for (const object of resources.filter((o) => o.metadata?.namespace === undefined)) await client.delete(typeOf(object), request(object)).catch(() => undefined);
  // The repository is Retain: unregister it here, and remove its folder with the snapshots the policy took.
  for (const repository of resources.filter((o) => o.kind === 'OpenSearchSnapshotRepository')) await os('DELETE', `/_snapshot/${repository.metadata?.name ?? ''}`).catch(() => undefined);
  for (const folder of snapshotFolders) await rm(folder, { recursive: true, force: true });
  for (const namespace of namespaces) await deleteNamespace(namespace);
  // Whatever a failed step left behind in OpenSearch (the index made by hand below included).
  const tenant = only('OpenSearchIndex').metadata?.namespace ?? '';
  await os('DELETE', `/_data_stream/${tenant}-*`).catch(() => undefined);
  await os('DELETE', `/${tenant}-*`).catch(() => undefined);
  await os('DELETE', `/_index_template/${tenant}-*`).catch(() => undefined);
  await os('DELETE', `/_component_template/${tenant}-*`).catch(() => undefined);
  // The tenant is Retain: it stays after the deletion test, and goes here.
  for (const kind of ['OpenSearchRoleBinding', 'OpenSearchRole', 'OpenSearchUser', 'OpenSearchActionGroup', 'OpenSearchTenant'] as const) {
    const path = { OpenSearchRoleBinding: 'rolesmapping', OpenSearchRole: 'roles', OpenSearchUser: 'internalusers', OpenSearchActionGroup: 'actiongroups', OpenSearchTenant: 'tenants' }[kind];
    const name = kind === 'OpenSearchRoleBinding' ? externalName(only('OpenSearchRole')) : externalName(only(kind));
    await os('DELETE', `/_plugins/_security/api/${path}/${name}`).catch(() => undefined);
  }
});

describe('examples/opensearch applied for real', () => {
  it('has every custom resource Ready=True at its current generation', async () => {
    expect(resources.map((object) => object.kind).sort()).toEqual([
      'OpenSearchActionGroup',
      'OpenSearchComponentTemplate',
      'OpenSearchConnection',
      'OpenSearchDataStream',
      'OpenSearchIndex',
      'OpenSearchIndexTemplate',
      'OpenSearchIndexTemplate',
      'OpenSearchRole',
      'OpenSearchRoleBinding',
      ...(snapshotDir === undefined ? [] : ['OpenSearchSnapshotPolicy', 'OpenSearchSnapshotRepository', 'OpenSearchSnapshotRestore']),
      'OpenSearchTenant',
      'OpenSearchUser',
    ]);
    // A restore of the policy's newest snapshot waits for the snapshot the policy's snapshot-now takes.
    await Promise.all(resources.map((object) => (SNAPSHOT_KINDS.has(object.kind ?? '') ? waitForCondition(client, typeOf(object), request(object), 'Ready', 'True', 240_000) : ready(object))));
  });

  it.skipIf(targetsExistingCluster())(
    "snapshots: the repository verified, the policy's snapshot-now snapshot listed by OpenSearch, and the restore drill's index beside the live one",
    async () => {
      const repository = (await waitForCondition(client, typeOf(only('OpenSearchSnapshotRepository')), request(only('OpenSearchSnapshotRepository')), 'Ready', 'True', 240_000)) as Resource;
      expect((repository.status as { verifiedNodes?: string[] } | undefined)?.verifiedNodes?.length).toBeGreaterThan(0);
      const name = repository.metadata?.name ?? '';
      const policy = (await waitForCondition(client, typeOf(only('OpenSearchSnapshotPolicy')), request(only('OpenSearchSnapshotPolicy')), 'Ready', 'True', 240_000)) as Resource;
      const last = (policy.status as { lastSnapshot?: { name: string; state: string } } | undefined)?.lastSnapshot;
      expect(last?.state).toBe('SUCCESS');
      expect(last?.name).toMatch(new RegExp(`^${policy.metadata?.namespace ?? ''}-nightly-[0-9]{14}$`));
      const listed = (await get(`/_snapshot/${name}/${last?.name ?? ''}`)) as { snapshots: { snapshot: string; state: string; indices: string[] }[] };
      const live = externalName(only('OpenSearchIndex'));
      expect(listed.snapshots.map((x) => [x.snapshot, x.state])).toEqual([[last?.name, 'SUCCESS']]);
      expect(listed.snapshots[0]?.indices).toContain(live);

      const restore = (await waitForCondition(client, typeOf(only('OpenSearchSnapshotRestore')), request(only('OpenSearchSnapshotRestore')), 'Ready', 'True', 240_000)) as Resource;
      const restored = live.replace(/^(.+?-)orders$/, '$1restored-orders');
      expect(restore.status).toMatchObject({ phase: 'Succeeded', snapshot: last?.name, restoredIndices: [restored] });
      const settings = (await get(`/${restored}/_settings`)) as Record<string, { settings: { index: { number_of_replicas: string } } }>;
      expect(settings[restored]?.settings.index.number_of_replicas).toBe('0');
      const counts = await Promise.all([live, restored].map(async (index) => ((await get(`/${index}/_count`)) as { count: number }).count));
      expect(counts[1]).toBe(counts[0]);
    },
  );


  it('kstatus, as Flux and kpt run it, calls every example Current once Ready', async () => {
    const reading = await kstatusNow(client, resources, typeOf, 'Current');
    expect(reading.others).toEqual([]);
    expect(reading.all).toHaveLength(resources.length);
  });
  it('OpenSearchConnection: reports the cluster name and version OpenSearch itself reports, with the security plugin', async () => {
    const connection = await ready(only('OpenSearchConnection'));
    const root = (await get('/')) as { cluster_name: string; version: { number: string } };
    expect(connection.status).toMatchObject({ clusterName: root.cluster_name, version: root.version.number, securityPlugin: true });
  });

  it("OpenSearchComponentTemplate: the component template exists under the namespace's prefix with the example's mappings", async () => {
    const example = only('OpenSearchComponentTemplate');
    await ready(example);
    const body = (await get(`/_component_template/${externalName(example)}`)) as { component_templates: { name: string; component_template: { template: { mappings?: unknown } } }[] };
    expect(body.component_templates.map((t) => t.name)).toEqual([externalName(example)]);
    expect(body.component_templates[0]?.component_template.template.mappings).toEqual((example.spec['template'] as { mappings: unknown }).mappings);
  });

  it('OpenSearchIndexTemplate: the index template exists with its patterns, component, priority, settings and alias, and shapes a new matching index', async () => {
    const example = logsTemplate();
    const component = only('OpenSearchComponentTemplate');
    await ready(example);
    const spec = example.spec as { indexPatterns: string[]; composedOf: string[]; priority: number; template: { aliases: Record<string, unknown> } };
    const body = (await get(`/_index_template/${externalName(example)}`)) as {
      index_templates: { index_template: { index_patterns: string[]; composed_of: string[]; priority: number; template: { settings: { index: Record<string, string> }; aliases: Record<string, unknown> } } }[];
    };
    const template = body.index_templates[0]?.index_template;
    expect(template).toMatchObject({ index_patterns: spec.indexPatterns, composed_of: [externalName(component)], priority: spec.priority });
    expect(spec.composedOf).toEqual([externalName(component)]);
    expect(template?.template.settings.index).toMatchObject({ number_of_shards: '1', number_of_replicas: '1', refresh_interval: '30s' });
    expect(Object.keys(template?.template.aliases ?? {})).toEqual(Object.keys(spec.template.aliases));

    // An index created by hand under the pattern gets the component's mapping and the alias.
    const pattern = spec.indexPatterns[0] ?? '';
    const index = pattern.replace('*', `e2e-${suffix}`);
    expect((await os('PUT', `/${index}`)).status).toBe(200);
    const mapping = (await get(`/${index}/_mapping`)) as Record<string, { mappings: unknown }>;
    expect(mapping[index]?.mappings).toEqual((component.spec['template'] as { mappings: unknown }).mappings);
    expect(Object.keys(((await get(`/${index}/_alias`)) as Record<string, { aliases: Record<string, unknown> }>)[index]?.aliases ?? {})).toEqual(Object.keys(spec.template.aliases));
  });

  it('OpenSearchDataStream: the data stream exists through its data-stream template, takes a write through its name and reports its backing index', async () => {
    const example = only('OpenSearchDataStream');
    const name = externalName(example);
    const status = (await ready(example)).status;
    expect(status).toMatchObject({ dataStreamName: name, generation: 1, backingIndices: [`.ds-${name}-000001`], template: externalName(named('OpenSearchIndexTemplate', 'app-logs')) });
    const streams = (await get(`/_data_stream/${name}`)) as { data_streams: { name: string; indices: { index_name: string }[] }[] };
    expect(streams.data_streams.map((s) => s.indices.map((i) => i.index_name))).toEqual([[`.ds-${name}-000001`]]);
    const written = await os('POST', `/${name}/_doc?refresh=true`, { '@timestamp': new Date().toISOString(), message: 'hello' });
    expect(written.status).toBe(201);
    expect((written.body as { _index: string })._index).toBe(`.ds-${name}-000001`);
  });

  it("OpenSearchIndex: the index exists under the namespace's prefix with the example's shards, replicas, mappings and alias", async () => {
    const example = only('OpenSearchIndex');
    const status = (await ready(example)).status;
    const name = externalName(example);
    const spec = example.spec as { settings: { numberOfShards: number; numberOfReplicas: number }; mappings: { properties: unknown }; aliases: Record<string, unknown> };
    expect(status).toMatchObject({ indexName: name });
    const settings = (await get(`/${name}/_settings?flat_settings=true`)) as Record<string, { settings: Record<string, string> }>;
    expect(settings[name]?.settings).toMatchObject({ 'index.number_of_shards': String(spec.settings.numberOfShards), 'index.number_of_replicas': String(spec.settings.numberOfReplicas) });
    const mapping = (await get(`/${name}/_mapping`)) as Record<string, { mappings: { properties: unknown } }>;
    expect(mapping[name]?.mappings.properties).toEqual(spec.mappings.properties);
    const aliases = (await get(`/${name}/_alias`)) as Record<string, { aliases: Record<string, unknown> }>;
    expect(Object.keys(aliases[name]?.aliases ?? {})).toEqual(Object.keys(spec.aliases));
  });

  it("OpenSearchRole: the security role exists with the example's cluster, index and tenant permissions, naming the example's action group and tenant", async () => {
    const example = only('OpenSearchRole');
    await ready(example);
    const body = (await get(`/_plugins/_security/api/roles/${externalName(example)}`)) as Record<
      string,
      { cluster_permissions: string[]; index_permissions: { index_patterns: string[]; allowed_actions: string[] }[]; tenant_permissions: { tenant_patterns: string[]; allowed_actions: string[] }[] }
    >;
    const spec = example.spec as {
      clusterPermissions: string[];
      indexPermissions: { indexPatterns: string[]; allowedActions: string[] }[];
      tenantPermissions: { tenantPatterns: string[]; allowedActions: string[] }[];
    };
    expect(body[externalName(example)]).toMatchObject({
      cluster_permissions: spec.clusterPermissions,
      index_permissions: spec.indexPermissions.map((p) => ({ index_patterns: p.indexPatterns, allowed_actions: p.allowedActions })),
      tenant_permissions: spec.tenantPermissions.map((p) => ({ tenant_patterns: p.tenantPatterns, allowed_actions: p.allowedActions })),
    });
    expect(spec.indexPermissions.flatMap((p) => p.allowedActions)).toContain(externalName(only('OpenSearchActionGroup')));
    expect(spec.tenantPermissions.flatMap((p) => p.tenantPatterns)).toContain(externalName(only('OpenSearchTenant')));
  });

  it("OpenSearchActionGroup and OpenSearchTenant: both exist under the namespace's prefix with the example's type, actions and descriptions", async () => {
    const group = only('OpenSearchActionGroup');
    const tenant = only('OpenSearchTenant');
    expect((await ready(group)).status).toMatchObject({ actionGroupName: externalName(group), ownership: 'Created' });
    expect((await ready(tenant)).status).toMatchObject({ tenantName: externalName(tenant), ownership: 'Created' });
    const groups = (await get(`/_plugins/_security/api/actiongroups/${externalName(group)}`)) as Record<string, { type: string; allowed_actions: string[]; description: string }>;
    expect(groups[externalName(group)]).toMatchObject({ type: group.spec['type'], allowed_actions: group.spec['allowedActions'], description: group.spec['description'] });
    const tenants = (await get(`/_plugins/_security/api/tenants/${externalName(tenant)}`)) as Record<string, { description: string }>;
    expect(tenants[externalName(tenant)]?.description).toBe(tenant.spec['description']);
  });

  it('OpenSearchUser and OpenSearchRoleBinding: the generated login authenticates, holds the bound role, reads its index and nothing outside the role', async () => {
    const user = only('OpenSearchUser');
    const binding = only('OpenSearchRoleBinding');
    const role = only('OpenSearchRole');
    const readyUser = await ready(user);
    await ready(binding);
    const secret = await client.get(coreTypes.secret, { namespace: user.metadata?.namespace, name: (readyUser.status?.['secretName'] as string | undefined) ?? '' });
    const value = (key: string): string => Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
    const login = { username: value('username'), password: value('password') };
    expect(login.username).toBe(externalName(user));
    expect(login.password).not.toBe('');

    const internalUser = (await get(`/_plugins/_security/api/internalusers/${login.username}`)) as Record<string, { attributes: Record<string, string> }>;
    expect(internalUser[login.username]?.attributes).toEqual(user.spec['attributes']);
    const mapping = (await get(`/_plugins/_security/api/rolesmapping/${externalName(role)}`)) as Record<string, { users: string[] }>;
    expect(mapping[externalName(role)]?.users).toEqual(binding.spec['users']);
    expect(binding.spec['users']).toEqual([login.username]);

    const authinfo = await eventually(
      async () => {
        const info = (await get('/_plugins/_security/authinfo', login)) as { user_name: string; roles: string[] };
        return info.roles.includes(externalName(role)) ? info : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: `${login.username} holding ${externalName(role)}` },
    );
    expect(authinfo.user_name).toBe(login.username);
    expect((await os('GET', `/_plugins/_security/authinfo`, undefined, { ...login, password: `${login.password}-wrong` })).status).toBe(401);
    // The role's actions are the action group's: search, yes; a get by id or a write, no. Its tenant, read-only.
    expect((await os('GET', `/${externalName(only('OpenSearchIndex'))}/_search`, undefined, login)).status).toBe(200);
    expect((await os('GET', `/${externalName(only('OpenSearchIndex'))}/_doc/1`, undefined, login)).status).toBe(403);
    expect((await os('PUT', `/${externalName(only('OpenSearchIndex'))}/_doc/1`, { total: 1 }, login)).status).toBe(403);
    expect((await os('GET', `/ex-outside-${suffix}/_search`, undefined, login)).status).toBe(403);
    const tenants = ((await get('/_plugins/_security/authinfo', login)) as { tenants?: Record<string, boolean> }).tenants ?? {};
    expect(tenants[externalName(only('OpenSearchTenant'))]).toBe(false);
  });

  it('deleted all at once (the index switched to Delete), every resource goes and so does its object in OpenSearch (the component template after the index template that uses it), but the Retain data stream, its template and the tenant', async () => {
    const namespaced = resources.filter((object) => object.metadata?.namespace !== undefined);
    const index = only('OpenSearchIndex');
    await client.patch(typeOf(index), request(index), { type: 'merge', body: { spec: { deletionPolicy: 'Delete' } } });
    await eventually(async () => ((await client.get(typeOf(index), request(index))).metadata?.finalizers?.length === 1 ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the index to carry the finalizer once it is Delete',
    });
    for (const object of namespaced) await client.delete(typeOf(object), request(object));
    for (const object of namespaced) {
      await eventually(async () => ((await gone(object)) ? true : undefined), { timeoutMs: 60_000, what: `${object.kind ?? ''} ${object.metadata?.name ?? ''} deleted` });
    }
    const missing = async (path: string): Promise<boolean> => (await os('GET', path)).status === 404;
    expect(await missing(`/_component_template/${externalName(only('OpenSearchComponentTemplate'))}`)).toBe(true);
    expect(await missing(`/_index_template/${externalName(logsTemplate())}`)).toBe(true);
    expect(await missing(`/${externalName(index)}`)).toBe(true);
    expect(await missing(`/_plugins/_security/api/roles/${externalName(only('OpenSearchRole'))}`)).toBe(true);
    expect(await missing(`/_plugins/_security/api/internalusers/${externalName(only('OpenSearchUser'))}`)).toBe(true);
    expect(await missing(`/_plugins/_security/api/actiongroups/${externalName(only('OpenSearchActionGroup'))}`)).toBe(true);
    // The data stream and the tenant are Retain (the examples' and the defaults): they stay.
    expect(await missing(`/_data_stream/${externalName(only('OpenSearchDataStream'))}`)).toBe(false);
    expect(await missing(`/_index_template/${externalName(named('OpenSearchIndexTemplate', 'app-logs'))}`)).toBe(false);
    expect(await missing(`/_plugins/_security/api/tenants/${externalName(only('OpenSearchTenant'))}`)).toBe(false);
  });
});
