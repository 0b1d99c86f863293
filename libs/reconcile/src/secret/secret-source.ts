import type { V1Secret } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import type { PartialObjectMetadata } from '../client/metadata-only.ts';
import { coreTypes } from '../client/resource-type.ts';
import type { Store } from '../cache/store.ts';
import { isNotFound } from '../core/errors.ts';

/** Reads Secrets. Implementations may serve stale data; a Secret that does not exist is `undefined`. Never writes. */
export interface SecretSource {
  get(namespace: string, name: string, signal?: AbortSignal): Promise<V1Secret | undefined>;
}

/**
 * Secrets from the cache only: no API call, so a Secret just created (or in a namespace the cache does not watch)
 * reads as `undefined` until the cache has it. `cache.store` is read lazily, at call time.
 */
export function storeSecrets(cache: { readonly store: Store<V1Secret> }): SecretSource {
  return {
    get: (namespace, name) => Promise.resolve(cache.store.get(`${namespace}/${name}`)),
  };
}

/**
 * Secrets from the cache, falling back to a live read for a Secret the cache does not hold (just created by this
 * operator, or in a namespace the operator does not watch). `cache.store` is read lazily, at call time.
 */
export function cachedSecrets(cache: { readonly store: Store<V1Secret> }, client: Client): SecretSource {
  return {
    async get(namespace, name, signal) {
      const cached = cache.store.get(`${namespace}/${name}`);
      if (cached !== undefined) return cached;
      try {
        return await client.get(coreTypes.secret, { namespace, name }, signal);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}

/**
 * The UTF-8 value of `key` in a Secret's `data` (base64) or, for an object not yet stored, its `stringData`;
 * `undefined` when the Secret or the key is absent. Pure. The value is a secret: never put it in a message.
 */
export function secretValue(secret: V1Secret | undefined, key: string): string | undefined {
  const encoded = secret?.data?.[key];
  if (encoded !== undefined) return Buffer.from(encoded, 'base64').toString('utf8');
  return secret?.stringData?.[key];
}

/**
 * Secrets from `owned` (the operator's label-scoped cache of the Secrets it generated) first, then from
 * `referenced` (a {@link SecretSource} that reads by name, such as `referencedSecrets`): one source for a
 * reconciler that reads both its generated Secret and one a user names. A generated Secret made before the label
 * (not in `owned`) is found through `referenced`, so `ensureSecret` can adopt it.
 *
 * `seen` is the metadata-only Secret cache whose watch wakes the reconcilers. The two watches deliver a change at
 * different moments, so a reconcile woken by `seen` may find `owned` one version behind (a rotated password would
 * then be missed, and nothing wakes the reconcile again). An owned entry is therefore served only when its
 * resourceVersion is the one `seen` holds; otherwise (or when `seen` does not hold the Secret) the read goes to
 * `referenced`. Both stores are read at call time.
 */
export function ownedOrReferencedSecrets(
  owned: { readonly store: Store<V1Secret> },
  referenced: SecretSource,
  seen: { readonly store: Store<PartialObjectMetadata> },
): SecretSource {
  return {
    get: (namespace, name, signal) => {
      const key = `${namespace}/${name}`;
      const cached = owned.store.get(key);
      const current = cached !== undefined && cached.metadata?.resourceVersion === seen.store.get(key)?.metadata.resourceVersion;
      return current ? Promise.resolve(cached) : referenced.get(namespace, name, signal);
    },
  };
}
