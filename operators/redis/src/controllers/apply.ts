/**
 * Server-side apply of owned objects, only when the desired object changed.
 */
import { createHash } from 'node:crypto';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Client, ResourceType, Store } from '@domain-operators/reconcile';

/** The annotation holding the hash of the desired object last applied. */
export const APPLIED_HASH_ANNOTATION = 'redis.domain-operators.io/applied-hash';
/** The field manager of every write of this operator. */
export const FIELD_MANAGER = 'redis-operator';

/** Key-order independent JSON of a value. Pure. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `desired` with {@link APPLIED_HASH_ANNOTATION} set to the hash of `desired` itself. Pure. */
export function withAppliedHash<T extends KubernetesObject>(desired: T): T {
  const hash = createHash('sha256').update(canonicalJson(desired)).digest('hex').slice(0, 20);
  const metadata = { ...(desired.metadata as Record<string, unknown> | undefined) };
  return { ...desired, metadata: { ...metadata, annotations: { ...(desired.metadata?.annotations ?? {}), [APPLIED_HASH_ANNOTATION]: hash } } };
}

/** True when `cached` already carries the hash that `stamped` (from {@link withAppliedHash}) carries. Pure. */
export function isApplied(stamped: KubernetesObject, cached: KubernetesObject | undefined): boolean {
  const want = stamped.metadata?.annotations?.[APPLIED_HASH_ANNOTATION];
  return want !== undefined && cached?.metadata?.annotations?.[APPLIED_HASH_ANNOTATION] === want;
}

/** What {@link applyIfChanged} needs. */
export interface ApplyDeps<T extends KubernetesObject> {
  readonly client: Client;
  readonly type: ResourceType<T>;
  /** The cache of the kind (may be stale: a stale miss costs one no-op apply). */
  readonly store: Store<T>;
}

/**
 * Server-side applies `desired` (field manager {@link FIELD_MANAGER}, force) unless the cached object already
 * carries its hash: a steady state makes no write. Returns true when it wrote. Fields changed by others on an
 * object whose desired state did not change are not corrected (the cost of not diffing against defaulted fields);
 * a deleted object is re-created, because it leaves the cache.
 */
export async function applyIfChanged<T extends KubernetesObject>(deps: ApplyDeps<T>, desired: T, signal?: AbortSignal): Promise<boolean> {
  const stamped = withAppliedHash(desired);
  const namespace = stamped.metadata?.namespace;
  const name = stamped.metadata?.name ?? '';
  const cached = deps.store.get(namespace === undefined || namespace === '' ? name : `${namespace}/${name}`);
  if (isApplied(stamped, cached)) return false;
  await deps.client.patch(
    deps.type,
    { namespace, name },
    { type: 'apply', body: stamped, fieldManager: FIELD_MANAGER, force: true },
    signal === undefined ? {} : { signal },
  );
  return true;
}
