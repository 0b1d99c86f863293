import { boundAdapter } from '@domain-operators/reconcile/testing';
import type { V1Secret } from '@kubernetes/client-node';
import { storeSecrets, StoreWriter } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { OpenSearchUser } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, callNames, FakeOpenSearch, fakeConnections, reconcilerOver, recordingClient, statusChanges } from './controller.test-support.ts';
import { passwordSource, UserAdapter, userDesired } from './opensearchuser.reconciler.ts';

const user: OpenSearchUser = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchUser',
  metadata: { namespace: 'team-a', name: 'bob', uid: 'bob-uid', resourceVersion: '1', generation: 1 },
  spec: { connectionRef: { name: 'main' }, passwordSecretRef: { name: 'bob-password', key: 'password' }, attributes: { team: 'a' } },
};

function passwordSecret(password: string, resourceVersion: string): V1Secret {
  return { metadata: { namespace: 'team-a', name: 'bob-password', resourceVersion }, data: { password: Buffer.from(password).toString('base64') } };
}

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const secrets = new StoreWriter<V1Secret>();
  const client = recordingClient(calls);
  const adapter = boundAdapter(new UserAdapter(), openSearch.api());
  return { calls, openSearch, connections, secrets, client, adapter };
}

describe('users', () => {
  it('read the password from the named Secret, or from <name>-opensearch-credentials', () => {
    expect(passwordSource(user)).toEqual({ secretName: 'bob-password', key: 'password', generated: false });
    const { passwordSecretRef: _ref, ...spec } = user.spec;
    expect(passwordSource({ ...user, spec })).toEqual({ secretName: 'bob-opensearch-credentials', key: 'password', generated: true });
  });

  it('wait (retryable) for a named Secret that does not exist, writing nothing', async () => {
    const fx = setup();
    await expect(userDesired({ connections: fx.connections, generated: storeSecrets({ store: fx.secrets.reader() }), referenced: storeSecrets({ store: fx.secrets.reader() }), client: fx.client }, user)).rejects.toMatchObject({ reason: 'SecretNotFound' });
    expect(fx.calls).toEqual([]);
  });

  it('apply a rotated password once, say so without the password, and record the new fingerprint with the put’s result', async () => {
    const fx = setup();
    const deps = { connections: fx.connections, generated: storeSecrets({ store: fx.secrets.reader() }), referenced: storeSecrets({ store: fx.secrets.reader() }), client: fx.client };
    const r = reconcilerOver(fx.calls, fx.adapter, { externalName: () => 'main/team-a-bob', desired: (object) => userDesired(deps, object) });
    fx.secrets.replace([passwordSecret('first-Secret-1', '1')]);
    r.objects.put(user);

    await r.reconcile('bob-uid');
    expect(fx.openSearch.users.get('team-a-bob')?.password).toBe('first-Secret-1');
    expect(callNames(fx.calls)).toEqual(['status', 'putUser', 'status']);
    const first = r.status('bob-uid')['passwordApplied'];
    expect(first).toMatchObject({ fingerprint: expect.stringMatching(/^hmac-sha256:/) as string });
    expect(statusChanges(fx.calls)[1]).toMatchObject({ username: 'team-a-bob', secretName: 'bob-password', passwordApplied: first, observedGeneration: 1 });

    // Nothing changed: up to date, nothing written.
    fx.calls.length = 0;
    await r.reconcile('bob-uid');
    expect(fx.calls).toEqual([]);
    const context = adapterContext(r.objects.current('bob-uid'), 'main/team-a-bob');
    expect(await fx.adapter.observe(await userDesired(deps, user), context)).toMatchObject({ exists: true, upToDate: true, diff: [], status: { username: 'team-a-bob', secretName: 'bob-password' } });

    // The Secret changes: a rotation, the fingerprint written after the put (a failed put keeps the old one).
    fx.secrets.replace([passwordSecret('second-Secret-2', '2')]);
    const observation = await fx.adapter.observe(await userDesired(deps, user), context);
    if (!observation.exists) throw new Error('user missing');
    expect(observation.diff).toEqual(['password: differs']);
    await r.reconcile('bob-uid');
    expect(fx.openSearch.users.get('team-a-bob')?.password).toBe('second-Secret-2');
    expect(callNames(fx.calls).slice(-2)).toEqual(['putUser', 'status']);
    expect(r.status('bob-uid')['passwordApplied']).not.toEqual(first);
    expect(JSON.stringify(statusChanges(fx.calls))).not.toMatch(/first-Secret-1|second-Secret-2/);
  });

  it('refuse (SecretConflict) a Secret of the generated name that another owner controls, and use one it controls', async () => {
    const fx = setup();
    const deps = { connections: fx.connections, generated: storeSecrets({ store: fx.secrets.reader() }), referenced: storeSecrets({ store: fx.secrets.reader() }), client: fx.client };
    const { passwordSecretRef: _ref, ...spec } = user.spec;
    const generatedUser: OpenSearchUser = { ...user, spec };
    const generated = (ownerUid: string | undefined): V1Secret => ({
      metadata: {
        namespace: 'team-a',
        name: 'bob-opensearch-credentials',
        resourceVersion: ownerUid ?? 'none',
        ...(ownerUid !== undefined && { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: ownerUid, controller: true }] }),
      },
      data: { password: Buffer.from('someone-Else-1').toString('base64') },
    });
    for (const owner of [undefined, 'other-uid']) {
      fx.secrets.replace([generated(owner)]);
      await expect(userDesired(deps, generatedUser)).rejects.toMatchObject({ reason: 'SecretConflict' });
    }
    fx.secrets.replace([generated('bob-uid')]);
    await expect(userDesired(deps, generatedUser)).resolves.toMatchObject({ password: 'someone-Else-1' });
    expect(fx.calls).toEqual([]);
  });

  it('generate <name>-opensearch-credentials owned by the user, with a password of every character class', async () => {
    const fx = setup();
    const { passwordSecretRef: _ref, ...spec } = user.spec;
    const deps = { connections: fx.connections, generated: storeSecrets({ store: fx.secrets.reader() }), referenced: storeSecrets({ store: fx.secrets.reader() }), client: fx.client };
    // The recording client answers the create with an empty object, which this user does not control.
    await expect(userDesired(deps, { ...user, spec })).rejects.toMatchObject({ reason: 'SecretConflict' });
    expect(fx.calls.map((c) => (c.to === 'kube' ? `${c.method} ${c.path}` : c))).toEqual(['POST /api/v1/namespaces/team-a/secrets']);
    const created = (fx.calls[0] as { body: V1Secret }).body;
    expect(created.metadata).toMatchObject({
      name: 'bob-opensearch-credentials',
      namespace: 'team-a',
      labels: { 'app.kubernetes.io/managed-by': 'opensearch-operator' },
      ownerReferences: [{ apiVersion: 'opensearch.domain-operators.io/v1alpha1', kind: 'OpenSearchUser', name: 'bob', uid: 'bob-uid', controller: true, blockOwnerDeletion: true }],
    });
    expect(Object.keys(created.stringData ?? {})).toEqual(['username', 'password']);
    expect(created.stringData?.['username']).toBe('team-a-bob');
    expect(created.stringData?.['password']).toMatch(/^[A-Za-z0-9_-]{32}-Aa1$/);
  });

  it('never touch a reserved user', async () => {
    const fx = setup();
    fx.openSearch.users.set('team-a-bob', { backend_roles: [], attributes: {}, opendistro_security_roles: [], reserved: true, static: false, hidden: false });
    fx.secrets.replace([passwordSecret('pw-Secret-1', '1')]);
    const desired = await userDesired({ connections: fx.connections, generated: storeSecrets({ store: fx.secrets.reader() }), referenced: storeSecrets({ store: fx.secrets.reader() }), client: fx.client }, user);
    await expect(fx.adapter.observe(desired, adapterContext(user, 'x'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    await expect(fx.adapter.delete({ externalName: 'main/team-a-bob', desired }, adapterContext(user, 'x'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    expect(fx.calls).toEqual([]);
  });
});
