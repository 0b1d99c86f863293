import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenSearchHttpApi } from './client.ts';
import { healthError, isOpenSearchError } from './errors.ts';
import { roleBody } from './security-plan.ts';
import type { OpenSearchFixture } from './test-support.int.ts';
import { openSearchFixture, request } from './test-support.int.ts';

describe('OpenSearchHttpApi against the real node: cluster, credentials, reachability', () => {
  let fx: OpenSearchFixture;

  beforeAll(async () => {
    fx = await openSearchFixture();
  });

  afterAll(async () => {
    await fx.api.close();
  });

  it('reads version, cluster name, health and the security plugin', async () => {
    const info = await fx.api.clusterInfo();
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.clusterName).not.toBe('');
    expect(['green', 'yellow']).toContain(info.health);
    expect(info.securityPlugin).toBe(true);
  });

  it('maps a wrong password to AuthenticationFailed without echoing it', async () => {
    const secret = 'definitely-wrong-password-x1';
    const api = OpenSearchHttpApi.connect({ urls: [fx.url], username: fx.admin.username, password: secret });
    try {
      const error: unknown = await api.clusterInfo().catch((err: unknown) => err);
      expect(isOpenSearchError(error, 'AuthenticationFailed')).toBe(true);
      expect((error as Error).message).not.toContain(secret);
    } finally {
      await api.close();
    }
  });

  it('maps nothing listening to OpenSearchUnavailable', async () => {
    const api = OpenSearchHttpApi.connect({ urls: ['http://127.0.0.1:1'], username: 'u', password: 'p', requestTimeoutMs: 2000, maxRetries: 0 });
    try {
      const error: unknown = await api.getIndex('anything').catch((err: unknown) => err);
      expect(isOpenSearchError(error, 'OpenSearchUnavailable')).toBe(true);
      expect((error as Error).message).toContain('unreachable');
    } finally {
      await api.close();
    }
  });

  it('refuses protected security objects in the client layer, without a request', async () => {
    // Pointed at nothing: any request would fail with OpenSearchUnavailable, so TenancyViolation proves none was sent.
    const api = OpenSearchHttpApi.connect({ urls: ['http://127.0.0.1:1'], username: 'u', password: 'p', maxRetries: 0 });
    try {
      for (const attempt of [
        () => api.putRole('all_access', roleBody({})),
        () => api.deleteRole('all_access'),
        () => api.putRoleMapping('all_access', { users: ['x'], backend_roles: [], hosts: [], and_backend_roles: [] }),
        () => api.putUser('admin', { password: 'x', backend_roles: [], attributes: {}, opendistro_security_roles: [] }),
        () => api.deleteUser('admin'),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ name: 'TerminalError', reason: 'TenancyViolation' });
      }
    } finally {
      await api.close();
    }
    // And the real all_access is untouched.
    const role = await fx.api.getRole('all_access');
    expect(role?.reserved).toBe(true);
  });

  it('counts every request it sends by API name, failed ones included, and none for a refusal made without a request', async () => {
    const counts = new Map<string, number>();
    const api = OpenSearchHttpApi.connect({ urls: [fx.url], username: fx.admin.username, password: fx.admin.password }, { requests: { count: (name) => counts.set(name, (counts.get(name) ?? 0) + 1) } });
    const index = `int-count-${fx.suffix}`;
    try {
      await api.clusterInfo();
      expect(await api.getIndex(index)).toBeUndefined();
      await api.createIndex(index, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
      await expect(api.createIndex(index, { settings: {} })).rejects.toMatchObject({ reason: 'AlreadyExists' });
      await expect(api.putRole('all_access', roleBody({}))).rejects.toMatchObject({ reason: 'TenancyViolation' });
      await api.deleteIndex(index);
      expect(Object.fromEntries(counts)).toEqual({
        info: 1,
        'cluster.health': 1,
        'security.health': 1,
        // The explicit read, then the read-back of each create that went through.
        'indices.get': 2,
        'indices.create': 2,
        'indices.delete': 1,
      });
    } finally {
      await api.close();
    }
  });

  it('honours an abort signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(fx.api.getIndex('anything', { signal: controller.signal })).rejects.toThrow('stop');
    const later = new AbortController();
    const pending = fx.api.clusterInfo({ signal: later.signal });
    later.abort(new Error('stopped while in flight'));
    await expect(pending).rejects.toThrow('stopped while in flight');
  });

  it('reports a red cluster, which healthError turns into OpenSearchUnavailable', async () => {
    const index = `int-red-${fx.suffix}`;
    // A primary that can never be allocated makes the cluster red until the index is deleted.
    const created = await request(fx.url, fx.admin, 'PUT', `/${index}?wait_for_active_shards=0`, {
      settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'no-such-node' },
    });
    expect(created.status).toBe(200);
    try {
      const info = await fx.api.clusterInfo();
      expect(info.health).toBe('red');
      const error = healthError(info.health, info.clusterName);
      expect(error?.reason).toBe('OpenSearchUnavailable');
      expect(error?.message).toContain('red');
      expect(await fx.api.indexHealth(index)).toBe('red');
      // One read of several indices answers at once while one is red, and leaves out the one that does not exist.
      const green = `int-green-${fx.suffix}`;
      await request(fx.url, fx.admin, 'PUT', `/${green}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
      try {
        const health = await fx.api.indicesHealth([index, green, `int-missing-${fx.suffix}`]);
        expect([...health.entries()].sort()).toEqual([[green, 'green'], [index, 'red']].sort());
      } finally {
        await fx.api.deleteIndex(green);
      }
    } finally {
      await fx.api.deleteIndex(index);
    }
  });
});
