import { boundAdapter } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { OpenSearchComponentTemplate } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { callNames, FakeOpenSearch, fakeConnections, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { ComponentTemplateAdapter, componentTemplateDesired } from './opensearchcomponenttemplate.reconciler.ts';

const component: OpenSearchComponentTemplate = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchComponentTemplate',
  metadata: { namespace: 'team-a', name: 'timestamps', uid: 'timestamps-uid', generation: 1 },
  spec: { connectionRef: { name: 'main' }, deletionPolicy: 'Delete', template: { mappings: { properties: { '@timestamp': { type: 'date' } } } } },
};

describe('component templates', () => {
  it('report their name with the create, and put a changed template at the new generation', async () => {
    const calls: Call[] = [];
    const openSearch = new FakeOpenSearch(calls);
    const connections = fakeConnections(openSearch.api());
    const r = reconcilerOver(calls, boundAdapter(new ComponentTemplateAdapter(), openSearch.api()), { externalName: () => 'main/team-a-timestamps', desired: (object) => componentTemplateDesired(connections, object) });
    r.objects.put(component);

    await r.reconcile('timestamps-uid');
    expect(callNames(calls)).toEqual(['status', 'putComponentTemplate', 'status']);
    expect(statusChanges(calls)[1]).toMatchObject({ templateName: 'team-a-timestamps', observedGeneration: 1 });

    calls.length = 0;
    r.objects.edit('timestamps-uid', (c) => ({ ...c, spec: { ...c.spec, template: { ...c.spec.template, settings: { numberOfShards: 2 } } } }));
    await r.reconcile('timestamps-uid');
    expect(callNames(calls)).toEqual(['putComponentTemplate', 'status']);
    expect(r.status('timestamps-uid')['observedGeneration']).toBe(2);

    calls.length = 0;
    await r.reconcile('timestamps-uid');
    expect(calls).toEqual([]);
  });
});
