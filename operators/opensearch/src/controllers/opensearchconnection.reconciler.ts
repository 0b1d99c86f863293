/**
 * `OpenSearchConnection`: checks the cluster (version, name, health, security plugin) with the connection's
 * credentials and reports it in status, `Ready` with reason `Connected`, or False with `OpenSearchUnavailable`
 * (unreachable, no answer within the probe timeout, red), `AuthenticationFailed`, `Forbidden`, `CredentialsNotFound`.
 * Rechecked every 30 s (annotation `opensearch.domain-operators.io/health-check-interval` overrides it); a failure is
 * thrown after the status write, so the loop retries with capped backoff and recovery needs nobody.
 */
import type { Client, Controller, InformerSource, Recorder, ReconcileContext, Reconciler } from '@domain-operators/reconcile';
import { bySecretRef, ControllerBuilder, coreTypes, getCondition, objectKey, parseDuration, patchStatusIfChanged, requestFor, Result } from '@domain-operators/reconcile';
import type { ConditionUpdate, ControllerOptions, Clock } from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/common.ts';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import { openSearchConnections } from '../api/v1alpha1/index.ts';
import { healthError, OpenSearchError } from '../opensearch/errors.ts';
import type { ClusterInfo } from '../opensearch/client.ts';
import type { ConnectionRegistry, Connections } from './connection-registry.ts';
import { operatorRateLimiter } from './managed-controller.ts';

/** Options of a {@link ConnectionReconciler}. */
export interface ConnectionReconcilerOptions {
  /** How often a connection is rechecked; default 30 s. */
  readonly checkIntervalMs?: number;
  /** How long the check may take before the cluster counts as unavailable; default 10 s. */
  readonly probeTimeoutMs?: number;
}

/** The collaborators of a {@link ConnectionReconciler}. */
export interface ConnectionReconcilerDeps {
  readonly connections: Pick<Connections, 'api'>;
  readonly client: Client;
  readonly events: Recorder;
  readonly now?: () => Date;
}

const HEALTH_CHECK_INTERVAL = `${GROUP}/health-check-interval`;
const MIN_CHECK_INTERVAL_MS = 1_000;

/** See the module comment. Construction does no work. */
export class ConnectionReconciler implements Reconciler<OpenSearchConnection> {
  readonly #deps: ConnectionReconcilerDeps;
  readonly #options: ConnectionReconcilerOptions;

  constructor(deps: ConnectionReconcilerDeps, options: ConnectionReconcilerOptions = {}) {
    this.#deps = deps;
    this.#options = options;
  }

  async reconcile(object: OpenSearchConnection, context: ReconcileContext): Promise<Result> {
    const name = object.metadata.name ?? '';
    let info: ClusterInfo;
    try {
      info = await this.#check(name, context);
    } catch (err) {
      if (!context.signal.aborted) await this.#fail(object, err, {});
      throw err;
    }
    const red = healthError(info.health, info.clusterName);
    if (red !== undefined) {
      await this.#fail(object, red, { health: info.health });
      throw red;
    }
    const becameReady = getCondition(object.status?.conditions, 'Ready')?.status !== 'True';
    const message = info.securityPlugin ? '' : 'the security plugin does not answer: roles, role bindings and users cannot be managed through this connection';
    await this.#write(object, { type: 'Ready', status: 'True', reason: 'Connected', message }, {
      clusterName: info.clusterName,
      version: info.version,
      health: info.health,
      securityPlugin: info.securityPlugin,
    });
    if (becameReady) this.#deps.events.record(object, { type: 'Normal', reason: 'Connected', action: 'CheckCluster', note: `connected to ${info.clusterName} (OpenSearch ${info.version}, ${info.health})` });
    return Result.requeueAfter(this.#interval(object));
  }

  /** Status first (Ready=False with the error's reason), a Warning Event on the transition; the caller rethrows. */
  async #fail(object: OpenSearchConnection, err: unknown, fields: Readonly<Record<string, unknown>>): Promise<void> {
    const reason = reasonOf(err);
    const message = err instanceof Error ? err.message : String(err);
    const wasReady = getCondition(object.status?.conditions, 'Ready')?.status !== 'False';
    await this.#write(object, { type: 'Ready', status: 'False', reason, message }, fields);
    if (wasReady) this.#deps.events.record(object, { type: 'Warning', reason, action: 'CheckCluster', note: message });
  }

  async #check(name: string, context: ReconcileContext): Promise<ClusterInfo> {
    const api = this.#deps.connections.api(name);
    const timeoutMs = this.#options.probeTimeoutMs ?? 10_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await api.clusterInfo({ signal: AbortSignal.any([context.signal, timeout]) });
    } catch (err) {
      if (timeout.aborted && !context.signal.aborted) {
        throw new OpenSearchError('OpenSearchUnavailable', `OpenSearch did not answer within ${timeoutMs} ms`);
      }
      throw err;
    }
  }

  async #write(object: OpenSearchConnection, condition: ConditionUpdate, fields: Readonly<Record<string, unknown>>): Promise<void> {
    await patchStatusIfChanged(this.#deps.client, openSearchConnections.type, object, { conditions: [condition], fields }, { now: (this.#deps.now ?? (() => new Date()))() });
  }

  #interval(object: OpenSearchConnection): number {
    const annotated = object.metadata.annotations?.[HEALTH_CHECK_INTERVAL];
    const parsed = annotated === undefined ? undefined : parseDuration(annotated);
    return parsed === undefined ? (this.#options.checkIntervalMs ?? 30_000) : Math.max(parsed, MIN_CHECK_INTERVAL_MS);
  }
}

function reasonOf(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'reason' in err && typeof err.reason === 'string' && /^[A-Z][A-Za-z0-9]*$/.test(err.reason)) return err.reason;
  return 'OpenSearchError';
}

/** Index of connections by the Secrets they read (`namespace/name`). */
export const BY_SECRET = 'secret';

/** Builds the `OpenSearchConnection` controller; a change of a credentials or CA Secret rechecks the connection. */
export function connectionController(
  deps: { readonly informers: InformerSource; readonly connections: ConnectionRegistry; readonly client: Client; readonly events: Recorder; readonly controllerOptions: ControllerOptions; readonly clock: Clock },
  options: ConnectionReconcilerOptions = {},
): Controller<OpenSearchConnection> {
  const indexers = {
    [BY_SECRET]: bySecretRef((object: OpenSearchConnection) => [object.spec.credentialsSecretRef, ...(object.spec.tls?.caSecretRef === undefined ? [] : [object.spec.tls.caSecretRef])]),
  };
  const informer = deps.informers.informerFor(openSearchConnections.type, { indexers });
  informer.onChange((change) => {
    if (change.type === 'Deleted') deps.connections.forget(change.object.metadata.name ?? '');
  });
  return new ControllerBuilder({ informers: deps.informers }, 'opensearchconnection')
    .for(openSearchConnections.type)
    .watches(coreTypes.secret, (secret) => informer.store.byIndex(BY_SECRET, objectKey(secret)).map(requestFor))
    .withOptions({ ...deps.controllerOptions, rateLimiter: operatorRateLimiter(deps.clock) })
    .complete(new ConnectionReconciler({ connections: deps.connections, client: deps.client, events: deps.events }, options), { indexers });
}
