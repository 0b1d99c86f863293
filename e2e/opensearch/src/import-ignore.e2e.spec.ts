// Observe-only import and a connection's ignored names end to end (issue #30), on OpenSearch: the bundle run as its
// chart's ServiceAccount against testenv's apiserver and OpenSearch node. An index another tool made is read into
// status and never written while `opensearch.domain-operators.io/observe-only: "true"` is set, nothing is deleted with
// its resource, and swapping the annotation for adopt applies the spec; an index named by the connection's
// `spec.ignoredNames` is refused with IgnoredName (kstatus: Failed) and never created.
import { randomBytes } from 'node:crypto';
import { adminClient, backendsUnderTest, eventually, kstatus, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminConnection } from './admin-connection.ts';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchRequest } from './opensearch-http.ts';
import { API_VERSION, GROUP, openSearchConnections, openSearchIndices } from './kinds.ts';
import type { Resource } from './kinds.ts';

const sfx = randomBytes(3).toString('hex');
const team = `team-i-${sfx}`;
const connectionName = `e2e-import-${sfx}`;
const OBSERVE_ONLY = `${GROUP}/observe-only`;

let client: Client;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;

const index = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): Resource => ({
  apiVersion: API_VERSION,
  kind: 'OpenSearchIndex',
  metadata: { namespace: team, name, ...(annotations === undefined ? {} : { annotations }) },
  spec: { connectionRef: { name: connectionName }, ...spec },
});

/** The condition `type` of the index once it is `status` with `reason` at the object's current generation. */
async function condition(name: string, type: string, status: 'True' | 'False', reason: string): Promise<{ object: Resource; message: string }> {
  let last: Resource | undefined;
  return eventually(
    async () => {
      last = await client.get(openSearchIndices, { namespace: team, name });
      const found = last.status?.conditions?.find((c) => c.type === type);
      const current = found?.observedGeneration === undefined || found.observedGeneration >= (last.metadata?.generation ?? 0);
      return found?.status === status && found.reason === reason && current ? { object: last, message: found.message } : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, what: `OpenSearchIndex ${team}/${name} ${type}=${status} ${reason} (last: ${JSON.stringify(last?.status?.conditions ?? [])})` },
  );
}

/** The index's `refresh_interval` as OpenSearch holds it; `undefined` when the index does not exist. */
async function refreshInterval(name: string): Promise<string | undefined> {
  const answer = await os('GET', `/${name}/_settings/index.refresh_interval`);
  if (answer.status === 404) return undefined;
  expect(answer.status).toBe(200);
  const body = answer.body as Record<string, { settings?: { index?: { refresh_interval?: string } } }>;
  return body[name]?.settings?.index?.refresh_interval ?? 'default';
}

beforeAll(async () => {
  const backends = await backendsUnderTest(['opensearch']);
  os = openSearchRequests(backends.opensearch);
  client = await adminClient();
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '5s' } });
  await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: team } });
  await createAdminConnection(client, backends.opensearch, {
    name: connectionName,
    secretNamespace: operator.namespace,
    secretName: `opensearch-admin-${sfx}`,
    spec: {
      ignoredNames: [`${team}-legacy-*`],
      tenancy: { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': team } } },
    },
  });
});

afterAll(async () => {
  for (const item of await client.listAll(openSearchIndices, { namespace: team }).catch(() => [])) await client.delete(openSearchIndices, { namespace: team, name: item.metadata?.name ?? '' }).catch(() => undefined);
  await eventually(async () => ((await client.listAll(openSearchIndices, { namespace: team })).length === 0 ? true : undefined), { timeoutMs: 60_000, what: 'indices gone' }).catch(() => undefined);
  await operator?.stop();
  await client.delete(openSearchConnections, { namespace: undefined, name: connectionName }).catch(() => undefined);
  await client.delete(coreTypes.namespace, { namespace: undefined, name: team }).catch(() => undefined);
  await os('DELETE', `/${team}-*`).catch(() => undefined);
});

describe('observe-only import and ignored names against the real OpenSearch', () => {
  it('imports an index another tool made: its facts in status, nothing written, nothing deleted with it; then adopted', async () => {
    const name = `${team}-theirs`;
    expect((await os('PUT', `/${name}`, { settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '30s' } })).status).toBe(200);
    const spec = { settings: { numberOfShards: 1, numberOfReplicas: 0, refreshInterval: '1s' }, deletionPolicy: 'Delete' };
    await client.create(openSearchIndices, index('theirs', spec, { [OBSERVE_ONLY]: 'true' }));

    const synced = await condition('theirs', 'Synced', 'True', 'Observed');
    expect(synced.message).toContain('refresh_interval');
    const ready = await condition('theirs', 'Ready', 'True', 'Available');
    expect(ready.object.status).toMatchObject({ indexName: name, uuid: expect.any(String) as string });
    expect(ready.object.status?.['ownership']).toBeUndefined();
    expect(ready.object.metadata?.finalizers ?? []).toEqual([]);
    expect((await kstatus([ready.object]))[0]?.status).toBe('Current');
    expect(await refreshInterval(name)).toBe('30s');

    // Adopted: the annotation swapped for adopt, the spec is applied (refresh_interval 30s → 1s) and the index is ours.
    await client.patch(openSearchIndices, { namespace: team, name: 'theirs' }, { type: 'merge', body: { metadata: { annotations: { [OBSERVE_ONLY]: null, [`${GROUP}/adopt`]: 'true' } } } });
    await eventually(async () => ((await refreshInterval(name)) === '1s' ? true : undefined), { timeoutMs: 60_000, intervalMs: 250, what: `index ${name} adopted: refresh_interval 1s` });
    await eventually(async () => ((await client.get(openSearchIndices, { namespace: team, name: 'theirs' })).status?.['ownership'] === 'Adopted' ? true : undefined), {
      timeoutMs: 30_000,
      what: `OpenSearchIndex theirs adopted`,
    });
  });

  it('observe-only: an index that does not exist is Ready=False/ExternalNotFound, never created, and its delete leaves nothing', async () => {
    await client.create(openSearchIndices, index('absent', { settings: { numberOfReplicas: 0 } }, { [OBSERVE_ONLY]: 'true' }));
    const absent = await condition('absent', 'Ready', 'False', 'ExternalNotFound');
    expect(absent.message).toContain(`${team}-absent`);
    expect(await refreshInterval(`${team}-absent`)).toBeUndefined();
    await client.delete(openSearchIndices, { namespace: team, name: 'absent' });
    await eventually(async () => ((await client.listAll(openSearchIndices, { namespace: team })).some((i) => i.metadata?.name === 'absent') ? undefined : true), { timeoutMs: 30_000, what: 'absent deleted' });
    expect(await refreshInterval(`${team}-absent`)).toBeUndefined();
  });

  it("leaves an index the connection's ignoredNames names to the other tool: IgnoredName, Failed for kstatus, nothing created", async () => {
    await client.create(openSearchIndices, index('legacy-orders', { settings: { numberOfReplicas: 0 } }));
    const refused = await condition('legacy-orders', 'Ready', 'False', 'IgnoredName');
    expect(refused.message).toContain(`matches the ignored name "${team}-legacy-*" of OpenSearchConnection "${connectionName}"`);
    expect((await kstatus([refused.object]))[0]?.status).toBe('Failed');
    expect(await refreshInterval(`${team}-legacy-orders`)).toBeUndefined();
  });
});
