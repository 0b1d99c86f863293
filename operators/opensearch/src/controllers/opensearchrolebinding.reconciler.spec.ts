import { boundAdapter } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import { StoreWriter } from '@domain-operators/reconcile';
import type { OpenSearchRole, OpenSearchRoleBinding } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, callNames, FakeOpenSearch, fakeConnections, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { bindingDesired, bindingExternalName, RoleBindingAdapter } from './opensearchrolebinding.reconciler.ts';

const role: OpenSearchRole = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchRole',
  metadata: { namespace: 'team-a', name: 'reader', uid: 'role-uid' },
  spec: { connectionRef: { name: 'main' } },
};

const EXTERNAL_NAME = 'main/team-a-reader/team-a/alice-reads';

function binding(users: string[], status?: OpenSearchRoleBinding['status']): OpenSearchRoleBinding {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchRoleBinding',
    metadata: { namespace: 'team-a', name: 'alice-reads', uid: 'binding-uid', resourceVersion: '1', generation: 1 },
    spec: { connectionRef: { name: 'main' }, roleRef: { name: 'reader' }, users },
    ...(status === undefined ? {} : { status }),
  };
}

function mapping(users: string[], flags: { reserved?: boolean } = {}) {
  return { users, backend_roles: [], hosts: [], and_backend_roles: [], reserved: flags.reserved ?? false, static: false, hidden: false };
}

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const roles = new StoreWriter<OpenSearchRole>();
  roles.replace([role]);
  const bindings = new StoreWriter<OpenSearchRoleBinding>({ indexers: { roleMapping: () => ['main/team-a-reader'] } });
  const deps = { connections, roles: { store: roles.reader() } };
  const adapter = boundAdapter(new RoleBindingAdapter({ bindings: { store: bindings.reader() } }), openSearch.api());
  const reconciler = () => reconcilerOver(calls, adapter, { externalName: (object) => bindingExternalName(deps, object), desired: (object) => bindingDesired(deps, object), adoptExactMatch: true });
  return { calls, openSearch, connections, roles, bindings, adapter, deps, reconciler };
}

