import type { V1Secret } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import { coreTypes } from '../client/resource-type.ts';
import { isAlreadyExists } from '../core/errors.ts';
import type { SecretSource } from './secret-source.ts';

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
}

/**
 * The Secret named like `desired`: the existing one when `secrets` has it (its values are kept, so a generated
 * password is made once), else `desired`, created now. When the create fails with AlreadyExists (another writer, or
 * a cache that does not hold it, such as one scoped to our label), the live Secret is read and returned. An existing
 * Secret controlled by the same owner as `desired` but missing some of its labels (made before generated Secrets
 * were labelled) is adopted: only those labels are added by a merge patch, so a label-scoped cache holds it from
 * then on. Never changes values, never deletes, and never touches a Secret of another controller: the caller decides
 * whether a Secret it did not create may be used (`isControlledBy`). Idempotent.
 */
export async function ensureSecret(deps: EnsureSecretDeps, desired: V1Secret, signal?: AbortSignal): Promise<EnsuredSecret> {
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
  if (missing === undefined) return { secret: existing, created: false, labelled: false };
  const patched = await deps.client.patch(coreTypes.secret, { namespace, name }, { type: 'merge', body: { metadata: { labels: missing } } }, options);
  return { secret: patched, created: false, labelled: true };
}

/** `desired`'s labels that `existing` lacks or has otherwise, when both have the same controller UID; else undefined. */
function missingLabels(existing: V1Secret, desired: V1Secret): Record<string, string> | undefined {
  const controllerUid = (secret: V1Secret): string | undefined => secret.metadata?.ownerReferences?.find((ref) => ref.controller === true)?.uid;
  const uid = controllerUid(desired);
  if (uid === undefined || controllerUid(existing) !== uid) return undefined;
  const have = existing.metadata?.labels ?? {};
  const missing = Object.fromEntries(Object.entries(desired.metadata?.labels ?? {}).filter(([key, value]) => have[key] !== value));
  return Object.keys(missing).length === 0 ? undefined : missing;
}
