/**
 * The OpenSearch clusters the operator talks to, as its reconcilers see them, on the runtime's connection module:
 * the connection (`ConnectionLookup`) and its Ready gate, one API client per `OpenSearchConnection` (`ClientCache`,
 * rebuilt only when the connection's generation or one of its Secrets changes), and the tenancy of a namespace on a
 * connection (`NamespaceAdmission`, then OpenSearch's prefix rule). Connections and namespaces are read from the
 * shared informer caches (may be stale); the connection's Secrets by name (a `SecretSource` such as the runtime's
 * `referencedSecrets`: no cache of every Secret).
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { Logger, SecretSource, StoreSource } from '@domain-operators/reconcile';
import { ClientCache, ConnectionLookup, connectionVersion, NamespaceAdmission, Reasons, requiredSecret, requiredSecretValue } from '@domain-operators/reconcile';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi, OpenSearchConnectOptions, RequestCounter } from '../opensearch/client.ts';
import { OpenSearchHttpApi } from '../opensearch/client.ts';
import type { Tenancy } from '../opensearch/tenancy.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import { tenancyError, tenancyFor } from '../opensearch/tenancy.ts';

/** The `Ready=False` reasons of a connection that does not work: its dependents fail with them without asking OpenSearch. */
const BLOCKING_REASONS = [OpenSearchReasons.unavailable, Reasons.authenticationFailed, Reasons.secretNotFound];

/** What the reconcilers need to know about connections. Reads caches, and a connection's Secrets by name. */
export interface Connections {
  /** The cached connection; throws {@link DependencyError} `ConnectionNotFound` (retried). */
  connection(name: string): OpenSearchConnection;
  /**
   * Throws `TerminalError` with the connection's own reason while its `Ready` says it does not work at its current
   * generation (the runtime's `ConnectionLookup.assertUsable`), {@link DependencyError} `ConnectionNotFound` when it is missing.
   */
  assertUsable(name: string): void;
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

/** {@link Connections} over the informer caches. Construction does no work; call {@link ConnectionRegistry.close} at shutdown. */
export class ConnectionRegistry implements Connections {
  readonly #deps: ConnectionRegistryDeps;
  readonly #options: ConnectionRegistryOptions;
  readonly #lookup: ConnectionLookup<OpenSearchConnection>;
  readonly #admission: NamespaceAdmission;
  readonly #clients: ClientCache<OpenSearchApi>;

  constructor(deps: ConnectionRegistryDeps, options: ConnectionRegistryOptions = {}) {
    this.#deps = deps;
    this.#options = options;
    this.#lookup = new ConnectionLookup(deps, { kind: 'OpenSearchConnection', blockingReasons: BLOCKING_REASONS });
    this.#admission = new NamespaceAdmission(deps, { kind: 'OpenSearchConnection' });
    this.#clients = new ClientCache<OpenSearchApi>({ close: (api) => api.close(), ...(deps.log === undefined ? {} : { log: deps.log }) });
  }

  connection(name: string): OpenSearchConnection {
    return this.#lookup.get(name);
  }

  assertUsable(name: string): void {
    this.#lookup.usable(name);
  }

  async api(name: string): Promise<OpenSearchApi> {
    const connection = this.connection(name);
    const { credentialsSecretRef: ref, urls, tls } = connection.spec;
    const caRef = tls?.caSecretRef;
    const [credentials, caSecret] = await Promise.all([
      requiredSecret(this.#deps.secrets, ref),
      caRef === undefined ? Promise.resolve(undefined) : requiredSecret(this.#deps.secrets, caRef),
    ]);
    return this.#clients.get(name, connectionVersion(connection, [credentials, caSecret]), () => {
      const username = requiredSecretValue(credentials, ref.usernameKey);
      const password = requiredSecretValue(credentials, ref.passwordKey);
      const caPem = caRef === undefined || caSecret === undefined ? undefined : requiredSecretValue(caSecret, caRef.key);
      const requests = this.#deps.requests;
      const connect = this.#deps.connect ?? ((options: OpenSearchConnectOptions) => OpenSearchHttpApi.connect(options, requests === undefined ? {} : { requests }));
      return connect({
        urls,
        username,
        password,
        ...(caPem === undefined ? {} : { caPem }),
        ...(tls?.insecureSkipVerify === true ? { insecureSkipVerify: true } : {}),
        ...(this.#options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: this.#options.requestTimeoutMs }),
      });
    });
  }

  tenancy(connectionName: string, namespace: string): Tenancy {
    const connection = this.connection(connectionName);
    const selector = connection.spec.tenancy?.namespaceSelector;
    this.#admission.admit(connectionName, selector, namespace);
    const result = tenancyFor(connection.spec.tenancy, namespace, this.#admission.admitted(selector));
    if (!result.ok) throw tenancyError(result.violation);
    return result.tenancy;
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
