// What a watcher (kstatus, `kubectl wait`, Argo CD) sees of a spec change of each managed OpenSearch kind: every
// version the apiserver sent while the resource was created and then changed is recorded; none may name an
// observedGeneration that a condition does not carry, and some version must be current at the new generation (so the
// check is not vacuous). Once the resource is current at the new generation, OpenSearch is asked at once (an
// independent HTTP request) whether the change is really there.
import type { KubeConfig } from '@kubernetes/client-node';
import { adminConnection, backendsUnderTest, deleteNamespace, eventually, freshNamespace, generationLies, kstatusReading, randomSuffix, startOperator, waitForCondition, watchStatuses } from '@domain-operators/e2e-harness';
import type { OperatorProcess, WatchedVersion } from '@domain-operators/e2e-harness';
import { coreTypes, getCondition } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenSearchRequest } from './opensearch-http.ts';
import { openSearchRequests } from './opensearch-http.ts';
import { API_VERSION, openSearchComponentTemplates, openSearchConnections, openSearchIndexTemplates, openSearchIndices, openSearchRoleBindings, openSearchRoles, openSearchUsers } from './kinds.ts';
import type { Resource } from './kinds.ts';


/** Deleted in this order at the end (bindings before their role). */
const MANAGED = [openSearchRoleBindings, openSearchUsers, openSearchRoles, openSearchIndices, openSearchIndexTemplates, openSearchComponentTemplates];

const READY_MS = 60_000;
const connection = `e2e-gen-${randomSuffix()}`;

let client: Client;
let kubeConfig: KubeConfig;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;
let ns = '';

/** Current at `generation`, as kstatus judges it: observedGeneration there and Ready=True computed from it. */
function currentAt(object: Resource, generation: number): boolean {
  const ready = getCondition(object.status?.conditions, 'Ready');
  return object.status?.observedGeneration === generation && ready?.status === 'True' && ready.observedGeneration === generation;
}

/** The same judgement of a watched version. */
function versionCurrentAt(version: WatchedVersion, generation: number): boolean {
  const ready = version.conditions.find((c) => c.type === 'Ready');
  return version.observedGeneration === generation && ready?.status === 'True' && ready.observedGeneration === generation;
}

/** Resolves with the object once it is current at `generation`; rejects after {@link READY_MS}. */
function currentAtGeneration(type: ResourceType<Resource>, name: string, generation: number): Promise<Resource> {
  return eventually(
    async () => {
      const object = await client.get(type, { namespace: ns, name });
      return currentAt(object, generation) ? object : undefined;
    },
    { timeoutMs: READY_MS, intervalMs: 100, what: `${type.kind} ${ns}/${name} Ready at generation ${generation}` },
  );
}

/**
 * Records every version of `type` in the namespace while `object` is created (and made Ready at generation 1) and
 * its spec then patched with `change`; waits until it is current at the generation the patch gave it, runs
 * `applied` at once (the moment a watcher would call it done), then stops the watch and checks what it saw.
 */
async function createChangeAndWatch(type: ResourceType<Resource>, object: Resource, change: Record<string, unknown>, applied: () => Promise<void>): Promise<void> {
  const name = object.metadata?.name ?? '';
  const watch = await watchStatuses(kubeConfig, type, ns);
  let generation = 0;
  let versions: readonly WatchedVersion[];
  try {
    await client.create(type, object);
    await currentAtGeneration(type, name, 1);
    generation = (await client.patch(type, { namespace: ns, name }, { type: 'merge', body: { spec: change } })).metadata?.generation ?? 0;
    await currentAtGeneration(type, name, generation);
    await applied();
  } finally {
    versions = (await watch.stop()).filter((v) => v.name === name);
  }
  expect(generation).toBe(2);
  expect(generationLies(versions)).toEqual([]);
  expect(versions.some((v) => v.observedGeneration === generation)).toBe(true);
  expect(versions.some((v) => versionCurrentAt(v, generation))).toBe(true);
  // The real kstatus (Flux, kpt): never Current before the change is applied, InProgress while it is in flight.
  const reading = await kstatusReading(versions, generation);
  expect(reading.lies).toEqual([]);
  expect(reading.inProgress).toBeGreaterThan(0);
  console.info(`${type.kind} ${name}: ${versions.length} version(s) watched; generation ${generation} current in version ${versions.findIndex((v) => versionCurrentAt(v, generation)) + 1}`);
}

function resource(kindName: string, name: string, spec: Record<string, unknown>): Resource {
  return { apiVersion: API_VERSION, kind: kindName, metadata: { namespace: ns, name }, spec: { connectionRef: { name: connection }, ...spec } };
}

/** The body of a 200 answer of OpenSearch; throws on another status. */
async function found(path: string): Promise<Record<string, unknown>> {
  const answer = await os('GET', path);
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
  return answer.body as Record<string, unknown>;
}

beforeAll(async () => {
  const backends = await backendsUnderTest(['opensearch']);
  os = openSearchRequests(backends.opensearch);
  const admin = await adminConnection();
  client = admin.client;
  kubeConfig = admin.kubeConfig;
  ns = await freshNamespace({}, 'e2e-os-gen');
  await client.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: ns, name: 'opensearch-admin' },
    stringData: { username: backends.opensearch.adminUser.username, password: backends.opensearch.adminUser.password },
  });
  await client.create(openSearchConnections, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchConnection',
    metadata: { name: connection },
    spec: { urls: [backends.opensearch.url], credentialsSecretRef: { namespace: ns, name: 'opensearch-admin' }, tenancy: { indexPrefix: '{namespace}-' } },
  });
  // Only this namespace (connections are cluster-scoped and always watched): other suites' objects stay out.
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '10s' }, values: { watchNamespaces: [ns] } });
  await waitForCondition(client, openSearchConnections, { namespace: undefined, name: connection }, 'Ready', 'True', 90_000);
});

