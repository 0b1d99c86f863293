import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { StoreWriter } from '../cache/store.ts';
import { Client } from '../client/client.ts';
import type { RestRequest, RestTransport } from '../client/rest.ts';
import { KubeApiError } from '../core/errors.ts';
import type { PartialObjectMetadata } from '../client/metadata-only.ts';
import { cachedSecrets, ownedOrReferencedSecrets, secretValue, storeSecrets } from './secret-source.ts';

const secret = (name: string, data: Record<string, string>): V1Secret => ({ metadata: { namespace: 'ns', name }, data });

/** Answers GET of `live` Secrets by name, 404 for others; records every path. */
class LiveSecrets implements RestTransport {
  readonly paths: string[] = [];
  readonly live: Readonly<Record<string, V1Secret>>;
  constructor(live: Readonly<Record<string, V1Secret>>) {
    this.live = live;
  }
  json(request: RestRequest): Promise<unknown> {
    this.paths.push(request.path);
    const found = this.live[request.path.split('/').at(-1) ?? ''];
    return found === undefined ? Promise.reject(new KubeApiError('not found', 404, 'NotFound')) : Promise.resolve(found);
  }
  stream(): never {
    throw new Error('no watches');
  }
}

describe('Secret sources', () => {
  const cached = secret('cached', { password: Buffer.from('c').toString('base64') });
  const store = new StoreWriter<V1Secret>();
  store.replace([cached]);
  const cache = { store: store.reader() };

  it('storeSecrets reads only the cache', async () => {
    await expect(storeSecrets(cache).get('ns', 'cached')).resolves.toEqual(cached);
    await expect(storeSecrets(cache).get('ns', 'live')).resolves.toBeUndefined();
  });

  it('cachedSecrets reads the cache first and falls back to a live read; a missing Secret is undefined', async () => {
    const live = secret('live', {});
    const rest = new LiveSecrets({ live });
    const source = cachedSecrets(cache, new Client({ rest }));
    await expect(source.get('ns', 'cached')).resolves.toEqual(cached);
    expect(rest.paths).toEqual([]);
    await expect(source.get('ns', 'live')).resolves.toEqual(live);
    await expect(source.get('ns', 'gone')).resolves.toBeUndefined();
    expect(rest.paths).toEqual(['/api/v1/namespaces/ns/secrets/live', '/api/v1/namespaces/ns/secrets/gone']);
  });

  it('secretValue decodes data, falls back to stringData, and is undefined for a missing key or Secret', () => {
    expect(secretValue(secret('s', { password: Buffer.from('pä$$').toString('base64') }), 'password')).toBe('pä$$');
    expect(secretValue({ stringData: { password: 'plain' } }, 'password')).toBe('plain');
    expect(secretValue(secret('s', {}), 'password')).toBeUndefined();
    expect(secretValue(undefined, 'password')).toBeUndefined();
  });

  it('ownedOrReferencedSecrets reads the owned cache when it is as new as the metadata watch, and asks the referenced source otherwise', async () => {
    const asked: string[] = [];
    const live = secret('cached', { password: Buffer.from('rotated').toString('base64') });
    const referenced = {
      get: (namespace: string, name: string) => (asked.push(`${namespace}/${name}`), Promise.resolve(name === 'ref' ? secret('ref', {}) : name === 'cached' ? live : undefined)),
    };
    const owned = new StoreWriter<V1Secret>();
    owned.replace([{ metadata: { namespace: 'ns', name: 'cached', resourceVersion: '5' }, data: { password: Buffer.from('c').toString('base64') } }]);
    const seen = new StoreWriter<PartialObjectMetadata>();
    const meta = (name: string, resourceVersion: string): PartialObjectMetadata => ({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'ns', name, resourceVersion } });
    seen.replace([meta('cached', '5'), meta('ref', '9')]);
    const source = ownedOrReferencedSecrets({ store: owned.reader() }, referenced, { store: seen.reader() });
    await expect(source.get('ns', 'cached')).resolves.toMatchObject({ data: cached.data });
    await expect(source.get('ns', 'ref')).resolves.toEqual(secret('ref', {}));
    await expect(source.get('ns', 'none')).resolves.toBeUndefined();
    expect(asked).toEqual(['ns/ref', 'ns/none']);

    // The metadata watch saw a rotation the owned cache has not delivered yet: the read goes past the stale copy.
    seen.replace([meta('cached', '6'), meta('ref', '9')]);
    await expect(source.get('ns', 'cached')).resolves.toBe(live);
    expect(asked.at(-1)).toBe('ns/cached');
  });
});
