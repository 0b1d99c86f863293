import { boundAdapter } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { OpenSearchActionGroup } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, callNames, FakeOpenSearch, fakeConnections, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { ActionGroupAdapter, actionGroupDesired, actionGroupScope } from './opensearchactiongroup.reconciler.ts';

const group: OpenSearchActionGroup = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchActionGroup',
  metadata: { namespace: 'team-a', name: 'searchers', uid: 'group-uid', generation: 1 },
  spec: { connectionRef: { name: 'main' }, type: 'index', allowedActions: ['indices:data/read/search'], description: 'search only' },
};

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const adapter = boundAdapter(new ActionGroupAdapter(), openSearch.api());
  const r = reconcilerOver(calls, adapter, { externalName: (object) => `main/${actionGroupScope(connections, object).name}`, desired: (object) => actionGroupDesired(connections, object) });
  return { calls, openSearch, connections, adapter, r };
}

describe('action groups', () => {
  it('are put with the prefix, reported by name, put back after a change by hand, and left alone at steady state', async () => {
    const { calls, openSearch, r } = setup();
    r.objects.put(group);

    await r.reconcile('group-uid');
    expect(callNames(calls)).toEqual(['status', 'putActionGroup', 'status']);
    expect(openSearch.actionGroups.get('team-a-searchers')).toMatchObject({ type: 'index', allowed_actions: ['indices:data/read/search'], description: 'search only' });
    expect(statusChanges(calls)[1]).toMatchObject({ actionGroupName: 'team-a-searchers', ownership: 'Created', observedGeneration: 1 });

    calls.length = 0;
    await r.reconcile('group-uid');
    expect(calls).toEqual([]);

    calls.length = 0;
    openSearch.actionGroups.set('team-a-searchers', { type: 'index', allowed_actions: ['indices:*'], description: '', reserved: false, static: false, hidden: false });
    await r.reconcile('group-uid');
    expect(callNames(calls)).toEqual(['putActionGroup']);
    expect(openSearch.actionGroups.get('team-a-searchers')?.allowed_actions).toEqual(['indices:data/read/search']);
  });

  it('refuse a name outside the prefix and a cluster group off the allow-list, before any request', () => {
    const { calls, connections } = setup();
    expect(() => actionGroupScope(connections, { ...group, spec: { ...group.spec, name: 'team-b-searchers' } })).toThrow(
      expect.objectContaining({ reason: 'TenancyViolation', message: 'action group name "team-b-searchers" is outside the prefix "team-a-"' }) as Error,
    );
    expect(() => actionGroupDesired(connections, { ...group, spec: { ...group.spec, type: 'cluster', allowedActions: ['cluster_all'] } })).toThrow(
      expect.objectContaining({ reason: 'TenancyViolation' }) as Error,
    );
    expect(calls).toEqual([]);
  });

  it('never touch a reserved or static group', async () => {
    const { calls, openSearch, connections, adapter } = setup();
    openSearch.actionGroups.set('team-a-searchers', { type: 'index', allowed_actions: ['read'], description: '', reserved: true, static: true, hidden: false });
    const desired = actionGroupDesired(connections, group);
    await expect(adapter.observe(desired, adapterContext(group, 'main/team-a-searchers'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    await expect(adapter.delete({ externalName: 'main/team-a-searchers', desired }, adapterContext(group, 'main/team-a-searchers'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    expect(calls).toEqual([]);
  });

  it('do not take over a group made by hand: AlreadyExists, nothing written', async () => {
    const { calls, openSearch, r } = setup();
    openSearch.actionGroups.set('team-a-searchers', { type: 'index', allowed_actions: ['read'], description: 'by hand', reserved: false, static: false, hidden: false });
    r.objects.put(group);
    await r.reconcile('group-uid');
    expect(callNames(calls).filter((call) => call !== 'status')).toEqual([]);
    expect(JSON.stringify(r.status('group-uid'))).toContain('AlreadyExists');
    expect(openSearch.actionGroups.get('team-a-searchers')?.description).toBe('by hand');
  });
});
