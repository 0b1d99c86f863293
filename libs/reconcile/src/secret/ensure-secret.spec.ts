import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { Client } from '../client/client.ts';
import type { RestRequest, RestTransport } from '../client/rest.ts';
import { KubeApiError } from '../core/errors.ts';
import { ensureSecret } from './ensure-secret.ts';
import type { SecretSource } from './secret-source.ts';

const desired: V1Secret = { metadata: { namespace: 'ns', name: 'app-redis-credentials' }, stringData: { password: 'new' } };
const existing: V1Secret = { metadata: { namespace: 'ns', name: 'app-redis-credentials', resourceVersion: '7' }, data: { password: Buffer.from('old').toString('base64') } };

/** A POST answers with `create` (the object echoed, or an error); a GET answers `existing`. Records method and path. */
class FakeRest implements RestTransport {
  readonly calls: string[] = [];
  readonly create: 'echo' | KubeApiError;
  constructor(create: 'echo' | KubeApiError) {
    this.create = create;
  }
  json(request: RestRequest): Promise<unknown> {
    this.calls.push(`${request.method} ${request.path}`);
    if (request.method === 'GET') return Promise.resolve(existing);
    return this.create === 'echo' ? Promise.resolve(request.body) : Promise.reject(this.create);
  }
  stream(): never {
    throw new Error('no watches');
  }
}

const none: SecretSource = { get: () => Promise.resolve(undefined) };
const some: SecretSource = { get: () => Promise.resolve(existing) };

describe('ensureSecret', () => {
  it('keeps a Secret that exists, making no call', async () => {
    const rest = new FakeRest('echo');
    await expect(ensureSecret({ client: new Client({ rest }), secrets: some }, desired)).resolves.toEqual({ secret: existing, created: false });
    expect(rest.calls).toEqual([]);
  });

  it('creates a missing one', async () => {
    const rest = new FakeRest('echo');
    await expect(ensureSecret({ client: new Client({ rest }), secrets: none }, desired)).resolves.toEqual({ secret: desired, created: true });
    expect(rest.calls).toEqual(['POST /api/v1/namespaces/ns/secrets']);
  });

  it('reads the live Secret when the create finds one the source did not show (a stale cache)', async () => {
    const rest = new FakeRest(new KubeApiError('exists', 409, 'AlreadyExists'));
    await expect(ensureSecret({ client: new Client({ rest }), secrets: none }, desired)).resolves.toEqual({ secret: existing, created: false });
    expect(rest.calls).toEqual(['POST /api/v1/namespaces/ns/secrets', 'GET /api/v1/namespaces/ns/secrets/app-redis-credentials']);
  });

  it('passes any other error on', async () => {
    const rest = new FakeRest(new KubeApiError('forbidden', 403, 'Forbidden'));
    await expect(ensureSecret({ client: new Client({ rest }), secrets: none }, desired)).rejects.toMatchObject({ status: 403 });
  });
});
