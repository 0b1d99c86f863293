import type { KubernetesObject } from '@kubernetes/client-node';

/**
 * A top-level field of `object.status` as recorded, or `undefined`. Adapters read what they recorded earlier (the
 * aliases an index added, a binding's entries, a password fingerprint) from the object their call gets:
 * `ExternalContext.object` already includes this process's own status writes (the runtime reads its own writes),
 * so no adapter keeps memory of its own. Pure.
 */
export function recordedStatus(object: KubernetesObject, field: string): unknown {
  const status = (object as { status?: unknown }).status;
  if (typeof status !== 'object' || status === null) return undefined;
  return (status as Readonly<Record<string, unknown>>)[field];
}

/** The recorded `field` as a list of strings (non-strings dropped); `[]` when absent. Pure. */
export function recordedStrings(object: KubernetesObject, field: string): string[] {
  const value = recordedStatus(object, field);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
