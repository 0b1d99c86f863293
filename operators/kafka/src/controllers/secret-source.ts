import type { V1Secret } from '@kubernetes/client-node';
import { coreTypes, isNotFound } from '@domain-operators/reconcile';
import type { Client, Store } from '@domain-operators/reconcile';

/** Reads Secrets. Implementations may serve stale data; a Secret that does not exist is `undefined`. */
export interface SecretSource {
  get(namespace: string, name: string, signal?: AbortSignal): Promise<V1Secret | undefined>;
}

/**
 * Secrets from the shared cache, falling back to a live read for a Secret the cache does not hold (just created by
 * this operator, or in a namespace the operator does not watch). `cache.store` is read lazily, at call time.
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

/** The UTF-8 value of `key` in a Secret's `data` (base64) or, for objects not yet stored, `stringData`. Pure. */
export function secretValue(secret: V1Secret, key: string): string | undefined {
  const encoded = secret.data?.[key];
  if (encoded !== undefined) return Buffer.from(encoded, 'base64').toString('utf8');
  return secret.stringData?.[key];
}
