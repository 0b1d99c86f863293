import type { KubernetesObject } from '@kubernetes/client-node';
import type { ReconcileContext } from '../controller/reconciler.ts';

/**
 * What {@link ExternalAdapter.observe} found. `diff` lists the differences from the desired spec as short human
 * lines (`partitions: want 6, have 3`); it must never contain secret values (say `password: differs`).
 */
export type ExternalObservation<O> =
  | { readonly exists: false }
  | { readonly exists: true; readonly upToDate: boolean; readonly diff: readonly string[]; readonly observed: O };

/** What every adapter call gets: the reconcile's context, the resource and the external name it maps to. */
export interface ExternalContext<T extends KubernetesObject> extends ReconcileContext {
  readonly object: T;
  readonly externalName: string;
}

/** What {@link ExternalAdapter.delete} deletes: the recorded name, and the desired spec when it can still be computed. */
export interface DeleteTarget<D> {
  readonly externalName: string;
  /** `undefined` when the spec can no longer be computed (e.g. a referenced Secret went first in a namespace deletion). */
  readonly desired: D | undefined;
}

/**
 * One kind's client to its external system; generic over the resource `T`, the desired external spec `D` and the
 * observed state `O`. Every method honours `context.signal`. A failure is thrown; an error carrying a CamelCase
 * string `reason` (e.g. `KafkaUnavailable`, `AuthenticationFailed`) is surfaced as that condition reason, and its
 * `message` is shown to users, so neither may contain secrets. Throw `TerminalError` for what retrying cannot fix.
 */
export interface ExternalAdapter<T extends KubernetesObject, D, O> {
  /** Reads the external object and compares it with `desired`. Must not modify anything. */
  observe(desired: D, context: ExternalContext<T>): Promise<ExternalObservation<O>>;
  /** Creates the external object; called only after `observe` found none. */
  create(desired: D, context: ExternalContext<T>): Promise<void>;
  /** Brings an existing external object to `desired`; `observed` is what `observe` returned just before. */
  update(desired: D, observed: O, context: ExternalContext<T>): Promise<void>;
  /** Deletes the external object; must succeed when it is already gone (idempotent). */
  delete(target: DeleteTarget<D>, context: ExternalContext<T>): Promise<void>;
  /**
   * Optional: the kind's own status fields (e.g. a topic's id and partition count) from what `observe`, `create` or
   * `update` saw during the current reconcile of `object`, handed over once: the call forgets them. The reconciler
   * writes them in the same status patch as its conditions (its own fields win on a clash) and calls this once more
   * when the reconcile ends, so nothing outlives it. `undefined` when there is nothing to write; a `null` value
   * removes a field.
   */
  takeStatusFields?(object: T): Readonly<Record<string, unknown>> | undefined;
}
