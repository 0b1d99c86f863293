import type { KubernetesObject } from '@kubernetes/client-node';
import type { ReconcileContext } from '../controller/reconciler.ts';

/**
 * A kind's own top-level status fields (a topic's id and partition count, an index's uuid and health), as an
 * adapter call reports them; `null` removes a field. Never `conditions` or `observedGeneration`: the reconciler
 * writes those. Values must never contain secrets (a password's fingerprint is fine, the password is not).
 */
export type ExternalStatusFields = Readonly<Record<string, unknown>>;

/**
 * What {@link ExternalAdapter.observe} found. `diff` lists the differences from the desired spec as short human
 * lines (`partitions: want 6, have 3`); it must never contain secret values (say `password: differs`). `status`
 * holds the kind's own fields seen while observing; the reconciler writes them with its conditions.
 */
export type ExternalObservation<O> =
  | { readonly exists: false }
  | {
      readonly exists: true;
      readonly upToDate: boolean;
      readonly diff: readonly string[];
      readonly observed: O;
      readonly status?: ExternalStatusFields;
      /**
       * The UID of the resource whose create made this object, as the object itself records it (only adapters
       * with {@link ExternalAdapter.marksCreator}); absent when it carries no such mark.
       */
      readonly createdBy?: string;
    };

/** What {@link ExternalAdapter.create} did: the kind's own status fields it learnt (an id the system assigned). */
export interface ExternalCreation {
  readonly status?: ExternalStatusFields;
}

/** What {@link ExternalAdapter.update} did: the kind's own status fields that changed with it. */
export interface ExternalUpdate {
  readonly status?: ExternalStatusFields;
}

/**
 * What every adapter call gets: the reconcile's context, the resource, the external name it maps to and the client
 * bound to the connection that name is on. `object` includes this process's own status writes even when the cache
 * has not shown them yet (read your own writes), so a field recorded by {@link ExternalAdapter.intent} is visible to
 * the next reconcile at once.
 */
export interface ExternalContext<T extends KubernetesObject, C = unknown> extends ReconcileContext {
  readonly object: T;
  readonly externalName: string;
  /**
   * The client of the external system bound to the resource's connection (crossplane's `ExternalClient`, from the
   * kind's `ExternalResourceOptions.client`): built at the first call of a reconcile and the same promise for every
   * later call of that reconcile, so one reconcile reads the connection and its Secrets once. Rejects as the kind's
   * `client` does (a retried `ConnectionNotFound` or `SecretNotFound`); rejects for a kind that binds no client.
   */
  client(): Promise<C>;
}

/** What {@link ExternalAdapter.delete} deletes: the recorded name, and the desired spec when it can still be computed. */
export interface DeleteTarget<D> {
  readonly externalName: string;
  /** `undefined` when the spec can no longer be computed (e.g. a referenced Secret went first in a namespace deletion). */
  readonly desired: D | undefined;
}

/**
 * One kind's client to its external system; generic over the resource `T`, the desired external spec `D`, the
 * observed state `O` and the system's client `C` that every call gets bound to the resource's connection
 * ({@link ExternalContext.client}). Every method honours `context.signal`. Adapters never write status: they return what they
 * saw and did, and the reconciler writes it, with the conditions and `observedGeneration`, in one patch per
 * reconcile (crossplane's `ExternalObservation`/`ExternalCreation` shape). A failure is thrown; an error carrying a
 * CamelCase string `reason` (e.g. `KafkaUnavailable`, `AuthenticationFailed`) is surfaced as that condition reason,
 * and its `message` is shown to users, so neither may contain secrets. Throw `TerminalError` for what retrying
 * cannot fix.
 */
export interface ExternalAdapter<T extends KubernetesObject, D, O, C = unknown> {
  /** Reads the external object and compares it with `desired`. Must not modify anything. */
  observe(desired: D, context: ExternalContext<T, C>): Promise<ExternalObservation<O>>;
  /** Creates the external object; called only after `observe` found none. */
  create(desired: D, context: ExternalContext<T, C>): Promise<ExternalCreation>;
  /** Brings an existing external object to `desired`; `observed` is what `observe` returned just before. */
  update(desired: D, observed: O, context: ExternalContext<T, C>): Promise<ExternalUpdate>;
  /** Deletes the external object; must succeed when it is already gone (idempotent). */
  delete(target: DeleteTarget<D>, context: ExternalContext<T, C>): Promise<void>;
  /**
   * Optional write-ahead record: status fields that must be in the apiserver BEFORE `create` or `update` runs, so
   * a crash right after the external call still leaves a record of what this resource put there (the aliases an
   * index resource adds, the role mappings a binding adds: what it may later remove). `observed` is `undefined`
   * before a create. Pure. The reconciler writes the fields that differ in a patch of fields alone, which never
   * moves `observedGeneration`; `undefined` when there is nothing to record.
   */
  intent?(desired: D, observed: O | undefined, context: ExternalContext<T, C>): ExternalStatusFields | undefined;
  /**
   * True when `create` writes the resource's UID into the external object in the same request that creates it (an
   * index's mapping `_meta`), together with what {@link ExternalAdapter.intent} would record before a create, and
   * `observe` reports it as `createdBy`. The mark is then the claim: no `CreatePending` record is written before the
   * create, and an existing object marked with this resource's UID is taken as its own create whose status write was
   * lost (one status write per create instead of two). The mark must be something no other writer sets.
   */
  readonly marksCreator?: boolean;
}
