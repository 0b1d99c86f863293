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
}

/**
 * The Secret named like `desired`: the existing one when `secrets` has it (its values are kept, so a generated
 * password is made once), else `desired`, created now. When the create fails with AlreadyExists (another writer, or
 * a stale cache), the live Secret is read and returned. Never updates or deletes an existing Secret, and never checks
 * who owns it: the caller decides whether a Secret it did not create may be used (`isControlledBy`).
 */
export async function ensureSecret(deps: EnsureSecretDeps, desired: V1Secret, signal?: AbortSignal): Promise<EnsuredSecret> {
  const namespace = desired.metadata?.namespace ?? '';
  const name = desired.metadata?.name ?? '';
  const existing = await deps.secrets.get(namespace, name, signal);
  if (existing !== undefined) return { secret: existing, created: false };
  try {
    return { secret: await deps.client.create(coreTypes.secret, desired, signal === undefined ? {} : { signal }), created: true };
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    return { secret: await deps.client.get(coreTypes.secret, { namespace, name }, signal), created: false };
  }
}
