/**
 * `OpenSearchConnection`: the runtime's `ConnectionReconciler` over OpenSearch's check of the cluster (version, name,
 * health, security plugin) with the connection's credentials. `Ready` with reason `Connected`, or False with
 * `OpenSearchUnavailable` (unreachable, no answer within the probe timeout, red), `AuthenticationFailed`, `NotAuthorized`,
 * `SecretNotFound` (the login Secret, a key in it, or the CA). Rechecked every 30 s (annotation
 * `opensearch.domain-operators.io/health-check-interval` overrides it), every 10 s while it fails, so recovery needs nobody.
 */
import type { Client, ConnectionCheck, ConnectionHealth, Controller, InformerSource, Recorder } from '@domain-operators/reconcile';
import { bySecretRef, ConnectionReconciler, ControllerBuilder, coreTypes, forgetClientsOfDeleted, metadataOnly, objectKey, requestFor } from '@domain-operators/reconcile';
import type { ControllerOptions, Clock } from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/common.ts';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import { openSearchConnections } from '../api/v1alpha1/index.ts';
import { healthError, OpenSearchError } from '../opensearch/errors.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import type { ConnectionRegistry, Connections } from './connection-registry.ts';
import { operatorRateLimiter } from './managed-controller.ts';

/** Options of the connection check and its reconciler. */
export interface ConnectionReconcilerOptions {
  /** How often a connection is rechecked; default 30 s. */
  readonly checkIntervalMs?: number;
  /** How often a failing connection is rechecked; default 10 s. */
  readonly failingIntervalMs?: number;
  /** How long the check may take before the cluster counts as unavailable; default 10 s. */
  readonly probeTimeoutMs?: number;
}

/** OpenSearch's part of the connection check: the shared client, one cluster-info request within the probe timeout. */
export class OpenSearchConnectionCheck implements ConnectionCheck<OpenSearchConnection> {
  readonly #connections: Pick<Connections, 'api'>;
  readonly #probeTimeoutMs: number;

  /** Does no work. */
  constructor(connections: Pick<Connections, 'api'>, options: Pick<ConnectionReconcilerOptions, 'probeTimeoutMs'> = {}) {
    this.#connections = connections;
    this.#probeTimeoutMs = options.probeTimeoutMs ?? 10_000;
  }

  /** Asks the cluster; red health is a failure (`OpenSearchUnavailable`, health in status); throws any other failure. */
  async check(connection: OpenSearchConnection, signal: AbortSignal): Promise<ConnectionHealth> {
    const api = await this.#connections.api(connection.metadata.name ?? '');
    const timeout = AbortSignal.timeout(this.#probeTimeoutMs);
    let info;
    try {
      info = await api.clusterInfo({ signal: AbortSignal.any([signal, timeout]) });
    } catch (err) {
      if (timeout.aborted && !signal.aborted) throw new OpenSearchError(OpenSearchReasons.unavailable, `OpenSearch did not answer within ${this.#probeTimeoutMs} ms`);
      throw err;
    }
    const red = healthError(info.health, info.clusterName);
    if (red !== undefined) return { ready: false, reason: red.reason, message: red.message, fields: { health: info.health } };
    return {
      ready: true,
      message: info.securityPlugin ? '' : 'the security plugin does not answer: roles, role bindings and users cannot be managed through this connection',
      note: `connected to ${info.clusterName} (OpenSearch ${info.version}, ${info.health})`,
      fields: { clusterName: info.clusterName, version: info.version, health: info.health, securityPlugin: info.securityPlugin },
    };
  }
}

/** Index of connections by the Secrets they read (`namespace/name`). */
export const BY_SECRET = 'secret';

/**
 * Builds the `OpenSearchConnection` controller; a change of a credentials or CA Secret (seen through the
 * metadata-only Secret watch: no data held) rechecks the connection, and a
 * deleted connection's client is retired.
 */
export function connectionController(
  deps: { readonly informers: InformerSource; readonly connections: ConnectionRegistry; readonly client: Client; readonly events: Recorder; readonly controllerOptions: ControllerOptions; readonly clock: Clock },
  options: ConnectionReconcilerOptions = {},
): Controller<OpenSearchConnection> {
  const indexers = {
    [BY_SECRET]: bySecretRef((object: OpenSearchConnection) => [object.spec.credentialsSecretRef, ...(object.spec.tls?.caSecretRef === undefined ? [] : [object.spec.tls.caSecretRef])]),
  };
  const informer = deps.informers.informerFor(openSearchConnections.type, { indexers });
  forgetClientsOfDeleted(informer, deps.connections);
  const reconciler = new ConnectionReconciler(
    { client: deps.client, type: openSearchConnections.type, events: deps.events, check: new OpenSearchConnectionCheck(deps.connections, options) },
    {
      fallbackReason: OpenSearchReasons.error,
      intervalAnnotation: `${GROUP}/health-check-interval`,
      ...(options.checkIntervalMs === undefined ? {} : { healthyIntervalMs: options.checkIntervalMs }),
      ...(options.failingIntervalMs === undefined ? {} : { failingIntervalMs: options.failingIntervalMs }),
    },
  );
  return new ControllerBuilder({ informers: deps.informers }, 'opensearchconnection')
    .for(openSearchConnections.type)
    .watches(metadataOnly(coreTypes.secret), (secret) => informer.store.byIndex(BY_SECRET, objectKey(secret)).map(requestFor))
    .withOptions({ ...deps.controllerOptions, rateLimiter: operatorRateLimiter(deps.clock) })
    .complete(reconciler, { indexers });
}
