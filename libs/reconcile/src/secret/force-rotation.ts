/**
 * Forced rotation of a generated password (Strimzi's `strimzi.io/force-renew`, for passwords): a user resource
 * annotated `<group>/force-rotate: <token>` gets a new password in the Secret the operator generated for it, once per
 * token. The Secret records the token it was last generated for in its annotation `<group>/rotated-for`, so the same
 * token never rotates twice (a restart, a resync or a crash after the write changes nothing), and a Secret created
 * while the annotation is set counts as generated for it. Any new value rotates again. The rotation itself is then
 * the kind's usual one: the Secret's password differs from what the system holds, and the reconcile applies it.
 */
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';

/** The annotation suffix that asks for a rotation: `<group>/force-rotate`. */
export const FORCE_ROTATE = 'force-rotate';
/** The annotation suffix on a generated Secret naming the token it was generated for: `<group>/rotated-for`. */
export const ROTATED_FOR = 'rotated-for';

/** A rotation asked of {@link ensureSecret}: the token of the request and the new values of the Secret. */
export interface Rotation {
  /** The token asked for now (the resource's `<group>/force-rotate`); `undefined`: none asked. */
  readonly token: string | undefined;
  /** The Secret annotation that records the token it was generated for (`<group>/rotated-for`). */
  readonly annotation: string;
  /** The Secret's new string data (a new password and whatever is derived from it). Called only to rotate. */
  regenerate(): Readonly<Record<string, string>>;
}

/** Whether `secret` waits for `rotation`: a token is asked and the Secret was not generated for it. Pure. */
export function rotationPending(rotation: Rotation, secret: V1Secret): boolean {
  return rotation.token !== undefined && secret.metadata?.annotations?.[rotation.annotation] !== rotation.token;
}

/**
 * The {@link Rotation} `object` asks for under `group`, with `regenerate` giving the new values. Pure: reads the
 * annotation only; `regenerate` is not called here.
 */
export function forceRotation(object: KubernetesObject, group: string, regenerate: () => Readonly<Record<string, string>>): Rotation {
  const token = object.metadata?.annotations?.[`${group}/${FORCE_ROTATE}`];
  return { token: token === undefined || token === '' ? undefined : token, annotation: `${group}/${ROTATED_FOR}`, regenerate };
}
