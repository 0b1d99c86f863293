import { getCondition, READY_CONDITION } from '../core/conditions.ts';
import { TerminalError } from '../core/errors.ts';
import { ConnectionReasons } from './connection-reasons.ts';
import type { ConnectionObject, StoreSource } from './connection-object.ts';
import { DependencyError } from './dependency-error.ts';

/** What a {@link ConnectionLookup} reads: the connections' cache (its `store` is read at call time, never before). */
export interface ConnectionLookupDeps<K extends ConnectionObject> {
  readonly connections: StoreSource<K>;
}

/** Options of a {@link ConnectionLookup}. */
export interface ConnectionLookupOptions {
  /** The connection kind, for messages: `KafkaConnection`. */
  readonly kind: string;
  /**
   * The `Ready=False` reasons of a connection known not to work (its system unreachable, its login refused, its
   * Secret missing): a dependent of such a connection fails with the same reason without calling the system.
   * Reasons not listed (a permission the check alone needs) let dependents try for themselves.
   */
  readonly blockingReasons: readonly string[];
}

/**
 * Resolves a dependent's connection from the cache (crossplane's ProviderConfig lookup), and gates dependents on the
 * connection's own `Ready`. Reads the cache only (may be stale); never blocks; keeps nothing.
 */
export class ConnectionLookup<K extends ConnectionObject> {
  readonly #deps: ConnectionLookupDeps<K>;
  readonly #kind: string;
  readonly #blocking: ReadonlySet<string>;

  /** Reads nothing yet. */
  constructor(deps: ConnectionLookupDeps<K>, options: ConnectionLookupOptions) {
    this.#deps = deps;
    this.#kind = options.kind;
    this.#blocking = new Set(options.blockingReasons);
  }

  /**
   * The cached connection `name`. Throws {@link DependencyError} `ConnectionNotFound` when there is none: retried
   * with backoff, and the dependent is woken when the connection is created.
   */
  get(name: string): K {
    const connection = this.#deps.connections.store.get(name);
    if (connection === undefined) throw new DependencyError(ConnectionReasons.notFound, `${this.#kind} "${name}" does not exist`);
    return connection;
  }

  /**
   * Throws `TerminalError` (not stalling) with the connection's own reason and message when its `Ready` is `False` at
   * its current generation with one of the blocking reasons: dependents wait for it (they are woken when `Ready` flips) instead
   * of each timing out against the system. A connection not checked yet, or checked at an older generation, passes.
   */
  assertUsable(connection: K): void {
    const ready = getCondition(connection.status?.conditions, READY_CONDITION);
    if (ready?.status !== 'False' || !this.#blocking.has(ready.reason)) return;
    if (ready.observedGeneration !== undefined && ready.observedGeneration !== connection.metadata.generation) return;
    // Not stalled: the connection may recover on its own, and its flip wakes the dependent (kstatus: InProgress).
    throw new TerminalError(`${this.#kind} "${connection.metadata.name ?? ''}" is not ready: ${ready.message}`, ready.reason, { stalls: false });
  }

  /** {@link ConnectionLookup.get} then {@link ConnectionLookup.assertUsable}: the connection a dependent may use now. */
  usable(name: string): K {
    const connection = this.get(name);
    this.assertUsable(connection);
    return connection;
  }
}
