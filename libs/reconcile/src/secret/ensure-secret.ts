import type { V1Secret } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import { coreTypes } from '../client/resource-type.ts';
import { isAlreadyExists } from '../core/errors.ts';
import type { SecretSource } from './secret-source.ts';
import type { Rotation } from './force-rotation.ts';
import { rotationPending } from './force-rotation.ts';

/** What {@link ensureSecret} reads and writes through. */
export interface EnsureSecretDeps {
  readonly client: Client;
  /** Read first; may be stale (a miss is settled by the create). */
  readonly secrets: SecretSource;
}

/** What {@link ensureSecret} found or made. */
export interface EnsuredSecret {
  readonly secret: V1Secret;
  /** True when this call created it (from `desired`); false when it existed. */
  readonly created: boolean;
  /** True when this call added `desired`'s missing labels to an existing Secret of the same controller (adoption). */
  readonly labelled: boolean;
  /** True when this call rotated the Secret's values for a new force-rotate token. */
  readonly rotated?: boolean;
}

/**
 * The Secret named like `desired`: the existing one when `secrets` has it (its values are kept, so a generated
 * password is made once), else `desired`, created now. When the create fails with AlreadyExists (another writer, or
 * a cache that does not hold it, such as one scoped to our label), the live Secret is read and returned. An existing
 * Secret controlled by the same owner as `desired` but missing some of its labels (made before generated Secrets
 * were labelled) is adopted: only those labels are added by a merge patch, so a label-scoped cache holds it from
 * then on. Never changes values, never deletes, and never touches a Secret of another controller: the caller decides
 * whether a Secret it did not create may be used (`isControlledBy`). Idempotent.
 *
 * With `rotation` (`forceRotation`): a Secret created now records the token asked for, and an existing Secret of the
 * same controller that records another token (or none) while one is asked gets `rotation.regenerate()`'s values and
 * the token, in one merge patch: the only case in which values change. A Secret of another controller is never rotated.
 */
export async function ensureSecret(deps: EnsureSecretDeps, desiredSecret: V1Secret, signal?: AbortSignal, rotation?: Rotation): Promise<EnsuredSecret> {
  const desired = rotation?.token === undefined ? desiredSecret : withAnnotation(desiredSecret, rotation.annotation, rotation.token);
  const namespace = desired.metadata?.namespace ?? '';
  const name = desired.metadata?.name ?? '';
  const options = signal === undefined ? {} : { signal };
  let existing = await deps.secrets.get(namespace, name, signal);
  if (existing === undefined) {
    try {
      return { secret: await deps.client.create(coreTypes.secret, desired, options), created: true, labelled: false };
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      existing = await deps.client.get(coreTypes.secret, { namespace, name }, signal);
    }
  }
  const missing = missingLabels(existing, desired);
  if (rotation?.token !== undefined && sameController(existing, desired) && rotationPending(rotation, existing)) {
    const metadata = { annotations: { [rotation.annotation]: rotation.token }, ...(missing !== undefined && { labels: missing }) };
    const rotated = await deps.client.patch(coreTypes.secret, { namespace, name }, { type: 'merge', body: { metadata, stringData: rotation.regenerate() } }, options);
    return { secret: rotated, created: false, labelled: missing !== undefined, rotated: true };
  }
  if (missing === undefined) return { secret: existing, created: false, labelled: false };
  const patched = await deps.client.patch(coreTypes.secret, { namespace, name }, { type: 'merge', body: { metadata: { labels: missing } } }, options);
  return { secret: patched, created: false, labelled: true };
}

/** `desired`'s labels that `existing` lacks or has otherwise, when both have the same controller UID; else undefined. */
function missingLabels(existing: V1Secret, desired: V1Secret): Record<string, string> | undefined {
  if (!sameController(existing, desired)) return undefined;
  const have = existing.metadata?.labels ?? {};
  const missing = Object.fromEntries(Object.entries(desired.metadata?.labels ?? {}).filter(([key, value]) => have[key] !== value));
  return Object.keys(missing).length === 0 ? undefined : missing;
}

/** Whether `desired` names a controller and `existing` has the same one. */
function sameController(existing: V1Secret, desired: V1Secret): boolean {
  const controllerUid = (secret: V1Secret): string | undefined => secret.metadata?.ownerReferences?.find((ref) => ref.controller === true)?.uid;
  const uid = controllerUid(desired);
  return uid !== undefined && controllerUid(existing) === uid;
}

/** `secret` with one more annotation. Pure. */
function withAnnotation(secret: V1Secret, key: string, value: string): V1Secret {
  const copy = structuredClone(secret);
  copy.metadata ??= {};
  copy.metadata.annotations = { ...copy.metadata.annotations, [key]: value };
  return copy;
}