afterAll(async () => {
  // Custom resources first, while the operator still runs to release their finalizers (templates, roles, bindings
  // and users are deleted from OpenSearch with them; the index is retained and deleted below).
  if (ns !== '') {
    for (const type of MANAGED) {
      for (const item of await client.listAll(type, { namespace: ns }).catch(() => [])) await client.delete(type, { namespace: ns, name: item.metadata?.name ?? '' }).catch(() => undefined);
      await eventually(async () => ((await client.listAll(type, { namespace: ns })).length === 0 ? true : undefined), { timeoutMs: 60_000, what: `${type.plural} in ${ns} gone` }).catch(() => undefined);
    }
    await deleteNamespace(ns);
  }
  await operator?.stop();
  await client.delete(openSearchConnections, { namespace: undefined, name: connection }).catch(() => undefined);
  if (ns !== '') await os('DELETE', `/${ns}-*`).catch(() => undefined);
});

describe('status at a new generation, as a watcher sees it', () => {
  it('OpenSearchIndex, a replica change and a new mapping field (the reported case): current only once both are in the index', async () => {
    await createChangeAndWatch(
      openSearchIndices,
      resource('OpenSearchIndex', 'logs', { settings: { numberOfShards: 1, numberOfReplicas: 0 }, mappings: { properties: { message: { type: 'text' } } } }),
      { settings: { numberOfShards: 1, numberOfReplicas: 1 }, mappings: { properties: { message: { type: 'text' }, host: { type: 'keyword' } } } },
      async () => {
        const settings = (await found(`/${ns}-logs/_settings?flat_settings=true`))[`${ns}-logs`] as { settings: Record<string, unknown> };
        expect(settings.settings['index.number_of_replicas']).toBe('1');
        const mapping = (await found(`/${ns}-logs/_mapping`))[`${ns}-logs`] as { mappings: { properties: Record<string, { type: string }> } };
        expect(mapping.mappings.properties['host']).toEqual({ type: 'keyword' });
      },
    );
  });

  it('OpenSearchIndexTemplate, a new shard count and priority: current only once the template has them', async () => {
    await createChangeAndWatch(
      openSearchIndexTemplates,
      resource('OpenSearchIndexTemplate', 'events', { indexPatterns: [`${ns}-events-*`], template: { settings: { numberOfShards: 1 } }, priority: 10 }),
      { template: { settings: { numberOfShards: 2 } }, priority: 20 },
      async () => {
        const [entry] = (await found(`/_index_template/${ns}-events`))['index_templates'] as { index_template: { priority: number; template: { settings: { index: Record<string, unknown> } } } }[];
        expect(entry?.index_template.priority).toBe(20);
        expect(entry?.index_template.template.settings.index['number_of_shards']).toBe('2');
      },
    );
  });

  it('OpenSearchComponentTemplate, a new mapping field: current only once the component template has it', async () => {
    await createChangeAndWatch(
      openSearchComponentTemplates,
      resource('OpenSearchComponentTemplate', 'timestamps', { template: { mappings: { properties: { '@timestamp': { type: 'date' } } } } }),
      { template: { mappings: { properties: { '@timestamp': { type: 'date' }, zone: { type: 'keyword' } } } } },
      async () => {
        const [entry] = (await found(`/_component_template/${ns}-timestamps`))['component_templates'] as { component_template: { template: { mappings: { properties: Record<string, unknown> } } } }[];
        expect(entry?.component_template.template.mappings.properties['zone']).toEqual({ type: 'keyword' });
      },
    );
  });

  it('OpenSearchRole, an added action: current only once the role has it', async () => {
    await createChangeAndWatch(
      openSearchRoles,
      resource('OpenSearchRole', 'reader', { indexPermissions: [{ indexPatterns: [`${ns}-logs*`], allowedActions: ['read'] }] }),
      { indexPermissions: [{ indexPatterns: [`${ns}-logs*`], allowedActions: ['read', 'write'] }] },
      async () => {
        const role = (await found(`/_plugins/_security/api/roles/${ns}-reader`))[`${ns}-reader`] as { index_permissions: { allowed_actions: string[] }[] };
        expect(role.index_permissions[0]?.allowed_actions.sort()).toEqual(['read', 'write']);
      },
    );
  });

  it('OpenSearchRoleBinding, an added user: current only once the role mapping has it', async () => {
    await createChangeAndWatch(
      openSearchRoleBindings,
      resource('OpenSearchRoleBinding', 'readers', { roleRef: { name: 'reader' }, users: [`${ns}-alice`] }),
      { users: [`${ns}-alice`, `${ns}-bob`] },
      async () => {
        const mapping = (await found(`/_plugins/_security/api/rolesmapping/${ns}-reader`))[`${ns}-reader`] as { users: string[] };
        expect(mapping.users.sort()).toEqual([`${ns}-alice`, `${ns}-bob`]);
      },
    );
  });

  it('OpenSearchUser, changed attributes: current only once the user has them', async () => {
    await createChangeAndWatch(openSearchUsers, resource('OpenSearchUser', 'carol', { attributes: { team: 'a' } }), { attributes: { team: 'b' } }, async () => {
      const user = (await found(`/_plugins/_security/api/internalusers/${ns}-carol`))[`${ns}-carol`] as { attributes: Record<string, string> };
      expect(user.attributes).toEqual({ team: 'b' });
    });
  });
});
