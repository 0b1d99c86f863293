import { boundAdapter } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { OpenSearchIndexTemplate } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, callNames, FakeOpenSearch, fakeConnections, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { IndexTemplateAdapter, indexTemplateDesired } from './opensearchindextemplate.reconciler.ts';

const template: OpenSearchIndexTemplate = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchIndexTemplate',
  metadata: { namespace: 'team-a', name: 'events', uid: 'events-uid', generation: 1 },
  spec: { connectionRef: { name: 'main' }, deletionPolicy: 'Delete', indexPatterns: ['team-a-events-*'], template: { settings: { numberOfShards: 1, numberOfReplicas: 0 } } },
};

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const adapter = boundAdapter(new IndexTemplateAdapter(), openSearch.api());
  const r = reconcilerOver(calls, adapter, { externalName: () => 'main/team-a-events', desired: (object) => indexTemplateDesired(connections, object) });
  return { calls, openSearch, connections, adapter, r };
}

describe('index templates', () => {
  it('report their name as seen and with the create, in the status patch of the conditions', async () => {
    const fx = setup();
    expect(await fx.adapter.observe(indexTemplateDesired(fx.connections, template), adapterContext(template, 'main/team-a-events'))).toEqual({ exists: false });
    fx.r.objects.put(template);

    await fx.r.reconcile('events-uid');

    expect(callNames(fx.calls)).toEqual(['status', 'putIndexTemplate', 'status']);
    expect(statusChanges(fx.calls)[1]).toMatchObject({ templateName: 'team-a-events', ownership: 'Created', observedGeneration: 1 });
    const observation = await fx.adapter.observe(indexTemplateDesired(fx.connections, template), adapterContext(fx.r.objects.current('events-uid'), 'main/team-a-events'));
    expect(observation).toMatchObject({ exists: true, upToDate: true, status: { templateName: 'team-a-events' } });
  });

  it('put a new shard count (it shapes only indices created afterwards), Ready at the new generation', async () => {
    const fx = setup();
    fx.r.objects.put(template);
    await fx.r.reconcile('events-uid');
    fx.calls.length = 0;

    fx.r.objects.edit('events-uid', (t) => ({ ...t, spec: { ...t.spec, template: { settings: { numberOfShards: 3, numberOfReplicas: 0 } } } }));
    await fx.r.reconcile('events-uid');

    expect(callNames(fx.calls)).toEqual(['putIndexTemplate', 'status']);
    expect(fx.openSearch.indexTemplates.get('team-a-events')?.template?.settings).toEqual({ 'index.number_of_shards': 3, 'index.number_of_replicas': 0 });
    expect(fx.r.status('events-uid')).toMatchObject({ observedGeneration: 2, conditions: [expect.objectContaining({ type: 'Synced', status: 'True', observedGeneration: 2 }), expect.objectContaining({ type: 'Ready', status: 'True', observedGeneration: 2 })] });
  });
});
