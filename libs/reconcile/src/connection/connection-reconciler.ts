import type { Client } from '../client/client.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { ConditionUpdate } from '../core/conditions.ts';
import { getCondition, READY_CONDITION } from '../core/conditions.ts';
import { errorReason } from '../core/reasoned-error.ts';
import { errorFields } from '../core/logger.ts';
import { Result } from '../core/result.ts';
import type { ReconcileContext, Reconciler } from '../controller/reconciler.ts';
import { parseDuration } from '../external/drift.ts';
import type { Recorder } from '../observability/events.ts';
import { patchStatusIfChanged } from '../status/status.ts';
import type { ConnectionObject } from './connection-object.ts';
import { ConnectionReasons } from './connection-reasons.ts';

/** The condition reason of a connection whose check passed ({@link ConnectionReasons}.connected). */
export const CONNECTED = ConnectionReasons.connected;

/**
 * What a connection check found. Ready: `message` goes into the condition, `note` (default `message`) into the
 * Event; `reason` (default `Connected`) is a CamelCase reason for a connection that works with something to say (the
 * Kafka operator's `ClusterReplaced`), and `eventType` (default `Normal`) the type of the Event recorded when the
 * reason changes. Not ready: the CamelCase `reason` and `message` go into `Ready=False`. `fields` are the kind's own
 * status fields (a cluster id, a version, a health colour); `null` removes one. Never secrets.
 */
export type ConnectionHealth =
  | {
      readonly ready: true;
      readonly message: string;
      readonly note?: string;
      readonly reason?: string;
      readonly eventType?: 'Normal' | 'Warning';
      readonly fields?: Readonly<Record<string, unknown>>;
    }
  | { readonly ready: false; readonly reason: string; readonly message: string; readonly fields?: Readonly<Record<string, unknown>> };

/**
 * The operator's part of checking a connection (crossplane's Connect, for a `*Connection` itself): build or reuse the
 * shared client from the connection and its Secrets, and ask the cluster. Throws for a failure; an error with a
 * CamelCase string `reason` is reported with that reason, its `message` shown to users (so never a secret).
 * Honours `signal`.
 */
export interface ConnectionCheck<K extends ConnectionObject> {
  check(connection: K, signal: AbortSignal): Promise<ConnectionHealth>;
}

/** Dependencies of a {@link ConnectionReconciler}. */
export interface ConnectionReconcilerDeps<K extends ConnectionObject> {
  readonly client: Client;
  readonly type: ResourceType<K>;
  readonly events: Recorder;
  readonly check: ConnectionCheck<K>;
  readonly now?: () => Date;
}

/** Options of a {@link ConnectionReconciler}. */
export interface ConnectionReconcilerOptions {
  /** The reason of a failure whose error carries none: `KafkaError`. */
  readonly fallbackReason: string;
  /** How often a working connection is checked again (default 30 s). */
  readonly healthyIntervalMs?: number;
  /** How often a failing connection is checked again: a fixed pace, never a hot loop, never a long backoff (default 10 s). */
  readonly failingIntervalMs?: number;
  /**
   * The annotation that overrides `healthyIntervalMs` per connection (`<group>/health-check-interval: 10s`, at least
   * 1 s); absent: none is read.
   */
  readonly intervalAnnotation?: string;
}

const MIN_INTERVAL_MS = 1_000;

/**
 * Reconciles a `*Connection`: runs the operator's {@link ConnectionCheck} and writes `Ready` (`True`/`Connected` or the
 * check's own reason, or `False` with the failure's reason) with the check's status fields, only when something changed. A change of
 * `Ready`'s status or reason is recorded as an Event (`Connected`, Normal; the failure's reason, Warning). A working
 * connection is checked again every `healthyIntervalMs`, a failing one every `failingIntervalMs`; a change of the
 * connection or its Secrets (the operator's watches) checks it at once. Its dependents are gated on this `Ready`
 * (`ConnectionLookup.assertUsable`) and woken when it flips (`watchConnectionDependents`).
 */
export class ConnectionReconciler<K extends ConnectionObject> implements Reconciler<K> {
  readonly #deps: ConnectionReconcilerDeps<K>;
  readonly #options: ConnectionReconcilerOptions;

  /** Does no work. */
  constructor(deps: ConnectionReconcilerDeps<K>, options: ConnectionReconcilerOptions) {
    this.#deps = deps;
    this.#options = options;
  }

  /** See the class comment. Throws only when the status write fails or the reconcile was aborted. */
  async reconcile(connection: K, context: ReconcileContext): Promise<Result> {
    let health: ConnectionHealth;
    try {
      health = await this.#deps.check.check(connection, context.signal);
    } catch (err) {
      if (context.signal.aborted) throw err;
      health = { ready: false, reason: this.#reasonOf(err), message: err instanceof Error ? err.message : String(err) };
      context.log.info({ reason: health.reason, ...errorFields(err) }, 'the connection does not work');
    }
    const ready: ConditionUpdate = health.ready
      ? { type: READY_CONDITION, status: 'True', reason: health.reason ?? CONNECTED, message: health.message }
      : { type: READY_CONDITION, status: 'False', reason: health.reason, message: health.message };
    const before = getCondition(connection.status?.conditions, READY_CONDITION);
    const now = (this.#deps.now ?? (() => new Date()))();
    await patchStatusIfChanged(this.#deps.client, this.#deps.type, connection, { conditions: [ready], ...(health.fields !== undefined && { fields: health.fields }) }, { now, signal: context.signal });
    if (before?.status !== ready.status || before.reason !== ready.reason) {
      this.#deps.events.record(connection, {
        type: health.ready ? (health.eventType ?? 'Normal') : 'Warning',
        reason: ready.reason,
        action: 'Connect',
        note: health.ready ? (health.note ?? health.message) : health.message,
      });
    }
    return Result.requeueAfter(health.ready ? this.#healthyInterval(connection) : (this.#options.failingIntervalMs ?? 10_000));
  }

  #reasonOf(err: unknown): string {
    return errorReason(err) ?? this.#options.fallbackReason;
  }

  #healthyInterval(connection: K): number {
    const annotation = this.#options.intervalAnnotation;
    const annotated = annotation === undefined ? undefined : connection.metadata.annotations?.[annotation];
    const parsed = annotated === undefined ? undefined : parseDuration(annotated);
    return parsed === undefined ? (this.#options.healthyIntervalMs ?? 30_000) : Math.max(parsed, MIN_INTERVAL_MS);
  }
}
