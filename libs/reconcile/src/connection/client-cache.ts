import type { KubernetesObject } from '@kubernetes/client-node';
import type { Informer } from '../cache/informer.ts';
import type { Logger } from '../core/logger.ts';
import { errorFields, silentLogger } from '../core/logger.ts';

/** What a {@link ClientCache} needs: how to close a client it retires, and where to log a failed close. */
export interface ClientCacheDeps<C> {
  /** Closes a client; may reject (logged at debug, never thrown to a reconcile). */
  close(client: C): Promise<void>;
  readonly log?: Logger;
}

interface Entry<C> {
  readonly version: string;
  readonly client: C;
}

/**
 * One client per connection (crossplane's Connect step, done once per version and shared): every dependent of a
 * connection uses the same client while the connection's version (see {@link connectionVersion}) stays the same; a
 * new version retires the old client (closed in the background: requests in flight on it finish or fail on their
 * own) and builds a new one. Building is the operator's (a Kafka admin, an OpenSearch HTTP client). No I/O of its own.
 */
export class ClientCache<C> {
  readonly #deps: ClientCacheDeps<C>;
  readonly #entries = new Map<string, Entry<C>>();

  /** Builds nothing yet. */
  constructor(deps: ClientCacheDeps<C>) {
    this.#deps = deps;
  }

  /**
   * The client of connection `name` at `version`; `build` runs only when there is none at that version, and may throw
   * (nothing is cached then, and the previous client is kept until a build succeeds).
   */
  get(name: string, version: string, build: () => C): C {
    const existing = this.#entries.get(name);
    if (existing?.version === version) return existing.client;
    const client = build();
    if (existing !== undefined) this.#retire(name, existing.client);
    this.#entries.set(name, { version, client });
    return client;
  }

  /** Retires the client of a connection that is gone. Idempotent. */
  forget(name: string): void {
    const existing = this.#entries.get(name);
    this.#entries.delete(name);
    if (existing !== undefined) this.#retire(name, existing.client);
  }

  /** Closes every client and forgets them. Idempotent; never rejects. */
  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.allSettled(entries.map((entry) => this.#deps.close(entry.client)));
  }

  #retire(name: string, client: C): void {
    this.#deps.close(client).catch((err: unknown) => {
      (this.#deps.log ?? silentLogger).debug({ connection: name, ...errorFields(err) }, 'closing a retired connection client failed');
    });
  }
}

/**
 * The version of a connection's client: its uid and generation and the resourceVersions of the Secrets it reads
 * (`undefined` for a Secret it does not use). A rotated password or a changed spec gives a new version. Pure.
 */
export function connectionVersion(connection: KubernetesObject, secrets: readonly (KubernetesObject | undefined)[]): string {
  return [connection.metadata?.uid, connection.metadata?.generation, ...secrets.map((s) => s?.metadata?.resourceVersion ?? '')].join('/');
}

/** Retires a connection's client from `cache` when the connection is deleted from `connections`' cache. Returns the unsubscribe. */
export function forgetClientsOfDeleted<K extends KubernetesObject>(connections: Pick<Informer<K>, 'onChange'>, cache: { forget(name: string): void }): () => void {
  return connections.onChange((change) => {
    if (change.type === 'Deleted') cache.forget(change.object.metadata?.name ?? '');
  });
}
