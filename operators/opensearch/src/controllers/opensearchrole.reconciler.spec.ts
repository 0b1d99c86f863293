import { boundAdapter } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { OpenSearchRole } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { callNames, FakeOpenSearch, fakeConnections, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { RoleAdapter, roleDesired, roleScope } from './opensearchrole.reconciler.ts';

const role: OpenSearchRole = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchRole',
  metadata: { namespace: 'team-a', name: 'reader', uid: 'reader-uid', generation: 1 },
  spec: { connectionRef: { name: 'main' }, indexPermissions: [{ indexPatterns: ['team-a-logs*'], allowedActions: ['read'] }] },
};

describe('roles', () => {
  it('report their name with the create and as seen, put a changed role at the new generation, and write nothing at steady state', async () => {
    const calls: Call[] = [];
    const openSearch = new FakeOpenSearch(calls);
    const connections = fakeConnections(openSearch.api());
    const r = reconcilerOver(calls, boundAdapter(new RoleAdapter(), openSearch.api()), { externalName: (object) => `main/${roleScope(connections, object).name}`, desired: (object) => roleDesired(connections, object) });
    r.objects.put(role);

    await r.reconcile('reader-uid');
    expect(callNames(calls)).toEqual(['status', 'putRole', 'status']);
    expect(statusChanges(calls)[1]).toMatchObject({ roleName: 'team-a-reader', ownership: 'Created', observedGeneration: 1 });

    calls.length = 0;
    r.objects.edit('reader-uid', (o) => ({ ...o, spec: { ...o.spec, indexPermissions: [{ indexPatterns: ['team-a-logs*'], allowedActions: ['read', 'write'] }] } }));
    await r.reconcile('reader-uid');
    expect(callNames(calls)).toEqual(['putRole', 'status']);
    expect(r.status('reader-uid')['observedGeneration']).toBe(2);

    calls.length = 0;
    await r.reconcile('reader-uid');
    expect(calls).toEqual([]);
  });
});
