/**
 * The OpenSearch clusters the operator talks to, as its reconcilers see them, on the runtime's connection module:
 * the connection (`ConnectionLookup`) and its Ready gate, one API client per `OpenSearchConnection` (`ClientCache`,
 * rebuilt only when the connection's generation or one of its Secrets changes), and the tenancy of a namespace on a
 * connection (`NamespaceAdmission`, then OpenSearch's prefix rule). Connections and namespaces are read from the
 * shared informer caches (may be stale); the connection's Secrets by name (a `SecretSource` such as the runtime's
 * `referencedSecrets`: no cache of every Secret).
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { ConnectionKitKind, Logger, ManagedConnections, SecretSource, StoreSource } from '@domain-operators/reconcile';
import { ClientCache, ConnectionKit, Reasons, requiredSecretValue } from '@domain-operators/reconcile';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi, OpenSearchConnectOptions, RequestCounter } from '../opensearch/client.ts';
import { OpenSearchHttpApi } from '../opensearch/client.ts';
import type { Tenancy } from '../opensearch/tenancy.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import { tenancyError, tenancyFor } from '../opensearch/tenancy.ts';

/** The `Ready=False` reasons of a connection that does not work: its dependents fail with them without asking OpenSearch. */
const BLOCKING_REASONS = [OpenSearchReasons.unavailable, Reasons.authenticationFailed, Reasons.secretNotFound];

/** What the reconcilers need to know about connections. Reads caches, and a connection's Secrets by name. */
export interface Connections extends ManagedConnections<OpenSearchApi> {
  /** The cached connection; throws {@link DependencyError} `ConnectionNotFound` (retried). */
  connection(name: string): OpenSearchConnection;
  /**
   * The cached connection, once its `Ready` does not say it fails at its current generation: throws `TerminalError`
   * with the connection's own reason, {@link DependencyError} `ConnectionNotFound` when it is missing.
   */
  usable(name: string): OpenSearchConnection;
  /**
   * The API client of a connection: the same instance as long as the connection's generation and its Secrets'
   * resourceVersions stay the same. Rejects with {@link DependencyError} when the connection or a Secret is missing.
   */
  api(name: string): Promise<OpenSearchApi>;
  /**
   * The tenancy of `namespace` on the connection. Throws {@link DependencyError} when the connection is not cached
   * (or the namespace, when a selector must be checked), and a `TerminalError` `TenancyViolation` when the
   * connection's namespaceSelector does not admit the namespace or its prefix template is unusable.
   */
  tenancy(connectionName: string, namespace: string): Tenancy;
}

/** The caches a {@link ConnectionRegistry} reads. */
export interface ConnectionRegistryDeps {
  readonly connections: StoreSource<OpenSearchConnection>;
  /** The connections' login and CA Secrets, read by name. */
  readonly secrets: SecretSource;
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

/** {@link Connections} over the informer caches, on the runtime's `ConnectionKit`. Construction does no work; call {@link ConnectionRegistry.close} at shutdown. */
export class ConnectionRegistry implements Connections {
  readonly #kit: ConnectionKit<OpenSearchConnection, OpenSearchApi, Tenancy>;
  readonly #clients: ClientCache<OpenSearchApi>;

  constructor(deps: ConnectionRegistryDeps, options: ConnectionRegistryOptions = {}) {
    this.#clients = new ClientCache<OpenSearchApi>({ close: (api) => api.close(), ...(deps.log === undefined ? {} : { log: deps.log }) });
    this.#kit = new ConnectionKit(deps, openSearchConnectionKind(deps, options, this.#clients));
  }

  connection(name: string): OpenSearchConnection {
    return this.#kit.get(name);
  }

  usable(name: string): OpenSearchConnection {
    return this.#kit.usable(name);
  }

  async api(name: string): Promise<OpenSearchApi> {
    return this.#kit.client(this.connection(name));
  }

  /** The connection's `spec.ignoredNames`; empty when it names none or is not cached. */
  ignoredNames(name: string): readonly string[] {
    return this.#kit.ignoredNames(name);
  }

  /** The API client of the connection an external name `<connection>/<name>` is on; rejects like {@link Connections.api}. */
  clientOf(externalName: string, signal?: AbortSignal): Promise<OpenSearchApi> {
    return this.#kit.clientOf(externalName, signal);
  }

  tenancy(connectionName: string, namespace: string): Tenancy {
    return this.#kit.tenancy(this.connection(connectionName), namespace);
  }

  /** Forgets the client of a connection that no longer exists. */
  forget(name: string): void {
    this.#clients.forget(name);
  }

  /** Closes every client. */
  async close(): Promise<void> {
    await this.#clients.close();
  }
}

/**
 * OpenSearchConnection as the runtime's `ConnectionKit` sees it: the login and the CA Secret it names, and one HTTP
 * client per connection version in `clients`, built from them. Pure; builds a client only when called.
 */
function openSearchConnectionKind(deps: ConnectionRegistryDeps, options: ConnectionRegistryOptions, clients: ClientCache<OpenSearchApi>): ConnectionKitKind<OpenSearchConnection, OpenSearchApi, Tenancy> {
  return {
    kind: 'OpenSearchConnection',
    blockingReasons: BLOCKING_REASONS,
    namespaceSelector: (connection) => connection.spec.tenancy?.namespaceSelector,
    tenancy: (connection, namespace, admitted) => {
      const result = tenancyFor(connection.spec.tenancy, namespace, admitted());
      if (!result.ok) throw tenancyError(result.violation);
      return result.tenancy;
    },
    ignoredNames: (connection) => connection.spec.ignoredNames,
    secretsOf: ({ spec }) => [spec.credentialsSecretRef, spec.tls?.caSecretRef],
    client: (connection, [credentials, caSecret], version) =>
      clients.get(connection.metadata.name ?? '', version, () => {
        const { credentialsSecretRef: ref, urls, tls } = connection.spec;
        const caRef = tls?.caSecretRef;
        // credentialsSecretRef is required, so the kit has always read it (a missing one never reaches here).
        const login = credentials ?? {};
        const username = requiredSecretValue(login, ref.usernameKey);
        const password = requiredSecretValue(login, ref.passwordKey);
        const caPem = caRef === undefined || caSecret === undefined ? undefined : requiredSecretValue(caSecret, caRef.key);
        const requests = deps.requests;
        const connect = deps.connect ?? ((o: OpenSearchConnectOptions) => OpenSearchHttpApi.connect(o, requests === undefined ? {} : { requests }));
        return connect({
          urls,
          username,
          password,
          ...(caPem === undefined ? {} : { caPem }),
          ...(tls?.insecureSkipVerify === true ? { insecureSkipVerify: true } : {}),
          ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
        });
      }),
  };
}
