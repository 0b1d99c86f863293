// OpenSearchDataStream end to end (issue #19): the bundle run as its chart's ServiceAccount against testenv's apiserver
// and OpenSearch. A data stream applied before its data-stream template waits with DependencyNotReady and is created
// once the template exists; it is written to through its name, rolled over by the API, and its status reports the
// backing indices; a name outside the prefix is refused with nothing created; Retain keeps the stream, Delete
// deletes it.
import { randomBytes } from 'node:crypto';
import { adminClient, backendsUnderTest, eventually, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, isNotFound } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminConnection } from './admin-connection.ts';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchRequest } from './opensearch-http.ts';
import { API_VERSION, GROUP, openSearchConnections, openSearchDataStreams, openSearchIndexTemplates } from './kinds.ts';
import type { Resource } from './kinds.ts';

const sfx = randomBytes(3).toString('hex');
const team = `team-ds-${sfx}`;
const connectionName = `e2e-ds-${sfx}`;
const stream = `${team}-app-logs`;

let client: Client;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;

const resource = (kind: string, name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): Resource => ({
  apiVersion: API_VERSION,
  kind,
  metadata: { namespace: team, name, ...(annotations === undefined ? {} : { annotations }) },
  spec: { connectionRef: { name: connectionName }, ...spec },
});

/** Waits until condition `type` is `status` (with `reason`, when given) at the object's current generation; returns the object. */
async function condition(type: ResourceType<Resource>, name: string, want: { type: string; status: 'True' | 'False'; reason?: string }, until?: (object: Resource) => boolean): Promise<Resource> {
  let last: Resource | undefined;
  return eventually(
    async () => {
      last = await client.get(type, { namespace: team, name });
      const found = last.status?.conditions?.find((c) => c.type === want.type);
      const current = found?.observedGeneration === undefined || found.observedGeneration >= (last.metadata?.generation ?? 0);
      return found?.status === want.status && (want.reason === undefined || found.reason === want.reason) && current && (until?.(last) ?? true) ? last : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, what: `${type.kind} ${name} ${want.type}=${want.status} ${want.reason ?? ''} (last: ${JSON.stringify(last?.status ?? {})})` },
  );
}

async function deleted(type: ResourceType<Resource>, name: string): Promise<void> {
  await client.delete(type, { namespace: team, name });
  await eventually(async () => client.get(type, { namespace: team, name }).then(() => undefined, (err: unknown) => (isNotFound(err) ? true : undefined)), { timeoutMs: 60_000, what: `${name} deleted` });
}

beforeAll(async () => {
  const backends = await backendsUnderTest(['opensearch']);
  os = openSearchRequests(backends.opensearch);
  client = await adminClient();
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '5s' } });
  await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: team, labels: { 'e2e.domain-operators.io/run': `ds${sfx}` } } });
  await createAdminConnection(client, backends.opensearch, {
    name: connectionName,
    secretNamespace: operator.namespace,
    secretName: `opensearch-admin-${sfx}`,
    spec: {
      tenancy: { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { 'e2e.domain-operators.io/run': `ds${sfx}` } } },
    },
  });
});

afterAll(async () => {
  for (const type of [openSearchDataStreams, openSearchIndexTemplates]) {
    for (const item of await client.listAll(type, { namespace: team }).catch(() => [])) await client.delete(type, { namespace: team, name: item.metadata?.name ?? '' }).catch(() => undefined);
  }
  for (const type of [openSearchDataStreams, openSearchIndexTemplates]) {
    await eventually(async () => ((await client.listAll(type, { namespace: team })).length === 0 ? true : undefined), { timeoutMs: 60_000, what: `${type.plural} gone` }).catch(() => undefined);
  }
  await operator?.stop();
  await client.delete(openSearchConnections, { namespace: undefined, name: connectionName }).catch(() => undefined);
  await client.delete(coreTypes.namespace, { namespace: undefined, name: team }).catch(() => undefined);
  await os('DELETE', `/_data_stream/${team}-*`).catch(() => undefined);
  await os('DELETE', `/_index_template/${team}-*`).catch(() => undefined);
});

