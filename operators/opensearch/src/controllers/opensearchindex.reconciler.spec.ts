import { describe, expect, it } from 'vitest';
import type { OpenSearchIndex } from '../api/v1alpha1/index.ts';
import { openSearchIndices } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, FakeOpenSearch, fakeConnections, recordingClient } from './controller.test-support.ts';
import { IndexAdapter, indexDesired, indexExternalName } from './opensearchindex.reconciler.ts';
import { StatusFields } from './status-fields.ts';

function index(spec: Partial<OpenSearchIndex['spec']>): OpenSearchIndex {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchIndex',
    metadata: { namespace: 'team-a', name: 'logs', uid: 'logs-uid', resourceVersion: '1' },
    spec: { connectionRef: { name: 'main' }, deletionPolicy: 'Retain', ...spec },
  };
}

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const adapter = new IndexAdapter({ connections, status: new StatusFields({ client: recordingClient(calls), type: openSearchIndices.type }) });
  openSearch.indices.set('team-a-logs', {
    name: 'team-a-logs',
    uuid: 'u-1',
    settings: { 'index.number_of_shards': '2', 'index.number_of_replicas': '0' },
    mappings: { properties: { message: { type: 'text' } } },
    aliases: {},
  });
  return { calls, openSearch, connections, adapter };
}

describe('indices', () => {
  it('are named prefix + metadata.name on their connection; a name or alias outside the prefix is a TenancyViolation', () => {
    const { connections } = setup();
    expect(indexExternalName(connections, index({}))).toBe('main/team-a-logs');
    expect(() => indexExternalName(connections, index({ indexName: 'team-b-logs' }))).toThrow(expect.objectContaining({ reason: 'TenancyViolation' }) as Error);
    expect(() => indexDesired(connections, index({ aliases: { 'all-logs': {} } }))).toThrow(expect.objectContaining({ reason: 'TenancyViolation' }) as Error);
  });

  it('refuse a conflicting mapping or a shard change before writing anything', async () => {
    const fx = setup();
    const conflicting = index({ mappings: { properties: { message: { type: 'keyword' } } } });
    await expect(fx.adapter.observe(indexDesired(fx.connections, conflicting), adapterContext(conflicting, 'main/team-a-logs'))).rejects.toMatchObject({ name: 'TerminalError', reason: 'MappingConflict' });
    const shards = index({ settings: { numberOfShards: 3 } });
    await expect(fx.adapter.observe(indexDesired(fx.connections, shards), adapterContext(shards, 'main/team-a-logs'))).rejects.toMatchObject({ reason: 'ShardCountImmutable' });
    expect(fx.calls).toEqual([]);
  });

  it('apply a replica change, an added field and an alias, recording the alias before adding it', async () => {
    const fx = setup();
    const object = index({ settings: { numberOfReplicas: 1 }, mappings: { properties: { message: { type: 'text' }, host: { type: 'keyword' } } }, aliases: { 'team-a-read': {} } });
    const desired = indexDesired(fx.connections, object);
    const context = adapterContext(object, 'main/team-a-logs');
    const observation = await fx.adapter.observe(desired, context);
    if (!observation.exists) throw new Error('index missing');
    expect(observation.upToDate).toBe(false);
    await fx.adapter.update(desired, observation.observed, context);
    expect(fx.calls.map((call) => (call.to === 'kube' ? 'kube' : call.op))).toEqual(['kube', 'kube', 'putIndexSettings', 'putMapping', 'updateAliases']);
    expect(fx.calls[0]).toMatchObject({ body: { status: { indexName: 'team-a-logs', uuid: 'u-1', health: 'green' } } });
    expect(fx.calls[1]).toMatchObject({ body: { status: { aliases: ['team-a-read'] } } });
    expect(fx.calls[2]).toMatchObject({ body: { 'index.number_of_replicas': 1 } });
  });
});
