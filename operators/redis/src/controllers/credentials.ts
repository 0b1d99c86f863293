/**
 * Reading passwords from Secrets and creating the Secrets the operator generates.
 */
import { randomBytes } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';
import { coreTypes, isAlreadyExists } from '@domain-operators/reconcile';
import type { Client, Store } from '@domain-operators/reconcile';

/** A new random password: 32 URL-safe characters (192 bits). */
export function generatePassword(): string {
  return randomBytes(24).toString('base64url');
}

/** The value of `key` in a Secret (from `data`, base64, or `stringData`), or undefined. Pure. */
export function secretValue(secret: V1Secret | undefined, key: string): string | undefined {
  const encoded = secret?.data?.[key];
  if (encoded !== undefined) return Buffer.from(encoded, 'base64').toString('utf8');
  return secret?.stringData?.[key];
}

/** What {@link ensureSecret} needs. */
export interface SecretDeps {
  readonly client: Client;
  readonly secrets: Store<V1Secret>;
}

/**
 * The Secret named like `desired`: the cached one when it exists (its values are kept: generated passwords are
 * created once), else `desired` created now. When another writer (or a stale cache) makes the create fail with
 * AlreadyExists, the live Secret is read and returned. Never updates an existing Secret.
 */
export async function ensureSecret(deps: SecretDeps, desired: V1Secret, signal?: AbortSignal): Promise<V1Secret> {
  const namespace = desired.metadata?.namespace ?? '';
  const name = desired.metadata?.name ?? '';
  const cached = deps.secrets.get(`${namespace}/${name}`);
  if (cached !== undefined) return cached;
  try {
    return await deps.client.create(coreTypes.secret, desired, signal === undefined ? {} : { signal });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    return deps.client.get(coreTypes.secret, { namespace, name }, signal);
  }
}