describe('data streams against the real OpenSearch', () => {
  it('waits with DependencyNotReady until a data-stream template matches, then is created, written through its name, rolled over, and reports its backing indices', async () => {
    // The drift check every 2 s, so that the rollover made by the API shows in status without a spec change.
    await client.create(openSearchDataStreams, resource('OpenSearchDataStream', 'app-logs', {}, { [`${GROUP}/drift-check-interval`]: '2s' }));
    await condition(openSearchDataStreams, 'app-logs', { type: 'Synced', status: 'False', reason: 'DependencyNotReady' });
    expect((await os('GET', `/_data_stream/${stream}`)).status).toBe(404);

    await client.create(openSearchIndexTemplates, resource('OpenSearchIndexTemplate', 'app-logs', { indexPatterns: [`${team}-app-logs*`], dataStream: {}, priority: 200, template: { settings: { numberOfShards: 1, numberOfReplicas: 0 } } }));
    const template = await condition(openSearchIndexTemplates, 'app-logs', { type: 'Ready', status: 'True' });
    expect(template.status).toMatchObject({ templateName: `${team}-app-logs` });
    const created = await condition(openSearchDataStreams, 'app-logs', { type: 'Ready', status: 'True' });
    expect(created.status).toMatchObject({ dataStreamName: stream, generation: 1, backingIndices: [`.ds-${stream}-000001`], template: `${team}-app-logs`, health: 'green', ownership: 'Created' });

    const written = await os('POST', `/${stream}/_doc?refresh=true`, { '@timestamp': '2026-12-02T00:00:00Z', message: 'first' });
    expect(written.status).toBe(201);
    expect((written.body as { _index: string })._index).toBe(`.ds-${stream}-000001`);
    const rolled = await os('POST', `/${stream}/_rollover`);
    expect(rolled.body).toMatchObject({ rolled_over: true, old_index: `.ds-${stream}-000001`, new_index: `.ds-${stream}-000002` });
    const second = await os('POST', `/${stream}/_doc?refresh=true`, { '@timestamp': '2026-12-02T00:01:00Z', message: 'second' });
    expect((second.body as { _index: string })._index).toBe(`.ds-${stream}-000002`);
    expect(((await os('GET', `/${stream}/_count`)).body as { count: number }).count).toBe(2);

    const after = await condition(openSearchDataStreams, 'app-logs', { type: 'Ready', status: 'True' }, (object) => object.status?.['generation'] === 2);
    expect(after.status).toMatchObject({ generation: 2, backingIndices: [`.ds-${stream}-000001`, `.ds-${stream}-000002`] });
  });

  it('refuses a name outside the prefix with TenancyViolation and creates nothing', async () => {
    await client.create(openSearchDataStreams, resource('OpenSearchDataStream', 'foreign', { name: `app-logs-${sfx}` }));
    const refused = await condition(openSearchDataStreams, 'foreign', { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(refused.status?.conditions?.find((c) => c.type === 'Synced')?.message).toContain(`outside the prefix "${team}-"`);
    expect((await os('GET', `/_data_stream/app-logs-${sfx}`)).status).toBe(404);
  });

  it('deleted under Retain (the default), the data stream and its documents stay; adopted and deleted under Delete, it goes', async () => {
    await deleted(openSearchDataStreams, 'app-logs');
    expect((await os('GET', `/_data_stream/${stream}`)).status).toBe(200);
    expect(((await os('GET', `/${stream}/_count`)).body as { count: number }).count).toBe(2);

    await client.create(openSearchDataStreams, resource('OpenSearchDataStream', 'again', { name: stream, deletionPolicy: 'Delete' }, { [`${GROUP}/adopt`]: 'true' }));
    const adopted = await condition(openSearchDataStreams, 'again', { type: 'Ready', status: 'True' });
    expect(adopted.status).toMatchObject({ ownership: 'Adopted', generation: 2 });
    await deleted(openSearchDataStreams, 'again');
    expect((await os('GET', `/_data_stream/${stream}`)).status).toBe(404);
  });
});
