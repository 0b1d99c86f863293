import { errorFields, getCondition, isTerminalError, patchStatusIfChanged, Result } from '@domain-operators/reconcile';
import type { Client, ConditionUpdate, ReconcileContext, Reconciler, Recorder } from '@domain-operators/reconcile';
import { kafkaConnections } from '../api/v1alpha1/index.ts';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import type { ClusterInfo } from '../kafka/admin.ts';
import { isKafkaAdminError } from '../kafka/errors.ts';
import { checkPrefixTemplate } from '../kafka/tenancy.ts';
import type { ConnectionResolver } from './connection-resolver.ts';

/** Dependencies of a {@link KafkaConnectionReconciler}. */
export interface KafkaConnectionReconcilerDeps {
  readonly client: Client;
  readonly resolver: ConnectionResolver;
  readonly events: Recorder;
  readonly now?: () => Date;
}

/** Options of a {@link KafkaConnectionReconciler}. */
export interface KafkaConnectionReconcilerOptions {
  /** How often a working connection is checked again (default 30 s). */
  readonly healthyIntervalMs?: number;
  /** How often a failing connection is tried again: a fixed, capped pace, never a hot loop (default 10 s). */
  readonly failingIntervalMs?: number;
}

/**
 * Checks a KafkaConnection: reads its Secrets, logs in to Kafka with them through the shared clients (the same ones
 * its topics and users use) and writes `Ready` with the cluster id, controller and brokers. Failures become
 * `Ready=False` with reason `KafkaUnavailable`, `AuthenticationFailed`, `SecretNotFound`, `InvalidSecret` or
 * `InvalidSpec`, and a check every `failingIntervalMs`; a change of `Ready` is recorded as an Event. Its topics and
 * users wait on a connection that is not Ready, and are woken when it becomes Ready again. Writes status only when
 * it changed.
 */
export class KafkaConnectionReconciler implements Reconciler<KafkaConnection> {
  readonly #deps: KafkaConnectionReconcilerDeps;
  readonly #options: KafkaConnectionReconcilerOptions;

  /** Does no work. */
  constructor(deps: KafkaConnectionReconcilerDeps, options: KafkaConnectionReconcilerOptions = {}) {
    this.#deps = deps;
    this.#options = options;
  }

  /** See the class comment. */
  async reconcile(connection: KafkaConnection, context: ReconcileContext): Promise<Result> {
    const failing = this.#options.failingIntervalMs ?? 10_000;
    const prefix = connection.spec.tenancy?.namePrefix;
    if (prefix !== undefined) {
      const checked = checkPrefixTemplate(prefix);
      if (!checked.ok) {
        await this.#write(connection, context, { type: 'Ready', status: 'False', reason: 'InvalidSpec', message: checked.violation.message });
        return Result.done();
      }
    }
    let info: ClusterInfo;
    try {
      const clients = await this.#deps.resolver.clients(connection, context.signal);
      info = await clients.clusterInfo(true);
    } catch (err) {
      const reason = isTerminalError(err) ? err.reason : isKafkaAdminError(err) ? err.reason : 'KafkaError';
      const message = err instanceof Error ? err.message : String(err);
      context.log.info({ reason, ...errorFields(err) }, 'the Kafka connection does not work');
      await this.#write(connection, context, { type: 'Ready', status: 'False', reason, message });
      return Result.requeueAfter(failing);
    }
    await this.#write(
      connection,
      context,
      { type: 'Ready', status: 'True', reason: 'Connected', message: `connected to cluster ${info.clusterId} (${info.brokers.length} brokers)` },
      {
        clusterId: info.clusterId,
        controllerId: info.controllerId,
        brokers: info.brokers.map((b) => ({ id: b.id, host: b.host, port: b.port, ...(b.rack !== undefined && { rack: b.rack }) })),
      },
    );
    return Result.requeueAfter(this.#options.healthyIntervalMs ?? 30_000);
  }

  async #write(connection: KafkaConnection, context: ReconcileContext, ready: ConditionUpdate, fields?: Record<string, unknown>): Promise<void> {
    const before = getCondition(connection.status?.conditions, 'Ready');
    const now = (this.#deps.now ?? (() => new Date()))();
    await patchStatusIfChanged(this.#deps.client, kafkaConnections.type, connection, { conditions: [ready], ...(fields !== undefined && { fields }) }, { now, signal: context.signal });
    if (before?.status !== ready.status || before.reason !== ready.reason) {
      this.#deps.events.record(connection, {
        type: ready.status === 'True' ? 'Normal' : 'Warning',
        reason: ready.reason,
        action: 'Connect',
        note: ready.status === 'True' ? ready.message : `Kafka connection not ready: ${ready.message}`,
      });
    }
  }
}
