import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import { coreTypes } from '../client/resource-type.ts';
import { isNotFound } from '../core/errors.ts';
import type { LedgerDocument, LedgerVersion } from './claims-ledger.ts';

/** Where the ledger's ConfigMap is, and who it says made it. */
export interface ConfigMapLedgerRef {
  /** Usually the operator's own namespace (its Role grants `get`, `create`, `update` on configmaps there). */
  readonly namespace: string;
  readonly name: string;
  /** Labels of the ConfigMap when this creates it, e.g. `app.kubernetes.io/managed-by`. */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * A {@link LedgerDocument} in one ConfigMap: `data` maps each UID (a valid data key) to its external name. `read` is
 * a GET without `resourceVersion`, which the apiserver serves from etcd with a quorum read (linearizable); a
 * ConfigMap that does not exist reads as empty. `write` is a PUT with the expected `resourceVersion` (409 Conflict
 * when it moved), or a POST when there was none yet (409 AlreadyExists when another process created it first).
 * Holds names and UIDs only: never a secret.
 */
export function configMapLedgerDocument(client: Client, ref: ConfigMapLedgerRef): LedgerDocument {
  return {
    async read(signal): Promise<LedgerVersion> {
      try {
        const map = await client.get(coreTypes.configMap, { namespace: ref.namespace, name: ref.name }, signal);
        return { entries: new Map(Object.entries(map.data ?? {})), version: map.metadata?.resourceVersion };
      } catch (err) {
        if (isNotFound(err)) return { entries: new Map(), version: undefined };
        throw err;
      }
    },
    async write(entries, expected, signal): Promise<string> {
      const body: V1ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { namespace: ref.namespace, name: ref.name, ...(ref.labels !== undefined && { labels: { ...ref.labels } }), ...(expected !== undefined && { resourceVersion: expected }) },
        data: Object.fromEntries(entries),
      };
      const written = expected === undefined ? await client.create(coreTypes.configMap, body, signal && { signal }) : await client.replace(coreTypes.configMap, body, signal && { signal });
      return written.metadata?.resourceVersion ?? '';
    },
  };
}
