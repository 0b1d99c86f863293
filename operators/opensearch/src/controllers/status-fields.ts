import type { KubernetesObject } from '@kubernetes/client-node';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { patchStatusIfChanged } from '@domain-operators/reconcile';

/**
 * Writes a kind's own status fields (beyond what `ExternalResourceReconciler` writes: a uuid, applied entries, a
 * password fingerprint) with one merge patch of the changed top-level fields, and remembers what it wrote by UID,
 * so a reconcile that reads a cache older than our own write still sees it ({@link StatusFields.read}). Only this
 * process writes these fields, so its memory is never older than the cache.
 */
export class StatusFields<T extends KubernetesObject> {
  readonly #deps: { readonly client: Client; readonly type: ResourceType<T> };
  readonly #written = new Map<string, Record<string, unknown>>();

  constructor(deps: { readonly client: Client; readonly type: ResourceType<T> }) {
    this.#deps = deps;
  }

  /** The field as last written by this process, else as cached; `undefined` when neither has it. */
  read(object: T, field: string): unknown {
    const written = this.#written.get(uidOf(object));
    if (written !== undefined && field in written) return written[field];
    return statusOf(object)[field];
  }

  /** Writes the fields that differ (`null` removes one); nothing when all are equal. Rejects with the client's error. */
  async write(object: T, fields: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<void> {
    const uid = uidOf(object);
    const written = this.#written.get(uid) ?? {};
    const current = { ...object, status: { ...statusOf(object), ...written } } as T;
    await patchStatusIfChanged(this.#deps.client, this.#deps.type, current, { fields }, signal === undefined ? {} : { signal });
    this.#written.set(uid, { ...written, ...fields });
  }

  /** Forgets an object (it is gone). */
  forget(object: T): void {
    this.#written.delete(uidOf(object));
  }
}

function uidOf(object: KubernetesObject): string {
  return object.metadata?.uid ?? '';
}

function statusOf(object: KubernetesObject): Readonly<Record<string, unknown>> {
  const status = (object as { status?: unknown }).status;
  return typeof status === 'object' && status !== null ? (status as Record<string, unknown>) : {};
}
