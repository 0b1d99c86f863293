/**
 * The OpenSearch clusters the operator talks to, as its reconcilers see them: one API client per
 * `OpenSearchConnection`, rebuilt only when the connection's generation or one of its Secrets changes, and the
 * tenancy rule of a namespace on a connection. Everything is read from the shared informer caches (may be stale).
 */
import type { KubernetesObject, V1Namespace, V1Secret } from '@kubernetes/client-node';
import type { Logger, Store } from '@domain-operators/reconcile';
import { errorFields, silentLogger, TerminalError } from '@domain-operators/reconcile';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi, OpenSearchConnectOptions, RequestCounter } from '../opensearch/client.ts';
import { OpenSearchHttpApi } from '../opensearch/client.ts';
import type { Tenancy } from '../opensearch/tenancy.ts';
import { tenancyError, TENANCY_VIOLATION, tenancyFor } from '../opensearch/tenancy.ts';
import { matchesSelector } from './label-selector.ts';

/** Reasons of {@link DependencyError}. */
export type DependencyReason = 'ConnectionNotFound' | 'CredentialsNotFound' | 'NamespaceNotFound' | 'SecretNotFound' | 'RoleNotFound';

/**
 * Something a resource depends on is missing (its connection, a Secret, a namespace in the cache, a role). Retryable:
 * it may appear; `reason` becomes the condition reason. Messages name objects and keys, never secret values.
 */
export class DependencyError extends Error {
  override readonly name = 'DependencyError';
  readonly reason: DependencyReason;

