import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ChangeListener } from '../cache/reflector.ts';
import { StoreWriter } from '../cache/store.ts';
import { Client } from '../client/client.ts';
import type { PartialObjectMetadata } from '../client/metadata-only.ts';
import type { RestRequest, RestTransport } from '../client/rest.ts';
import { KubeApiError } from '../core/errors.ts';
import { referencedSecrets } from './referenced-secrets.ts';
import type { SecretMetadataCache } from './referenced-secrets.ts';

const meta = (name: string, resourceVersion: string): PartialObjectMetadata => ({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'ns', name, resourceVersion } });

/** Serves `live` Secrets by name (404 for others); counts GETs. */
class LiveSecrets implements RestTransport {
  readonly paths: string[] = [];
  readonly live = new Map<string, V1Secret>();

  json(request: RestRequest): Promise<unknown> {
    this.paths.push(request.path);
    const found = this.live.get(request.path.split('/').at(-1) ?? '');
    return found === undefined ? Promise.reject(new KubeApiError('not found', 404, 'NotFound')) : Promise.resolve(found);
  }

  stream(): never {
    throw new Error('no watches');
  }
}

/** A metadata cache the test writes, forwarding its changes like an informer. */
function metadataCache(): { readonly cache: SecretMetadataCache; readonly write: (objects: PartialObjectMetadata[]) => void } {
  const writer = new StoreWriter<PartialObjectMetadata>();
  const listeners: ChangeListener<PartialObjectMetadata>[] = [];
  return {
    cache: {
      store: writer.reader(),
      onChange: (listener) => {
        listeners.push(listener);
        return () => undefined;
      },
    },
    write: (objects) => {
      for (const change of writer.replace(objects)) for (const listener of listeners) listener(change);
    },
  };
}

describe('referencedSecrets', () => {
  it('reads a Secret by name once, keeps it while its resourceVersion stands, and reads again after a change', async () => {
    const rest = new LiveSecrets();
    rest.live.set('login', { metadata: { namespace: 'ns', name: 'login', resourceVersion: '5' }, data: { password: 'YQ==' } });
    const { cache, write } = metadataCache();
    write([meta('login', '5')]);
    const source = referencedSecrets(cache, new Client({ rest }));
    await expect(source.get('ns', 'login')).resolves.toMatchObject({ data: { password: 'YQ==' } });
    await source.get('ns', 'login');
    expect(rest.paths).toHaveLength(1);

    rest.live.set('login', { metadata: { namespace: 'ns', name: 'login', resourceVersion: '6' }, data: { password: 'Yg==' } });
    write([meta('login', '6')]);
    await expect(source.get('ns', 'login')).resolves.toMatchObject({ data: { password: 'Yg==' } });
    expect(rest.paths).toHaveLength(2);
  });

  it('reads live what the metadata cache does not show yet, and is undefined for a Secret that does not exist', async () => {
    const rest = new LiveSecrets();
    rest.live.set('new', { metadata: { namespace: 'ns', name: 'new', resourceVersion: '9' } });
    const source = referencedSecrets(metadataCache().cache, new Client({ rest }));
    await expect(source.get('ns', 'new')).resolves.toMatchObject({ metadata: { name: 'new' } });
    await expect(source.get('ns', 'gone')).resolves.toBeUndefined();
    expect(rest.paths).toEqual(['/api/v1/namespaces/ns/secrets/new', '/api/v1/namespaces/ns/secrets/gone']);
  });

  it('drops a Secret the watch saw deleted', async () => {
    const rest = new LiveSecrets();
    rest.live.set('login', { metadata: { namespace: 'ns', name: 'login', resourceVersion: '5' } });
    const { cache, write } = metadataCache();
    write([meta('login', '5')]);
    const source = referencedSecrets(cache, new Client({ rest }));
    await source.get('ns', 'login');
    rest.live.delete('login');
    write([]);
    await expect(source.get('ns', 'login')).resolves.toBeUndefined();
  });
});
