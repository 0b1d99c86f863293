import { boundAdapter } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import { getCondition } from '@domain-operators/reconcile';
import type { Condition } from '@domain-operators/reconcile';
import type { OpenSearchIndex } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, callNames, FakeOpenSearch, fakeConnections, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { CREATION_MARK_KEY } from '../opensearch/creation-mark.ts';
import { IndexAdapter, indexDesired, indexExternalName } from './opensearchindex.reconciler.ts';

function index(spec: Partial<OpenSearchIndex['spec']>, status?: OpenSearchIndex['status']): OpenSearchIndex {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchIndex',
    metadata: { namespace: 'team-a', name: 'logs', uid: 'logs-uid', resourceVersion: '1', generation: 1 },
    spec: { connectionRef: { name: 'main' }, deletionPolicy: 'Retain', ...spec },
    ...(status === undefined ? {} : { status }),
  };
}

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const adapter = boundAdapter(new IndexAdapter(), openSearch.api());
  openSearch.indices.set('team-a-logs', {
    name: 'team-a-logs',
    uuid: 'u-1',
    settings: { 'index.number_of_shards': '2', 'index.number_of_replicas': '0' },
    mappings: { properties: { message: { type: 'text' } } },
    aliases: { 'team-a-old': {} },
  });
  const reconciler = () => reconcilerOver(calls, adapter, { externalName: (object) => indexExternalName(connections, object), desired: (object) => indexDesired(connections, object) });
  return { calls, openSearch, connections, adapter, reconciler };
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

  it('report indexName, uuid and health as seen, and remove only an alias the object recorded as its own', async () => {
    const fx = setup();
    fx.openSearch.indices.set('team-a-logs', { ...fx.openSearch.indices.get('team-a-logs')!, aliases: { 'team-a-old': {}, 'team-a-by-hand': {} } });
    const object = index({ aliases: { 'team-a-read': {} } }, { aliases: ['team-a-old'] });
    const desired = indexDesired(fx.connections, object);
    const context = adapterContext(object, 'main/team-a-logs');

    const observation = await fx.adapter.observe(desired, context);
    if (!observation.exists) throw new Error('index missing');
    expect(observation.status).toEqual({ indexName: 'team-a-logs', uuid: 'u-1', health: 'green' });
    expect(observation.diff).toEqual(['aliases.team-a-read: add', 'aliases.team-a-old: remove']);

    // Written ahead (`intent` is pure: no client): the alias about to be added, and the one about to be removed until its removal went through.
    expect(new IndexAdapter().intent(desired, observation.observed, context)).toEqual({ aliases: ['team-a-old', 'team-a-read'] });
    expect(await fx.adapter.update(desired, observation.observed, context)).toEqual({ status: { aliases: ['team-a-read'] } });
    expect(Object.keys(fx.openSearch.indices.get('team-a-logs')?.aliases ?? {}).sort()).toEqual(['team-a-by-hand', 'team-a-read']);
    expect(callNames(fx.calls)).toEqual(['updateAliases']);

    // Before a create: the index's name and every alias of the spec.
    expect(new IndexAdapter().intent(desired, undefined, context)).toEqual({ indexName: 'team-a-logs', aliases: ['team-a-read'] });
  });

  it('write their status in one path: one patch after the create, whose claim is the creation mark in the index', async () => {
    const fx = setup();
    const r = fx.reconciler();
    const object = { ...index({ settings: { numberOfShards: 1, numberOfReplicas: 0 }, aliases: { 'team-a-events-read': {} } }), metadata: { namespace: 'team-a', name: 'events', uid: 'events-uid', generation: 1 } };
    r.objects.put(object);

    await r.reconcile('events-uid');

    expect(callNames(fx.calls)).toEqual(['createIndex', 'status']);
    const [done] = statusChanges(fx.calls);
    expect(done).toMatchObject({ indexName: 'team-a-events', aliases: ['team-a-events-read'], uuid: 'uuid-team-a-events', health: 'green', externalName: 'main/team-a-events', ownership: 'Created', observedGeneration: 1 });
    expect(fx.openSearch.indices.get('team-a-events')?.mappings).toEqual({ _meta: { [CREATION_MARK_KEY]: { uid: 'events-uid', aliases: ['team-a-events-read'] } } });
  });

  it('take an index marked by their own create as created after a crash before the status write, aliases included; one marked by another resource stays foreign', async () => {
    const fx = setup();
    const r = fx.reconciler();
    const spec = { settings: { numberOfShards: 1, numberOfReplicas: 0 }, aliases: { 'team-a-events-read': {} } };
    r.objects.put({ ...index(spec), metadata: { namespace: 'team-a', name: 'events', uid: 'events-uid', generation: 1 } });
    const mark = (uid: string) => ({ _meta: { [CREATION_MARK_KEY]: { uid, aliases: ['team-a-events-read'] } } });
    fx.openSearch.indices.set('team-a-events', { name: 'team-a-events', uuid: 'u-ev', settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '0' }, mappings: mark('events-uid'), aliases: { 'team-a-events-read': {} } });

    await r.reconcile('events-uid');

    expect(callNames(fx.calls)).toEqual(['status']);
    expect(r.status('events-uid')).toMatchObject({ ownership: 'Created', uuid: 'u-ev', aliases: ['team-a-events-read'], observedGeneration: 1 });

    fx.calls.length = 0;
    r.objects.put({ ...index(spec), metadata: { namespace: 'team-a', name: 'orders', uid: 'orders-uid', generation: 1 } });
    fx.openSearch.indices.set('team-a-orders', { name: 'team-a-orders', uuid: 'u-or', settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '0' }, mappings: mark('someone-else'), aliases: {} });
    await r.reconcile('orders-uid');
    expect(r.status('orders-uid')['ownership']).toBeUndefined();
    expect(getCondition(r.status('orders-uid')['conditions'] as Condition[] | undefined, 'Synced')).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
  });

  it('apply a replica change and an added field (the reported case) and move observedGeneration only with both conditions', async () => {
    const fx = setup();
    const r = fx.reconciler();
    const spec = { settings: { numberOfShards: 2, numberOfReplicas: 0 }, mappings: { properties: { message: { type: 'text' } } }, aliases: { 'team-a-old': {} } };
    r.objects.put(index(spec, { externalName: 'main/team-a-logs', ownership: 'Created', aliases: ['team-a-old'] }));
    await r.reconcile('logs-uid');
    expect(callNames(fx.calls)).toEqual(['status']);
    expect(r.status('logs-uid')).toMatchObject({ observedGeneration: 1, uuid: 'u-1', health: 'green', indexName: 'team-a-logs' });
    fx.calls.length = 0;

    r.objects.edit('logs-uid', (o) => ({ ...o, spec: { ...o.spec, settings: { numberOfShards: 2, numberOfReplicas: 1 }, mappings: { properties: { message: { type: 'text' }, host: { type: 'keyword' } } }, aliases: { 'team-a-read': {} } } }));
    await r.reconcile('logs-uid');

    expect(callNames(fx.calls)).toEqual(['status', 'putIndexSettings', 'putMapping', 'updateAliases', 'status']);
    const [ahead, done] = statusChanges(fx.calls);
    expect(ahead).toEqual({ aliases: ['team-a-old', 'team-a-read'] });
    expect(done).toMatchObject({ aliases: ['team-a-read'], observedGeneration: 2 });
    const conditions = (done?.['conditions'] ?? []) as { type: string; observedGeneration?: number }[];
    expect(conditions.map((c) => [c.type, c.observedGeneration])).toEqual([
      ['Synced', 2],
      ['Ready', 2],
    ]);

    // Steady state: nothing to write, to OpenSearch or to the status.
    fx.calls.length = 0;
    await r.reconcile('logs-uid');
    expect(fx.calls).toEqual([]);
  });
});
