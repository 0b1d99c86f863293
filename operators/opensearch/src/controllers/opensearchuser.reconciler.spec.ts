import type { V1Secret } from '@kubernetes/client-node';
import { StoreWriter } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { OpenSearchUser } from '../api/v1alpha1/index.ts';
import { openSearchUsers } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, FakeOpenSearch, fakeConnections, recordingClient } from './controller.test-support.ts';
import { generatePassword, passwordSource, UserAdapter, userDesired } from './opensearchuser.reconciler.ts';
import { StatusFields } from './status-fields.ts';

const user: OpenSearchUser = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchUser',
  metadata: { namespace: 'team-a', name: 'bob', uid: 'bob-uid', resourceVersion: '1' },
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
  const adapter = new UserAdapter({ connections, status: new StatusFields({ client, type: openSearchUsers.type }) });
  return { calls, openSearch, connections, secrets, client, adapter };
}

describe('users', () => {
  it('read the password from the named Secret, or from <name>-opensearch-credentials', () => {
    expect(passwordSource(user)).toEqual({ secretName: 'bob-password', key: 'password', generated: false });
    const { passwordSecretRef: _ref, ...spec } = user.spec;
    expect(passwordSource({ ...user, spec })).toEqual({ secretName: 'bob-opensearch-credentials', key: 'password', generated: true });
    expect(generatePassword()).toMatch(/^[A-Za-z0-9_-]{32}-Aa1$/);
  });

  it('wait (retryable) for a named Secret that does not exist, writing nothing', async () => {
    const fx = setup();
    await expect(userDesired({ connections: fx.connections, secrets: { store: fx.secrets.reader() }, client: fx.client }, user)).rejects.toMatchObject({ reason: 'SecretNotFound' });
    expect(fx.calls).toEqual([]);
  });

  it('apply a rotated password once, say so without the password, and record the new fingerprint after the put', async () => {
    const fx = setup();
    const deps = { connections: fx.connections, secrets: { store: fx.secrets.reader() }, client: fx.client };
    fx.secrets.replace([passwordSecret('first-Secret-1', '1')]);
    const context = adapterContext(user, 'main/team-a-bob');
    const first = await userDesired(deps, user);
    expect(await fx.adapter.observe(first, context)).toEqual({ exists: false });
    await fx.adapter.create(first, context);
    expect(fx.openSearch.users.get('team-a-bob')?.password).toBe('first-Secret-1');
    const recorded = fx.calls.filter((call) => call.to === 'kube');
    expect(recorded).toHaveLength(1);
    expect(JSON.stringify(recorded)).not.toContain('first-Secret-1');

    // Nothing changed: up to date.
    const again = await fx.adapter.observe(first, context);
    expect(again).toMatchObject({ exists: true, upToDate: true, diff: [] });

    // The Secret changes: a rotation.
    fx.secrets.replace([passwordSecret('second-Secret-2', '2')]);
    const rotated = await userDesired(deps, user);
    const observation = await fx.adapter.observe(rotated, context);
    if (!observation.exists) throw new Error('user missing');
    expect(observation.diff).toEqual(['password: differs']);
    await fx.adapter.update(rotated, observation.observed, context);
    expect(fx.openSearch.users.get('team-a-bob')?.password).toBe('second-Secret-2');
    expect(await fx.adapter.observe(rotated, context)).toMatchObject({ upToDate: true });
    const ops = fx.calls.map((call) => (call.to === 'kube' ? 'kube' : call.op));
    expect(ops.slice(-2)).toEqual(['putUser', 'kube']);
  });

  it('refuse (SecretConflict) a Secret of the generated name that another owner controls, and use one it controls', async () => {
    const fx = setup();
    const deps = { connections: fx.connections, secrets: { store: fx.secrets.reader() }, client: fx.client };
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

  it('never touch a reserved user', async () => {
    const fx = setup();
    fx.openSearch.users.set('team-a-bob', { backend_roles: [], attributes: {}, opendistro_security_roles: [], reserved: true, static: false, hidden: false });
    fx.secrets.replace([passwordSecret('pw-Secret-1', '1')]);
    const desired = await userDesired({ connections: fx.connections, secrets: { store: fx.secrets.reader() }, client: fx.client }, user);
    await expect(fx.adapter.observe(desired, adapterContext(user, 'x'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    await expect(fx.adapter.delete({ externalName: 'main/team-a-bob', desired }, adapterContext(user, 'x'))).rejects.toMatchObject({ reason: 'TenancyViolation' });
    expect(fx.calls).toEqual([]);
  });
});
