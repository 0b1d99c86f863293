/**
 * The one rule for a Secret a resource or its connection names: missing Secret, missing key and empty value are all
 * `SecretNotFound`, retried with backoff as a {@link DependencyError} (the Secret may be created a moment later, and
 * a watch on it usually wakes the resource first), with `Ready=False` and nothing changed in the external system.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { Reasons } from '../core/reasons.ts';
import type { SecretSource } from '../secret/secret-source.ts';
import { secretValue } from '../secret/secret-source.ts';
import { DependencyError } from './dependency-error.ts';

/** Where a Secret is: its namespace and name. */
export interface SecretLocation {
  readonly namespace: string;
  readonly name: string;
}

/**
 * The Secret at `at` from `secrets`. Rejects with {@link DependencyError} `SecretNotFound` ("Secret ns/name of
 * <whose> does not exist") when there is none; other errors of the source pass through. `whose` names the object
 * that refers to it in the message (`KafkaConnection "main"`), never a value.
 */
export async function requiredSecret(secrets: SecretSource, at: SecretLocation, whose?: string, signal?: AbortSignal): Promise<V1Secret> {
  const secret = await secrets.get(at.namespace, at.name, signal);
  if (secret === undefined) throw new DependencyError(Reasons.secretNotFound, `Secret ${at.namespace}/${at.name}${of(whose)} does not exist`);
  return secret;
}

/**
 * The UTF-8 value of `key` in `secret`. Throws {@link DependencyError} `SecretNotFound` naming the Secret and the
 * key when the key is absent or its value empty (an empty password or CA is never meant). The value is a secret:
 * the message never holds it. Pure.
 */
export function requiredSecretValue(secret: V1Secret, key: string, whose?: string): string {
  const value = secretValue(secret, key);
  if (value === undefined || value === '') {
    throw new DependencyError(Reasons.secretNotFound, `Secret ${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''}${of(whose)} has no key "${key}" (or it is empty)`);
  }
  return value;
}

function of(whose: string | undefined): string {
  return whose === undefined ? '' : ` of ${whose}`;
}