describe('role bindings', () => {
  it('map to the referenced role’s OpenSearch name, one external name per binding', () => {
    const fx = setup();
    expect(bindingDesired(fx.deps, binding(['team-a-alice']))).toEqual({ connection: 'main', roleName: 'team-a-reader', users: ['team-a-alice'], backendRoles: [] });
    expect(bindingExternalName(fx.deps, binding([]))).toBe(EXTERNAL_NAME);
  });

  it('refuse a user outside the prefix as a TenancyViolation, and wait (retryable) for a missing role', () => {
    const fx = setup();
    expect(() => bindingDesired(fx.deps, binding(['team-b-bob']))).toThrow(expect.objectContaining({ name: 'TerminalError', reason: 'TenancyViolation' }) as Error);
    fx.roles.replace([]);
    expect(() => bindingDesired(fx.deps, binding(['team-a-alice']))).toThrow(expect.objectContaining({ reason: 'RoleNotFound' }) as Error);
  });

  it('record the entries they may add in status before writing the mapping, then only those they added, keeping entries of others', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', mapping(['by-hand', 'team-a-alice']));
    const r = fx.reconciler();
    r.objects.put(binding(['team-a-alice', 'team-a-carol']));

    await r.reconcile('binding-uid');

    expect(callNames(fx.calls)).toEqual(['status', 'putRoleMapping', 'status']);
    const [ahead, done] = statusChanges(fx.calls);
    // Ahead of the create, which has no plan yet: every wanted entry (a crash after the put leaves none unrecorded).
    expect(ahead).toEqual({ applied: { roleName: 'team-a-reader', users: ['team-a-alice', 'team-a-carol'], backendRoles: [] }, externalName: EXTERNAL_NAME, ownership: 'CreatePending' });
    // With the result: only the entry it added; team-a-alice was there before and is not claimed.
    expect(done).toMatchObject({ applied: { roleName: 'team-a-reader', users: ['team-a-carol'], backendRoles: [] }, ownership: 'Created', observedGeneration: 1 });
    expect(fx.openSearch.mappings.get('team-a-reader')?.users).toEqual(['by-hand', 'team-a-alice', 'team-a-carol']);

    // Steady state: nothing written.
    fx.calls.length = 0;
    await r.reconcile('binding-uid');
    expect(fx.calls).toEqual([]);

    // Deleted: only its own entry goes.
    await fx.adapter.delete({ externalName: EXTERNAL_NAME, desired: undefined }, adapterContext(r.objects.current('binding-uid'), EXTERNAL_NAME));
    expect(fx.openSearch.mappings.get('team-a-reader')?.users).toEqual(['by-hand', 'team-a-alice']);
  });

  it('on a spec change, record an added entry before the put and forget a dropped one only after it', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', mapping(['by-hand', 'team-a-alice']));
    const r = fx.reconciler();
    r.objects.put(binding(['team-a-alice'], { externalName: EXTERNAL_NAME, ownership: 'Created', applied: { roleName: 'team-a-reader', users: ['team-a-alice'], backendRoles: [] } }));
    await r.reconcile('binding-uid');
    fx.calls.length = 0;

    r.objects.edit('binding-uid', (b) => ({ ...b, spec: { ...b.spec, users: ['team-a-carol'] } }));
    await r.reconcile('binding-uid');

    expect(callNames(fx.calls)).toEqual(['status', 'putRoleMapping', 'status']);
    const [ahead, done] = statusChanges(fx.calls);
    expect(ahead).toEqual({ applied: { roleName: 'team-a-reader', users: ['team-a-alice', 'team-a-carol'], backendRoles: [] } });
    expect(done).toMatchObject({ applied: { roleName: 'team-a-reader', users: ['team-a-carol'], backendRoles: [] }, observedGeneration: 2 });
    expect(fx.openSearch.mappings.get('team-a-reader')?.users).toEqual(['by-hand', 'team-a-carol']);
  });

  it('put back an entry of theirs removed by hand, as an update planned from what was read', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', mapping(['by-hand']));
    const object = binding(['team-a-alice'], { externalName: EXTERNAL_NAME, ownership: 'Created', applied: { roleName: 'team-a-reader', users: ['team-a-alice'], backendRoles: [] } });
    const desired = bindingDesired(fx.deps, object);
    const context = adapterContext(object, EXTERNAL_NAME);

    const observation = await fx.adapter.observe(desired, context);
    if (!observation.exists) throw new Error('a binding with a record in the mapping exists');
    expect(observation).toMatchObject({ upToDate: false, status: { applied: { users: ['team-a-alice'] } } });
    await fx.adapter.update(desired, observation.observed, context);
    expect(fx.openSearch.mappings.get('team-a-reader')?.users).toEqual(['by-hand', 'team-a-alice']);
  });

  it('delete the mapping when their entries were the only ones, and never claim an entry that was there before', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', mapping(['team-a-alice']));
    const r = fx.reconciler();
    r.objects.put(binding(['team-a-alice', 'team-a-carol']));
    await r.reconcile('binding-uid');
    expect(r.status('binding-uid')['applied']).toEqual({ roleName: 'team-a-reader', users: ['team-a-carol'], backendRoles: [] });
    await fx.adapter.delete({ externalName: EXTERNAL_NAME, desired: undefined }, adapterContext(r.objects.current('binding-uid'), EXTERNAL_NAME));
    expect(fx.openSearch.mappings.get('team-a-reader')?.users).toEqual(['team-a-alice']);

    const only = setup();
    const alone = only.reconciler();
    alone.objects.put(binding(['team-a-alice']));
    await alone.reconcile('binding-uid');
    await only.adapter.delete({ externalName: EXTERNAL_NAME, desired: undefined }, adapterContext(alone.objects.current('binding-uid'), EXTERNAL_NAME));
    expect(only.openSearch.mappings.has('team-a-reader')).toBe(false);
  });

  it('adopt entries that are all there already without claiming them', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', mapping(['team-a-alice']));
    const r = fx.reconciler();
    r.objects.put(binding(['team-a-alice']));
    await r.reconcile('binding-uid');
    expect(callNames(fx.calls)).toEqual(['status']);
    expect(r.status('binding-uid')).toMatchObject({ ownership: 'Adopted', applied: { roleName: 'team-a-reader', users: [], backendRoles: [] } });
  });

  it('never touch a reserved mapping', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', mapping([], { reserved: true }));
    const object = binding(['team-a-alice']);
    await expect(fx.adapter.observe(bindingDesired(fx.deps, object), adapterContext(object, 'x'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    expect(fx.calls).toEqual([]);
  });
});
