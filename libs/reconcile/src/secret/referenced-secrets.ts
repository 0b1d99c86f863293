import type { V1Secret } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import type { PartialObjectMetadata } from '../client/metadata-only.ts';
import { coreTypes } from '../client/resource-type.ts';
import type { ChangeListener } from '../cache/reflector.ts';
import type { Store } from '../cache/store.ts';
import { isNotFound } from '../core/errors.ts';
import type { SecretSource } from './secret-source.ts';

/** The metadata-only Secret informer {@link referencedSecrets} follows (`informerFor(metadataOnly(coreTypes.secret))`). */
export interface SecretMetadataCache {
  readonly store: Store<PartialObjectMetadata>;
  onChange(listener: ChangeListener<PartialObjectMetadata>): () => void;
}

/**
 * Secrets a user references (connection logins and CAs, `passwordSecretRef`, `auth.secretRef`), read by name: a
 * live GET the first time, then kept only while the metadata-only cache shows the same resourceVersion (a change or
 * a delete seen by the watch drops it; the next read fetches again). So the process holds the data of the Secrets
 * its resources read and no other, and a reconcile that reads an unchanged Secret makes no call. May be as stale as
 * the metadata cache; a Secret the cache does not show yet is read live. A missing Secret is `undefined`. Subscribes
 * to `metadata` when called (once per process); makes no call until the first read.
 */
export function referencedSecrets(metadata: SecretMetadataCache, client: Client): SecretSource {
  const held = new Map<string, V1Secret>();
  metadata.onChange((change) => {
    const key = `${change.object.metadata.namespace ?? ''}/${change.object.metadata.name ?? ''}`;
    if (change.type === 'Deleted' || held.get(key)?.metadata?.resourceVersion !== change.object.metadata.resourceVersion) held.delete(key);
  });
  return {
    async get(namespace, name, signal) {
      const key = `${namespace}/${name}`;
      const seen = metadata.store.get(key)?.metadata.resourceVersion;
      const kept = held.get(key);
      if (kept !== undefined && seen !== undefined && kept.metadata?.resourceVersion === seen) return kept;
      try {
        const secret = await client.get(coreTypes.secret, { namespace, name }, signal);
        held.set(key, secret);
        return secret;
      } catch (err) {
        held.delete(key);
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}
