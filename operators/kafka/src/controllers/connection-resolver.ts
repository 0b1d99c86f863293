import type { V1Namespace } from '@kubernetes/client-node';
import { ConnectionKit, Reasons, requiredSecretValue, TerminalError } from '@domain-operators/reconcile';
import type { ConnectionKitKind, SecretSource, StoreSource } from '@domain-operators/reconcile';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import type { KafkaConnectionOptions } from '../kafka/connection.ts';
import { KafkaReasons } from '../kafka/reasons.ts';
import { checkPrefixTemplate, renderNamePrefix } from '../kafka/tenancy.ts';
import type { KafkaTenancy } from '../api/v1alpha1/index.ts';
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
 * KafkaConnection as the runtime's {@link ConnectionKit} sees it: the SASL login and the CA Secret it names, and
 * the shared clients of the pool (one per connection version), built from them. Pure; builds a client only when called.
 */
function kafkaConnectionKind(pool: KafkaClientPool): ConnectionKitKind<KafkaConnection, ClusterClients> {
  return {
    kind: 'KafkaConnection',
    blockingReasons: BLOCKING_REASONS,
    namespaceSelector: (connection) => connection.spec.tenancy?.namespaceSelector,
    secretsOf: ({ spec }) => [spec.sasl?.secretRef, spec.tls?.enabled === true ? spec.tls.caSecretRef : undefined],
    client: (connection, [saslSecret, caSecret], version) =>
      pool.clientsFor(connection.metadata.name ?? '', version, () => {
        const { spec } = connection;
        const whose = `KafkaConnection "${connection.metadata.name ?? ''}"`;
        const options: { -readonly [K in keyof KafkaConnectionOptions]: KafkaConnectionOptions[K] } = { bootstrapServers: spec.bootstrapServers };
        const saslRef = spec.sasl?.secretRef;
        if (saslRef !== undefined && saslSecret !== undefined && spec.sasl !== undefined) {
          options.sasl = { mechanism: spec.sasl.mechanism, username: requiredSecretValue(saslSecret, saslRef.usernameKey, whose), password: requiredSecretValue(saslSecret, saslRef.passwordKey, whose) };
        }
        if (spec.tls?.enabled === true) {
          const caRef = spec.tls.caSecretRef;
          const ca = caRef !== undefined && caSecret !== undefined ? requiredSecretValue(caSecret, caRef.key, whose) : undefined;
          options.tls = { ...(ca !== undefined && { ca }), ...(spec.tls.insecureSkipVerify === true && { insecureSkipVerify: true }) };
        }
        return options;
      }),
  };
}

/**
 * What a KafkaTopic or KafkaUser needs from its KafkaConnection, on the runtime's {@link ConnectionKit}: the
 * connection (from the cache; `ConnectionNotFound` is retried), its Ready gate, the namespace's admission by the
 * tenancy selector and its name prefix, and the shared clients (built from the connection's Secrets; a missing one
 * is a retried `SecretNotFound`). Kafka's own parts are the prefix template and the clients. Never logs or returns
 * a password in a message.
 */
export class ConnectionResolver {
  readonly #kit: ConnectionKit<KafkaConnection, ClusterClients>;

  /** Reads nothing yet. */
  constructor(deps: ConnectionResolverDeps) {
    this.#kit = new ConnectionKit(deps, kafkaConnectionKind(deps.pool));
  }

  /** The cached KafkaConnection `name`; a retryable `DependencyError` `ConnectionNotFound` when there is none. */
  connection(name: string): KafkaConnection {
    return this.#kit.get(name);
  }

  /** Throws the connection's own reason when its status says it does not work at its current generation (`ConnectionLookup.assertUsable`). */
  assertUsable(connection: KafkaConnection): void {
    this.#kit.assertUsable(connection);
  }

  /**
   * The name prefix `namespace` must use on this connection (`''` when there is no naming rule). `TerminalError`
   * `TenancyViolation` when the connection does not select the namespace, `InvalidConnection` for an unusable
   * prefix template; a retryable `NamespaceNotFound` while the namespace is not cached and a selector must be checked.
   */
  prefixFor(connection: KafkaConnection, namespace: string): string {
    const tenancy = tenancyOf(connection);
    this.#kit.admit(connection, namespace);
    if (tenancy?.namePrefix !== undefined) {
      const template = checkPrefixTemplate(tenancy.namePrefix);
      if (!template.ok) throw new TerminalError(`KafkaConnection "${connection.metadata.name ?? ''}": ${template.violation.message}`, KafkaReasons.invalidConnection);
    }
    return renderNamePrefix(tenancy, namespace);
  }

  /** The shared clients of `connection`, rebuilt when the connection or its Secrets changed. */
  clients(connection: KafkaConnection, signal?: AbortSignal): Promise<ClusterClients> {
    return this.#kit.client(connection, signal);
  }

  /** The shared clients of the connection an external name `<connection>/<name>` is on (the runtime's `ConnectionKit.clientOf`). */
  clientsOf(externalName: string, signal?: AbortSignal): Promise<ClusterClients> {
    return this.#kit.clientOf(externalName, signal);
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
