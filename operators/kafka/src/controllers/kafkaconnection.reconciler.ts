import { ConnectionReconciler, Reasons, TerminalError } from '@domain-operators/reconcile';
import type { Client, ConnectionCheck, ConnectionHealth, Recorder } from '@domain-operators/reconcile';
import { GROUP, kafkaConnections } from '../api/v1alpha1/index.ts';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import { KafkaReasons } from '../kafka/reasons.ts';
import { checkPrefixTemplate } from '../kafka/tenancy.ts';
import { connectionHealth } from './cluster-identity.ts';
import type { KafkaConnections } from './kafka-connections.ts';

/** Dependencies of {@link kafkaConnectionReconciler}. */
export interface KafkaConnectionReconcilerDeps {
  readonly client: Client;
  readonly kit: KafkaConnections;
  readonly events: Recorder;
  readonly now?: () => Date;
}

/** Options of {@link kafkaConnectionReconciler}. */
export interface KafkaConnectionReconcilerOptions {
  /** How often a working connection is checked again (default 30 s; per connection `kafka.domain-operators.io/health-check-interval`). */
  readonly healthyIntervalMs?: number;
  /** How often a failing connection is tried again: a fixed, capped pace, never a hot loop (default 10 s). */
  readonly failingIntervalMs?: number;
}

/**
 * Kafka's part of the connection check: the `namePrefix` template must be usable (`InvalidSpec` otherwise), then the
 * connection's Secrets are read and Kafka is asked for the cluster through the shared clients (the same ones its
 * topics and users use; the fresh answer also refreshes their cached cluster id). Failures are thrown with their
 * reason: `KafkaUnavailable`, `AuthenticationFailed`, `NotAuthorized`, `SecretNotFound` (the
 * runtime's reconciler writes them). A cluster id other than the one in `status.clusterId` is `ClusterReplaced`
 * ({@link connectionHealth}); a failed check leaves `status.clusterId` as it was, so a cluster replaced while it was
 * unreachable is still noticed when it answers.
 */
export class KafkaConnectionCheck implements ConnectionCheck<KafkaConnection> {
  readonly #kit: KafkaConnections;

  /** Does no work. */
  constructor(kit: KafkaConnections) {
    this.#kit = kit;
  }

  /** See the class comment. */
  async check(connection: KafkaConnection, signal: AbortSignal): Promise<ConnectionHealth> {
    const prefix = connection.spec.tenancy?.namePrefix;
    const template = prefix === undefined ? undefined : checkPrefixTemplate(prefix);
    if (template !== undefined && !template.ok) throw new TerminalError(template.violation.message, Reasons.invalidSpec);
    const clients = await this.#kit.client(connection, signal);
    const info = await clients.clusterInfo(true);
    // The last id is read from status alone: a status write that failed leaves it, so the replacement is reported
    // again at the next check; a cache that trails our own write only keeps ClusterReplaced a moment longer.
    return connectionHealth(info, connection.status?.clusterId);
  }
}

/**
 * The KafkaConnection reconciler: the runtime's {@link ConnectionReconciler} over {@link KafkaConnectionCheck}
 * (`Ready` with the cluster id, controller and brokers, `True`/`ClusterReplaced` for one check after the cluster id
 * changed, or `False` with the failure's reason, `KafkaError` for one without; an Event when `Ready` changes;
 * rechecked every 30 s, every 10 s while failing). Its topics and users wait
 * on a connection that is not Ready and are woken when it becomes Ready again. No I/O.
 */
export function kafkaConnectionReconciler(deps: KafkaConnectionReconcilerDeps, options: KafkaConnectionReconcilerOptions = {}): ConnectionReconciler<KafkaConnection> {
  return new ConnectionReconciler(
    { client: deps.client, type: kafkaConnections.type, events: deps.events, check: new KafkaConnectionCheck(deps.kit), ...(deps.now !== undefined && { now: deps.now }) },
    { ...options, fallbackReason: KafkaReasons.error, intervalAnnotation: `${GROUP}/health-check-interval` },
  );
}
