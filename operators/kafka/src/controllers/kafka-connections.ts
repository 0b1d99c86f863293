import type { V1Namespace } from '@kubernetes/client-node';
import { ConnectionKit, Reasons, requiredSecretValue, TerminalError } from '@domain-operators/reconcile';
import type { ConnectionKitKind, SecretSource, StoreSource } from '@domain-operators/reconcile';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import type { KafkaConnectionOptions } from '../kafka/connection.ts';
import { KafkaReasons } from '../kafka/reasons.ts';
import { checkPrefixTemplate, renderNamePrefix } from '../kafka/tenancy.ts';
import type { ClusterClients, KafkaClientPool } from './kafka-client-pool.ts';

/** What {@link kafkaConnectionKit} reads; stores are read lazily (at call time), never at construction. */
export interface KafkaConnectionsDeps {
  readonly connections: StoreSource<KafkaConnection>;
  readonly namespaces: StoreSource<V1Namespace>;
  readonly secrets: SecretSource;
  readonly pool: KafkaClientPool;
}

/** Reasons of a connection that is known not to work, copied onto its topics and users without asking Kafka. */
const BLOCKING_REASONS = [KafkaReasons.unavailable, Reasons.authenticationFailed, Reasons.secretNotFound, Reasons.invalidSpec];

/**
 * The name prefix `namespace` must use on `connection` (`''` when there is no naming rule); a `TerminalError`
 * `InvalidConnection` for an unusable prefix template. Pure.
 */
function prefixOf(connection: KafkaConnection, namespace: string): string {
  const tenancy = connection.spec.tenancy;
  if (tenancy?.namePrefix !== undefined) {
    const template = checkPrefixTemplate(tenancy.namePrefix);
    if (!template.ok) throw new TerminalError(`KafkaConnection "${connection.metadata.name ?? ''}": ${template.violation.message}`, KafkaReasons.invalidConnection);
  }
  return renderNamePrefix(tenancy, namespace);
}

/**
 * KafkaConnection as the runtime's {@link ConnectionKit} sees it: the SASL login and the CA Secret it names, and
 * the shared clients of the pool (one per connection version), built from them. Pure; builds a client only when called.
 */
function kafkaConnectionKind(pool: KafkaClientPool): ConnectionKitKind<KafkaConnection, ClusterClients> {
  return {
    kind: 'KafkaConnection',
    blockingReasons: BLOCKING_REASONS,
    namespaceSelector: (connection) => connection.spec.tenancy?.namespaceSelector,
    tenancy: (connection, namespace) => prefixOf(connection, namespace),
    ignoredNames: (connection) => connection.spec.ignoredNames,
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
 * What a KafkaTopic or KafkaUser needs from its KafkaConnection: the runtime's {@link ConnectionKit} over
 * {@link kafkaConnectionKind}: the connection (from the cache; `ConnectionNotFound` is retried), its Ready gate, the
 * namespace's admission by the tenancy selector and its name prefix (`tenancy`), and the shared clients (built from
 * the connection's Secrets; a missing one is a retried `SecretNotFound`). Never logs or returns a password in a message.
 */
export type KafkaConnections = ConnectionKit<KafkaConnection, ClusterClients>;

/** The {@link KafkaConnections} over the caches in `deps`; reads nothing yet. */
export function kafkaConnectionKit(deps: KafkaConnectionsDeps): KafkaConnections {
  return new ConnectionKit(deps, kafkaConnectionKind(deps.pool));
}
