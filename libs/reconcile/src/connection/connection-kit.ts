/**
 * One connection kind's side of the managed-resource kit (crossplane's ProviderConfig and `Connect`): the cached
 * connection and its Ready gate (`ConnectionLookup`), the namespaces its tenancy selector admits
 * (`NamespaceAdmission`), and the client bound to it, built from the Secrets it names. Every operator describes its
 * connection kind once ({@link ConnectionKitKind}) and gets the same lookups, the same missing-Secret rule (the
 * runtime's `requiredSecret`: a retried `SecretNotFound`) and the same client version (`connectionVersion`: a new
 * client when the connection's generation or one of its Secrets changes).
 */
import type { V1Namespace, V1Secret } from '@kubernetes/client-node';
import type { SecretSource } from '../secret/secret-source.ts';
import { connectionVersion } from './client-cache.ts';
import { parseConnectionExternalName } from './external-name.ts';
import { ConnectionLookup } from './connection-lookup.ts';
import type { ConnectionObject, StoreSource } from './connection-object.ts';
import type { LabelSelector } from './label-selector.ts';
import { NamespaceAdmission } from './namespace-admission.ts';
import { requiredSecret } from './required-secret.ts';
import type { ManagedConnections } from './managed-connections.ts';
import type { SecretLocation } from './required-secret.ts';

/** A connection kind, described once; `T` is what its tenancy rule gives a namespace (a name prefix, say). */
export interface ConnectionKitKind<C extends ConnectionObject, K, T = string> {
  /** The kind, for messages: `KafkaConnection`. */
  readonly kind: string;
  /** The `Ready=False` reasons of a connection known not to work (see `ConnectionLookupOptions.blockingReasons`). */
  readonly blockingReasons: readonly string[];
  /** The Secrets its client reads, in a fixed order; `undefined` in the place of one this connection does not use. */
  secretsOf(connection: C): readonly (SecretLocation | undefined)[];
  /**
   * The client of `connection` at `version`, from the Secrets {@link ConnectionKitKind.secretsOf} named (read, in the
   * same places; `undefined` where none was named). Called on every {@link ConnectionKit.client}: the operator keeps
   * one client per version (a `ClientCache` or its own pool). May throw (`requiredSecretValue` for a missing key).
   */
  client(connection: C, secrets: readonly (V1Secret | undefined)[], version: string): K;
  /** The `tenancy.namespaceSelector` of the connection, when it has one. */
  namespaceSelector(connection: C): LabelSelector | undefined;
  /**
   * The connection's rule for a namespace its selector admits (its name prefix, what it may bind, …); `admitted`
   * lists the other admitted namespaces when the rule needs them (a prefix no other tenant's may start with). Throws
   * a `TerminalError` for a rule the connection cannot apply (an unusable prefix template). Pure.
   */
  tenancy(connection: C, namespace: string, admitted: () => readonly string[]): T;
  /** The connection's `spec.ignoredNames` (see ignored-names.ts), when it has any. */
  ignoredNames(connection: C): readonly string[] | undefined;
}

/** The caches a {@link ConnectionKit} reads (their `store` at call time, never before) and where Secrets come from. */
export interface ConnectionKitDeps<C extends ConnectionObject> {
  readonly connections: StoreSource<C>;
  readonly namespaces: StoreSource<V1Namespace>;
  /** The connections' Secrets, read by name (such as the runtime's `referencedSecrets`). */
  readonly secrets: SecretSource;
}

/**
 * See the module comment. Construction reads nothing; the kit keeps nothing but what its parts keep (nothing). It is
 * the `ManagedConnections` a `managedController` takes.
 */
export class ConnectionKit<C extends ConnectionObject, K, T = string> implements ManagedConnections<K> {
  readonly #deps: ConnectionKitDeps<C>;
  readonly #kind: ConnectionKitKind<C, K, T>;
  readonly #lookup: ConnectionLookup<C>;
  readonly #admission: NamespaceAdmission;

  /** Reads nothing yet. */
  constructor(deps: ConnectionKitDeps<C>, kind: ConnectionKitKind<C, K, T>) {
    this.#deps = deps;
    this.#kind = kind;
    this.#lookup = new ConnectionLookup(deps, { kind: kind.kind, blockingReasons: kind.blockingReasons });
    this.#admission = new NamespaceAdmission(deps, { kind: kind.kind });
  }

  /** The cached connection `name`; a retried `DependencyError` `ConnectionNotFound` when there is none. */
  get(name: string): C {
    return this.#lookup.get(name);
  }

  /** Throws the connection's own reason while its `Ready` says it does not work at its current generation (`ConnectionLookup.assertUsable`). */
  assertUsable(connection: C): void {
    this.#lookup.assertUsable(connection);
  }

  /** {@link ConnectionKit.get} then {@link ConnectionKit.assertUsable}. */
  usable(name: string): C {
    return this.#lookup.usable(name);
  }

  /**
   * Passes when the connection's tenancy selector admits `namespace` (always without one); a retried
   * `NamespaceNotFound` while the namespace is not cached, `TerminalError` `TenancyViolation` when it is not selected.
   */
  admit(connection: C, namespace: string): void {
    this.#admission.admit(connection.metadata.name ?? '', this.#kind.namespaceSelector(connection), namespace);
  }

  /** The cached namespaces the connection's selector admits (every cached namespace without one). */
  admitted(connection: C): string[] {
    return this.#admission.admitted(this.#kind.namespaceSelector(connection));
  }

  /**
   * The connection's rule for `namespace` ({@link ConnectionKitKind.tenancy}) once {@link ConnectionKit.admit} passed:
   * throws as `admit` does, and a `TerminalError` for a rule the connection cannot apply.
   */
  tenancy(connection: C, namespace: string): T {
    this.admit(connection, namespace);
    return this.#kind.tenancy(connection, namespace, () => this.admitted(connection));
  }

  /** The `spec.ignoredNames` of the cached connection `name`; empty when it names none or is not cached. */
  ignoredNames(name: string): readonly string[] {
    const connection = this.#deps.connections.store.get(name);
    return connection === undefined ? [] : (this.#kind.ignoredNames(connection) ?? []);
  }

  /**
   * The client bound to `connection`: its Secrets read (a retried `SecretNotFound` naming the connection when one is
   * missing), then {@link ConnectionKitKind.client} at the version of the connection and those Secrets. Never logs a value.
   */
  async client(connection: C, signal?: AbortSignal): Promise<K> {
    const whose = `${this.#kind.kind} "${connection.metadata.name ?? ''}"`;
    const secrets = await Promise.all(this.#kind.secretsOf(connection).map((at) => (at === undefined ? Promise.resolve(undefined) : requiredSecret(this.#deps.secrets, at, whose, signal))));
    return this.#kind.client(connection, secrets, connectionVersion(connection, secrets));
  }

  /**
   * The client of the connection an external name `<connection>/<name>` is on: {@link ConnectionKit.get} then
   * {@link ConnectionKit.client}. What a managed kind's `ExternalResourceOptions.client` is (the recorded name when
   * deleting, so a resource whose spec changed deletes from where it created). Rejects like both.
   */
  clientOf(externalName: string, signal?: AbortSignal): Promise<K> {
    return Promise.resolve().then(() => this.client(this.get(parseConnectionExternalName(externalName).connection), signal));
  }
}