  constructor(reason: DependencyReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** What the reconcilers need to know about connections. Reads caches only; never blocks. */
export interface Connections {
  /** The cached connection; throws {@link DependencyError} `ConnectionNotFound`. */
  connection(name: string): OpenSearchConnection;
  /**
   * The API client of a connection: the same instance as long as the connection's generation and its Secrets'
   * resourceVersions stay the same. Throws {@link DependencyError} when the connection or a Secret is missing.
   */
  api(name: string): OpenSearchApi;
  /**
   * The tenancy of `namespace` on the connection. Throws {@link DependencyError} when the connection or the namespace
   * is not cached, and a `TerminalError` `TenancyViolation` when the connection's namespaceSelector does not admit the
   * namespace or its prefix template is unusable.
   */
  tenancy(connectionName: string, namespace: string): Tenancy;
}

/**
 * Where a cache is read from: an informer, whose `store` is read only when needed (reading it builds the cache, after
 * which no indexer can be added, so it must not happen while controllers are still being built).
 */
export interface StoreSource<T extends KubernetesObject> {
  readonly store: Store<T>;
}

/** The caches a {@link ConnectionRegistry} reads. */
export interface ConnectionRegistryDeps {
  readonly connections: StoreSource<OpenSearchConnection>;
  readonly secrets: StoreSource<V1Secret>;
  readonly namespaces: StoreSource<V1Namespace>;
  /** Builds a client; default {@link OpenSearchHttpApi.connect} (counting on `requests`). */
  readonly connect?: (options: OpenSearchConnectOptions) => OpenSearchApi;
  /** Counts the requests of the default clients (`opensearch_operator_requests_total`); default none. */
  readonly requests?: RequestCounter;
  readonly log?: Logger;
}

/** Options of a {@link ConnectionRegistry}. */
export interface ConnectionRegistryOptions {
  /** Per-request timeout of every client; default 30 s. */
  readonly requestTimeoutMs?: number;
}

interface CachedClient {
  readonly key: string;
  readonly api: OpenSearchApi;
}

/** {@link Connections} over the informer caches. Construction does no work; call {@link ConnectionRegistry.close} at shutdown. */
export class ConnectionRegistry implements Connections {
  readonly #deps: ConnectionRegistryDeps;
  readonly #options: ConnectionRegistryOptions;
  readonly #clients = new Map<string, CachedClient>();

  constructor(deps: ConnectionRegistryDeps, options: ConnectionRegistryOptions = {}) {
    this.#deps = deps;
    this.#options = options;
  }

  connection(name: string): OpenSearchConnection {
    const connection = this.#deps.connections.store.get(name);
    if (connection === undefined) throw new DependencyError('ConnectionNotFound', `OpenSearchConnection ${name} does not exist`);
    return connection;
  }

  api(name: string): OpenSearchApi {
    const connection = this.connection(name);
    const { credentialsSecretRef: ref, urls, tls } = connection.spec;
    const credentials = this.#secret(ref.namespace, ref.name, 'CredentialsNotFound');
    const username = secretValue(credentials, ref.usernameKey, 'CredentialsNotFound');
    const password = secretValue(credentials, ref.passwordKey, 'CredentialsNotFound');
    const caRef = tls?.caSecretRef;
    const caSecret = caRef === undefined ? undefined : this.#secret(caRef.namespace, caRef.name, 'SecretNotFound');
    const caPem = caRef === undefined || caSecret === undefined ? undefined : secretValue(caSecret, caRef.key, 'SecretNotFound');
    const key = [connection.metadata.uid, connection.metadata.generation, credentials.metadata?.resourceVersion, caSecret?.metadata?.resourceVersion ?? ''].join('/');
    const cached = this.#clients.get(name);
    if (cached?.key === key) return cached.api;
    if (cached !== undefined) this.#retire(name, cached.api);
    const requests = this.#deps.requests;
    const connect = this.#deps.connect ?? ((options: OpenSearchConnectOptions) => OpenSearchHttpApi.connect(options, requests === undefined ? {} : { requests }));
    const api = connect({
      urls,
      username,
      password,
      ...(caPem === undefined ? {} : { caPem }),
      ...(tls?.insecureSkipVerify === true ? { insecureSkipVerify: true } : {}),
      ...(this.#options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: this.#options.requestTimeoutMs }),
    });
    this.#clients.set(name, { key, api });
    return api;
  }

  tenancy(connectionName: string, namespace: string): Tenancy {
    const connection = this.connection(connectionName);
    const selector = connection.spec.tenancy?.namespaceSelector;
    const own = this.#deps.namespaces.store.get(namespace);
    if (own === undefined) throw new DependencyError('NamespaceNotFound', `namespace ${namespace} is not in the cache yet`);
    if (!matchesSelector(selector, own.metadata?.labels)) {
      throw new TerminalError(`namespace ${namespace} may not use OpenSearchConnection ${connectionName}: its tenancy.namespaceSelector does not select it`, TENANCY_VIOLATION);
    }
    const others = this.#deps.namespaces.store
      .list()
      .filter((ns) => matchesSelector(selector, ns.metadata?.labels))
      .map((ns) => ns.metadata?.name ?? '');
    const result = tenancyFor(connection.spec.tenancy, namespace, others);
    if (!result.ok) throw tenancyError(result.violation);
    return result.tenancy;
  }

  /** Forgets the client of a connection that no longer exists. */
  forget(name: string): void {
    const cached = this.#clients.get(name);
    if (cached !== undefined) this.#retire(name, cached.api);
  }

  /** Closes every client. */
  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.allSettled(clients.map((client) => client.api.close()));
  }

  #retire(name: string, api: OpenSearchApi): void {
    this.#clients.delete(name);
    // Requests in flight on the old client finish or fail on their own; closing must not fail a reconcile.
    api.close().catch((err: unknown) => {
      (this.#deps.log ?? silentLogger).debug({ connection: name, ...errorFields(err) }, 'closing a retired OpenSearch client failed');
    });
  }

  #secret(namespace: string, name: string, reason: DependencyReason): V1Secret {
    const secret = this.#deps.secrets.store.get(`${namespace}/${name}`);
    if (secret === undefined) throw new DependencyError(reason, `Secret ${namespace}/${name} does not exist (or is not in a watched namespace)`);
    return secret;
  }
}

/** The UTF-8 value of `key` in a Secret's `data`; throws {@link DependencyError} naming the key when it is absent. */
export function secretValue(secret: V1Secret, key: string, reason: DependencyReason): string {
  const encoded = secret.data?.[key];
  if (encoded === undefined || encoded === '') {
    throw new DependencyError(reason, `Secret ${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''} has no key ${key}`);
  }
  return Buffer.from(encoded, 'base64').toString('utf8');
}
