import { boundAdapter } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { OpenSearchTenant } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, callNames, FakeOpenSearch, fakeConnections, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { TenantAdapter, tenantDesired, tenantScope } from './opensearchtenant.reconciler.ts';

const tenant: OpenSearchTenant = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchTenant',
  metadata: { namespace: 'team-a', name: 'dashboards', uid: 'tenant-uid', generation: 1 },
  spec: { connectionRef: { name: 'main' }, description: 'dashboards of team a', deletionPolicy: 'Retain' },
};

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const adapter = boundAdapter(new TenantAdapter(), openSearch.api());
  const r = reconcilerOver(calls, adapter, { externalName: (object) => `main/${tenantScope(connections, object).name}`, desired: (object) => tenantDesired(connections, object) });
  return { calls, openSearch, connections, adapter, r };
}

describe('tenants', () => {
  it('are put with the prefix, reported by name, updated on a new description, and left alone at steady state', async () => {
    const { calls, openSearch, r } = setup();
    r.objects.put(tenant);

    await r.reconcile('tenant-uid');
    expect(callNames(calls)).toEqual(['status', 'putTenant', 'status']);
    expect(openSearch.tenants.get('team-a-dashboards')?.description).toBe('dashboards of team a');
    expect(statusChanges(calls)[1]).toMatchObject({ tenantName: 'team-a-dashboards', ownership: 'Created', observedGeneration: 1 });

    calls.length = 0;
    await r.reconcile('tenant-uid');
    expect(calls).toEqual([]);

    r.objects.edit('tenant-uid', (o) => ({ ...o, spec: { ...o.spec, description: 'renamed' } }));
    await r.reconcile('tenant-uid');
    expect(callNames(calls)).toEqual(['putTenant', 'status']);
    expect(openSearch.tenants.get('team-a-dashboards')?.description).toBe('renamed');
  });

  it('refuse a name outside the prefix, such as the global tenant, before any request', () => {
    const { calls, connections } = setup();
    expect(() => tenantScope(connections, { ...tenant, spec: { ...tenant.spec, name: 'global_tenant' } })).toThrow(
      expect.objectContaining({ reason: 'TenancyViolation', message: 'tenant name "global_tenant" is outside the prefix "team-a-"' }) as Error,
    );
    expect(calls).toEqual([]);
  });

  it('never touch a reserved tenant', async () => {
    const { calls, openSearch, connections, adapter } = setup();
    openSearch.tenants.set('team-a-dashboards', { description: 'reserved', reserved: true, static: false, hidden: false });
    const desired = tenantDesired(connections, tenant);
    await expect(adapter.observe(desired, adapterContext(tenant, 'main/team-a-dashboards'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    await expect(adapter.delete({ externalName: 'main/team-a-dashboards', desired }, adapterContext(tenant, 'main/team-a-dashboards'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    expect(calls).toEqual([]);
  });
});
