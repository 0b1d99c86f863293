import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { Client } from '../client/client.ts';
import type { RestRequest, RestTransport } from '../client/rest.ts';
import { KubeApiError } from '../core/errors.ts';
import { ensureSecret } from './ensure-secret.ts';
import { forceRotation } from './force-rotation.ts';
import type { SecretSource } from './secret-source.ts';

const owner = { apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisUser', name: 'app', uid: 'u-1', controller: true };
const labels = { 'app.kubernetes.io/managed-by': 'redis-operator' };
const desired: V1Secret = { metadata: { namespace: 'ns', name: 'app-redis-credentials', labels, ownerReferences: [owner] }, stringData: { password: 'new' } };
const data = { password: Buffer.from('old').toString('base64') };
/** The live Secret of the generated name, with `labels` and `ownerReferences`. */
const live = (secretLabels: Record<string, string>, ownerReferences: (typeof owner)[]): V1Secret => ({
  metadata: { namespace: 'ns', name: 'app-redis-credentials', resourceVersion: '7', labels: secretLabels, ownerReferences },
  data,
});
const existing = live(labels, [owner]);
/** Made before generated Secrets were labelled: same controller, no label. */
const unlabelled = live({}, [owner]);
/** Somebody else's Secret of the generated name. */
const foreign = live({}, []);

/** A POST answers with `create` (the object echoed, or an error); a GET answers `live`; a PATCH echoes its body. */
class FakeRest implements RestTransport {
  readonly calls: string[] = [];
  readonly bodies: unknown[] = [];
  readonly create: 'echo' | KubeApiError;
  readonly live: V1Secret;

  constructor(create: 'echo' | KubeApiError, secret: V1Secret = existing) {
    this.create = create;
    this.live = secret;
  }

  json(request: RestRequest): Promise<unknown> {
    this.calls.push(`${request.method} ${request.path}`);
    if (request.method === 'GET') return Promise.resolve(this.live);
    if (request.method === 'PATCH') {
      this.bodies.push(request.body);
      return Promise.resolve(live(labels, this.live.metadata?.ownerReferences as (typeof owner)[]));
    }
    return this.create === 'echo' ? Promise.resolve(request.body) : Promise.reject(this.create);
  }

  stream(): never {
    throw new Error('no watches');
  }
}

const none: SecretSource = { get: () => Promise.resolve(undefined) };
const holding = (secret: V1Secret): SecretSource => ({ get: () => Promise.resolve(secret) });

describe('ensureSecret', () => {
  it('keeps a Secret that exists, making no call', async () => {
    const rest = new FakeRest('echo');
    await expect(ensureSecret({ client: new Client({ rest }), secrets: holding(existing) }, desired)).resolves.toEqual({ secret: existing, created: false, labelled: false });
    expect(rest.calls).toEqual([]);
  });

  it('creates a missing one', async () => {
    const rest = new FakeRest('echo');
    await expect(ensureSecret({ client: new Client({ rest }), secrets: none }, desired)).resolves.toEqual({ secret: desired, created: true, labelled: false });
    expect(rest.calls).toEqual(['POST /api/v1/namespaces/ns/secrets']);
  });

  it('reads the live Secret when the create finds one the source did not show (a stale or label-scoped cache)', async () => {
    const rest = new FakeRest(new KubeApiError('exists', 409, 'AlreadyExists'));
    await expect(ensureSecret({ client: new Client({ rest }), secrets: none }, desired)).resolves.toEqual({ secret: existing, created: false, labelled: false });
    expect(rest.calls).toEqual(['POST /api/v1/namespaces/ns/secrets', 'GET /api/v1/namespaces/ns/secrets/app-redis-credentials']);
  });

  it('adopts a Secret of the same controller made before the label: adds only the missing labels, keeps the values', async () => {
    const rest = new FakeRest(new KubeApiError('exists', 409, 'AlreadyExists'), unlabelled);
    const result = await ensureSecret({ client: new Client({ rest }), secrets: none }, desired);
    expect(result).toMatchObject({ created: false, labelled: true, secret: { metadata: { labels }, data } });
    expect(rest.calls).toEqual([
      'POST /api/v1/namespaces/ns/secrets',
      'GET /api/v1/namespaces/ns/secrets/app-redis-credentials',
      'PATCH /api/v1/namespaces/ns/secrets/app-redis-credentials',
    ]);
    expect(rest.bodies).toEqual([{ metadata: { labels } }]);
  });

  it('never labels a Secret of another controller (the caller reports the conflict)', async () => {
    const rest = new FakeRest('echo', foreign);
    await expect(ensureSecret({ client: new Client({ rest }), secrets: holding(foreign) }, desired)).resolves.toEqual({ secret: foreign, created: false, labelled: false });
    expect(rest.calls).toEqual([]);
  });

  it('passes any other error on', async () => {
    const rest = new FakeRest(new KubeApiError('forbidden', 403, 'Forbidden'));
    await expect(ensureSecret({ client: new Client({ rest }), secrets: none }, desired)).rejects.toMatchObject({ status: 403 });
  });

  describe('force-rotate', () => {
    const GROUP = 'redis.domain-operators.io';
    const asked = (token: string | undefined) => forceRotation({ metadata: { annotations: token === undefined ? {} : { [`${GROUP}/force-rotate`]: token } } }, GROUP, () => ({ password: 'rotated' }));
    const rotatedFor = (token: string): V1Secret => ({ metadata: { namespace: 'ns', name: 'app-redis-credentials', resourceVersion: '8', labels, ownerReferences: [owner], annotations: { [`${GROUP}/rotated-for`]: token } }, data });

    it('rotates an existing Secret of the same controller once per token: new values and the token, in one patch', async () => {
      const rest = new FakeRest('echo');
      const result = await ensureSecret({ client: new Client({ rest }), secrets: holding(existing) }, desired, undefined, asked('2026-12-06'));
      expect(result).toMatchObject({ created: false, rotated: true });
      expect(rest.bodies).toEqual([{ metadata: { annotations: { [`${GROUP}/rotated-for`]: '2026-12-06' } }, stringData: { password: 'rotated' } }]);

      const again = new FakeRest('echo');
      await expect(ensureSecret({ client: new Client({ rest: again }), secrets: holding(rotatedFor('2026-12-06')) }, desired, undefined, asked('2026-12-06'))).resolves.toMatchObject({ created: false, labelled: false });
      expect(again.calls).toEqual([]);
    });

    it('a Secret created while a token is asked records it, so it is not rotated right after', async () => {
      const rest = new FakeRest('echo');
      const result = await ensureSecret({ client: new Client({ rest }), secrets: none }, desired, undefined, asked('1'));
      expect(result.created).toBe(true);
      expect(result.secret.metadata?.annotations).toEqual({ [`${GROUP}/rotated-for`]: '1' });
      expect(result.secret.stringData).toEqual({ password: 'new' });
    });

    it('never rotates without a token, nor a Secret of another controller', async () => {
      const rest = new FakeRest('echo', foreign);
      await expect(ensureSecret({ client: new Client({ rest }), secrets: holding(existing) }, desired, undefined, asked(undefined))).resolves.toMatchObject({ created: false, labelled: false });
      await expect(ensureSecret({ client: new Client({ rest }), secrets: holding(foreign) }, desired, undefined, asked('1'))).resolves.toMatchObject({ secret: foreign, created: false });
      expect(rest.calls).toEqual([]);
    });
  });
});
