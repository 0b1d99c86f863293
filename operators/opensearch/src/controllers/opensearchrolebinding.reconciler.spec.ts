import { describe, expect, it } from 'vitest';
import { StoreWriter } from '@domain-operators/reconcile';
import type { OpenSearchRole, OpenSearchRoleBinding } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, FakeOpenSearch, fakeConnections, recordingClient } from './controller.test-support.ts';
import { bindingDesired, bindingExternalName, RoleBindingAdapter } from './opensearchrolebinding.reconciler.ts';
import { StatusFields } from './status-fields.ts';
import { openSearchRoleBindings } from '../api/v1alpha1/index.ts';

const role: OpenSearchRole = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchRole',
  metadata: { namespace: 'team-a', name: 'reader', uid: 'role-uid' },
  spec: { connectionRef: { name: 'main' } },
};

function binding(users: string[], status?: OpenSearchRoleBinding['status']): OpenSearchRoleBinding {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchRoleBinding',
    metadata: { namespace: 'team-a', name: 'alice-reads', uid: 'binding-uid', resourceVersion: '1' },
    spec: { connectionRef: { name: 'main' }, roleRef: { name: 'reader' }, users },
    ...(status === undefined ? {} : { status }),
  };
}

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const roles = new StoreWriter<OpenSearchRole>();
  roles.replace([role]);
  const bindings = new StoreWriter<OpenSearchRoleBinding>({ indexers: { roleMapping: () => ['main/team-a-reader'] } });
  const status = new StatusFields({ client: recordingClient(calls), type: openSearchRoleBindings.type });
  const adapter = new RoleBindingAdapter({ connections, roles: { store: roles.reader() }, bindings: { store: bindings.reader() }, status });
  return { calls, openSearch, connections, roles, bindings, adapter, deps: { connections, roles: { store: roles.reader() } } };
}

describe('role bindings', () => {
  it('map to the referenced role’s OpenSearch name, one external name per binding', () => {
    const fx = setup();
    expect(bindingDesired(fx.deps, binding(['team-a-alice']))).toEqual({ connection: 'main', roleName: 'team-a-reader', users: ['team-a-alice'], backendRoles: [] });
    expect(bindingExternalName(fx.deps, binding([]))).toBe('main/team-a-reader/team-a/alice-reads');
  });

  it('refuse a user outside the prefix as a TenancyViolation, and wait (retryable) for a missing role', () => {
    const fx = setup();
    expect(() => bindingDesired(fx.deps, binding(['team-b-bob']))).toThrow(expect.objectContaining({ name: 'TerminalError', reason: 'TenancyViolation' }) as Error);
    fx.roles.replace([]);
    expect(() => bindingDesired(fx.deps, binding(['team-a-alice']))).toThrow(expect.objectContaining({ reason: 'RoleNotFound' }) as Error);
  });

  it('record the entries they add in status before writing the mapping, keeping entries of others', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', { users: ['by-hand'], backend_roles: [], hosts: [], and_backend_roles: [], reserved: false, static: false, hidden: false });
    const object = binding(['team-a-alice']);
    const desired = bindingDesired(fx.deps, object);
    const context = adapterContext(object, 'main/team-a-reader/team-a/alice-reads');
    expect(await fx.adapter.observe(desired, context)).toEqual({ exists: false });
    await fx.adapter.create(desired, context);
    expect(fx.calls.map((call) => (call.to === 'kube' ? `kube ${call.method}` : call.op))).toEqual(['kube PATCH', 'putRoleMapping']);
    expect(fx.calls[0]).toMatchObject({ body: { status: { applied: { roleName: 'team-a-reader', users: ['team-a-alice'], backendRoles: [] } } } });
    expect(fx.openSearch.mappings.get('team-a-reader')?.users).toEqual(['by-hand', 'team-a-alice']);

    // Deleted: only its own entry goes.
    await fx.adapter.delete({ externalName: 'main/team-a-reader/team-a/alice-reads', desired }, context);
    expect(fx.openSearch.mappings.get('team-a-reader')?.users).toEqual(['by-hand']);
  });

  it('delete the mapping when their entries were the only ones, and never claim an entry that was there before', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', { users: ['team-a-alice'], backend_roles: [], hosts: [], and_backend_roles: [], reserved: false, static: false, hidden: false });
    const object = binding(['team-a-alice', 'team-a-carol']);
    const desired = bindingDesired(fx.deps, object);
    const context = adapterContext(object, 'x');
    await fx.adapter.create(desired, context);
    expect(fx.calls[0]).toMatchObject({ body: { status: { applied: { users: ['team-a-carol'] } } } });
    await fx.adapter.delete({ externalName: 'main/team-a-reader/team-a/alice-reads', desired }, context);
    expect(fx.openSearch.mappings.get('team-a-reader')?.users).toEqual(['team-a-alice']);

    const only = setup();
    const alone = binding(['team-a-alice']);
    await only.adapter.create(bindingDesired(only.deps, alone), adapterContext(alone, 'x'));
    await only.adapter.delete({ externalName: 'main/team-a-reader/team-a/alice-reads', desired: undefined }, adapterContext(alone, 'x'));
    expect(only.openSearch.mappings.has('team-a-reader')).toBe(false);
  });

  it('never touch a reserved mapping', async () => {
    const fx = setup();
    fx.openSearch.mappings.set('team-a-reader', { users: [], backend_roles: [], hosts: [], and_backend_roles: [], reserved: true, static: false, hidden: false });
    const object = binding(['team-a-alice']);
    await expect(fx.adapter.observe(bindingDesired(fx.deps, object), adapterContext(object, 'x'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    expect(fx.calls).toEqual([]);
  });
});
