import type { V1Namespace } from '@kubernetes/client-node';
import { getCondition, secretValue, TerminalError } from '@domain-operators/reconcile';
import type { SecretSource, Store } from '@domain-operators/reconcile';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import type { KafkaConnectionOptions } from '../kafka/connection.ts';
import { checkNamespace, checkPrefixTemplate, renderNamePrefix, tenancyError } from '../kafka/tenancy.ts';
import type { KafkaTenancy } from '../kafka/types.ts';
import type { ClusterClients, KafkaClientPool } from './kafka-client-pool.ts';

/** Dependencies of a {@link ConnectionResolver}; stores are read lazily (at call time), never at construction. */
export interface ConnectionResolverDeps {
  readonly connections: { readonly store: Store<KafkaConnection> };
  readonly namespaces: { readonly store: Store<V1Namespace> };
  readonly secrets: SecretSource;
  readonly pool: KafkaClientPool;
}

/** Reasons of a connection that is known not to work, copied onto its topics and users without asking Kafka. */
const NOT_READY_REASONS = new Set(['KafkaUnavailable', 'AuthenticationFailed', 'SecretNotFound', 'InvalidSecret', 'InvalidSpec']);

/**
 * Resolves what a KafkaTopic or KafkaUser needs from its KafkaConnection: the connection itself (from the cache),
 * the tenancy rule for its namespace, and the shared clients (built from the connection's Secrets). Errors are
 * `TerminalError`s with a condition reason (`ConnectionNotFound`, `SecretNotFound`, `InvalidSecret`,
 * `TenancyViolation`): each clears only through a change that wakes the resource (its connection, namespace or
 * Secret). Never logs or returns a password in a message.
 */
export class ConnectionResolver {
  readonly #deps: ConnectionResolverDeps;

  /** Reads nothing yet. */
  constructor(deps: ConnectionResolverDeps) {
    this.#deps = deps;
  }

  /** The cached KafkaConnection `name`; `TerminalError` `ConnectionNotFound` when there is none. */
  connection(name: string): KafkaConnection {
    const connection = this.#deps.connections.store.get(name);
    if (connection === undefined) throw new TerminalError(`KafkaConnection "${name}" does not exist`, 'ConnectionNotFound');
    return connection;
  }

  /**
   * Throws when the connection's own status says it does not work at its current generation (Kafka unreachable,
   * login refused, Secret missing), with that reason and message: its dependents wait for it to become Ready
   * instead of each timing out against Kafka. A connection without status yet passes.
   */
  assertUsable(connection: KafkaConnection): void {
    const ready = getCondition(connection.status?.conditions, 'Ready');
    if (ready?.status !== 'False' || !NOT_READY_REASONS.has(ready.reason)) return;
    if (ready.observedGeneration !== undefined && ready.observedGeneration !== connection.metadata.generation) return;
    throw new TerminalError(`KafkaConnection "${connection.metadata.name ?? ''}" is not ready: ${ready.message}`, ready.reason);
  }

  /**
   * The name prefix `namespace` must use on this connection (`''` when there is no naming rule). `TerminalError`
   * `TenancyViolation` when the connection does not select the namespace; a plain error (retry) when the
   * namespace is not cached yet and a selector must be checked.
   */
  prefixFor(connection: KafkaConnection, namespace: string): string {
    const tenancy = tenancyOf(connection);
    if (tenancy?.namespaceSelector !== undefined) {
      const ns = this.#deps.namespaces.store.get(namespace);
      if (ns === undefined) throw new Error(`namespace ${namespace} is not in the cache yet`);
      const checked = checkNamespace(connection.metadata.name ?? '', tenancy, namespace, ns.metadata?.labels ?? {});
      if (!checked.ok) throw tenancyError(checked.violation);
    }
    if (tenancy?.namePrefix !== undefined) {
      const template = checkPrefixTemplate(tenancy.namePrefix);
      if (!template.ok) throw new TerminalError(`KafkaConnection "${connection.metadata.name ?? ''}": ${template.violation.message}`, 'InvalidConnection');
    }
    return renderNamePrefix(tenancy, namespace);
  }

  /** The shared clients of `connection`, rebuilt when the connection or its Secrets changed. */
  async clients(connection: KafkaConnection, signal?: AbortSignal): Promise<ClusterClients> {
    const { spec } = connection;
    const name = connection.metadata.name ?? '';
    const saslRef = spec.sasl?.secretRef;
    const caRef = spec.tls?.enabled === true ? spec.tls.caSecretRef : undefined;
    const [saslSecret, caSecret] = await Promise.all([
      saslRef === undefined ? undefined : this.#required(name, saslRef.namespace, saslRef.name, signal),
      caRef === undefined ? undefined : this.#required(name, caRef.namespace, caRef.name, signal),
    ]);
    const key = [connection.metadata.uid, connection.metadata.generation, saslSecret?.metadata?.resourceVersion, caSecret?.metadata?.resourceVersion].join('/');
    return this.#deps.pool.clientsFor(name, key, () => {
      const options: { -readonly [K in keyof KafkaConnectionOptions]: KafkaConnectionOptions[K] } = { bootstrapServers: spec.bootstrapServers };
      if (saslRef !== undefined && saslSecret !== undefined && spec.sasl !== undefined) {
        const username = secretValue(saslSecret, saslRef.usernameKey);
        const password = secretValue(saslSecret, saslRef.passwordKey);
        if (username === undefined || password === undefined) {
          const missing = username === undefined ? saslRef.usernameKey : saslRef.passwordKey;
          throw new TerminalError(`Secret ${saslRef.namespace}/${saslRef.name} of KafkaConnection "${name}" has no key "${missing}"`, 'InvalidSecret');
        }
        options.sasl = { mechanism: spec.sasl.mechanism, username, password };
      }
      if (spec.tls?.enabled === true) {
        const ca = caRef !== undefined && caSecret !== undefined ? secretValue(caSecret, caRef.key) : undefined;
        if (caRef !== undefined && ca === undefined) {
          throw new TerminalError(`Secret ${caRef.namespace}/${caRef.name} of KafkaConnection "${name}" has no key "${caRef.key}"`, 'InvalidSecret');
        }
        options.tls = { ...(ca !== undefined && { ca }), ...(spec.tls.insecureSkipVerify === true && { insecureSkipVerify: true }) };
      }
      return options;
    });
  }

  async #required(connection: string, namespace: string, name: string, signal: AbortSignal | undefined) {
    const secret = await this.#deps.secrets.get(namespace, name, signal);
    if (secret === undefined) throw new TerminalError(`Secret ${namespace}/${name} of KafkaConnection "${connection}" does not exist`, 'SecretNotFound');
    return secret;
  }
}

/** The tenancy rule of a connection in the adapter's types. Pure. */
export function tenancyOf(connection: KafkaConnection): KafkaTenancy | undefined {
  const tenancy = connection.spec.tenancy;
  if (tenancy === undefined) return undefined;
  return {
    ...(tenancy.namespaceSelector !== undefined && { namespaceSelector: tenancy.namespaceSelector }),
    ...(tenancy.namePrefix !== undefined && { namePrefix: tenancy.namePrefix }),
  };
}
