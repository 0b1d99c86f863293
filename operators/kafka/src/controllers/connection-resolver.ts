import type { V1Namespace } from '@kubernetes/client-node';
import { ConnectionLookup, connectionVersion, NamespaceAdmission, Reasons, requiredSecret, requiredSecretValue, TerminalError } from '@domain-operators/reconcile';
import type { SecretSource, StoreSource } from '@domain-operators/reconcile';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import type { KafkaConnectionOptions } from '../kafka/connection.ts';
import { KafkaReasons } from '../kafka/reasons.ts';
import { checkPrefixTemplate, renderNamePrefix } from '../kafka/tenancy.ts';
import type { KafkaTenancy } from '../kafka/types.ts';
import type { ClusterClients, KafkaClientPool } from './kafka-client-pool.ts';

/** Dependencies of a {@link ConnectionResolver}; stores are read lazily (at call time), never at construction. */
export interface ConnectionResolverDeps {
  readonly connections: StoreSource<KafkaConnection>;
  readonly namespaces: StoreSource<V1Namespace>;
  readonly secrets: SecretSource;
  readonly pool: KafkaClientPool;
}

/** Reasons of a connection that is known not to work, copied onto its topics and users without asking Kafka. */
const BLOCKING_REASONS = [KafkaReasons.unavailable, Reasons.authenticationFailed, Reasons.secretNotFound, Reasons.invalidSpec];

/**
 * What a KafkaTopic or KafkaUser needs from its KafkaConnection, on the runtime's connection module: the connection
 * (from the cache; `ConnectionNotFound` is retried, see `ConnectionLookup`), its Ready gate, the namespace's
 * admission by the tenancy selector and its name prefix, and the shared clients (built from the connection's
 * Secrets). Kafka's own parts are the prefix template and the clients. Never logs or returns a password in a message.
 */
export class ConnectionResolver {
  readonly #deps: ConnectionResolverDeps;
  readonly #lookup: ConnectionLookup<KafkaConnection>;
  readonly #admission: NamespaceAdmission;

  /** Reads nothing yet. */
  constructor(deps: ConnectionResolverDeps) {
    this.#deps = deps;
    this.#lookup = new ConnectionLookup(deps, { kind: 'KafkaConnection', blockingReasons: BLOCKING_REASONS });
    this.#admission = new NamespaceAdmission(deps, { kind: 'KafkaConnection' });
  }

  /** The cached KafkaConnection `name`; a retryable `DependencyError` `ConnectionNotFound` when there is none. */
  connection(name: string): KafkaConnection {
    return this.#lookup.get(name);
  }

  /** Throws the connection's own reason when its status says it does not work at its current generation (`ConnectionLookup.assertUsable`). */
  assertUsable(connection: KafkaConnection): void {
    this.#lookup.assertUsable(connection);
  }

  /**
   * The name prefix `namespace` must use on this connection (`''` when there is no naming rule). `TerminalError`
   * `TenancyViolation` when the connection does not select the namespace, `InvalidConnection` for an unusable
   * prefix template; a retryable `NamespaceNotFound` while the namespace is not cached and a selector must be checked.
   */
  prefixFor(connection: KafkaConnection, namespace: string): string {
    const tenancy = tenancyOf(connection);
    this.#admission.admit(connection.metadata.name ?? '', tenancy?.namespaceSelector, namespace);
    if (tenancy?.namePrefix !== undefined) {
      const template = checkPrefixTemplate(tenancy.namePrefix);
      if (!template.ok) throw new TerminalError(`KafkaConnection "${connection.metadata.name ?? ''}": ${template.violation.message}`, KafkaReasons.invalidConnection);
    }
    return renderNamePrefix(tenancy, namespace);
  }

  /** The shared clients of `connection`, rebuilt when the connection or its Secrets changed. */
  async clients(connection: KafkaConnection, signal?: AbortSignal): Promise<ClusterClients> {
    const { spec } = connection;
    const name = connection.metadata.name ?? '';
    const saslRef = spec.sasl?.secretRef;
    const caRef = spec.tls?.enabled === true ? spec.tls.caSecretRef : undefined;
    const whose = `KafkaConnection "${name}"`;
    const [saslSecret, caSecret] = await Promise.all([
      saslRef === undefined ? undefined : requiredSecret(this.#deps.secrets, saslRef, whose, signal),
      caRef === undefined ? undefined : requiredSecret(this.#deps.secrets, caRef, whose, signal),
    ]);
    const key = connectionVersion(connection, [saslSecret, caSecret]);
    return this.#deps.pool.clientsFor(name, key, () => {
      const options: { -readonly [K in keyof KafkaConnectionOptions]: KafkaConnectionOptions[K] } = { bootstrapServers: spec.bootstrapServers };
      if (saslRef !== undefined && saslSecret !== undefined && spec.sasl !== undefined) {
        const username = requiredSecretValue(saslSecret, saslRef.usernameKey, whose);
        const password = requiredSecretValue(saslSecret, saslRef.passwordKey, whose);
        options.sasl = { mechanism: spec.sasl.mechanism, username, password };
      }
      if (spec.tls?.enabled === true) {
        const ca = caRef !== undefined && caSecret !== undefined ? requiredSecretValue(caSecret, caRef.key, whose) : undefined;
        options.tls = { ...(ca !== undefined && { ca }), ...(spec.tls.insecureSkipVerify === true && { insecureSkipVerify: true }) };
      }
      return options;
    });
  }
}

/** The tenancy rule of a connection in the adapter's types. Pure. */
export function tenancyOf(connection: KafkaConnection): KafkaTenancy | undefined {
  const tenancy = connection.spec.tenancy;
  if (tenancy === undefined) return undefined;
  return {
    ...(tenancy.namespaceSelector !== undefined && { namespaceSelector: tenancy.namespaceSelector }),
    ...(tenancy.namePrefix !== undefined && { namePrefix: tenancy.namePrefix }),
    ...(tenancy.defaultUserQuotas !== undefined && { defaultUserQuotas: tenancy.defaultUserQuotas }),
    ...(tenancy.maxUserQuotas !== undefined && { maxUserQuotas: tenancy.maxUserQuotas }),
  };
}
