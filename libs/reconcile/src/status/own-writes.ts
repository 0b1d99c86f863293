/**
 * Read your own writes for a reconciler that writes its own status: the apiserver's reply to each write is kept per
 * object until the informer cache shows that resourceVersion or a newer one, and used in place of the older cached
 * object meanwhile. The reply is the whole object after the write (a spec change that came before the write is in
 * it; one after the write makes the cache newer, and the reply is dropped). Memory: one reply per object written
 * and not yet seen by the cache.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { objectKey } from '../core/request.ts';

/** See the module comment. Keeps nothing until {@link OwnWrites.remember}. */
export class OwnWrites<T extends KubernetesObject> {
  readonly #written = new Map<string, T>();

  /** Keeps `reply` (the apiserver's answer to a status write) for its object; a later reply replaces it. */
  remember(reply: T): void {
    this.#written.set(objectKey(reply), reply);
  }

  /**
   * `cached`, or the kept reply while `cached` is older than it (same UID, a lower resourceVersion). Forgets the
   * reply once the cache shows it or something newer, when the UID differs (deleted and created again), or when a
   * resourceVersion is not a number (never guessed: the cache wins).
   */
  over(cached: T): T {
    const key = objectKey(cached);
    const written = this.#written.get(key);
    if (written === undefined) return cached;
    if ((written.metadata?.uid ?? '') !== (cached.metadata?.uid ?? '') || !olderThan(cached.metadata?.resourceVersion, written.metadata?.resourceVersion)) {
      this.#written.delete(key);
      return cached;
    }
    return written;
  }

  /** Forgets what is kept for the object of `key` (`namespace/name`), as on its deletion. */
  forget(key: string): void {
    this.#written.delete(key);
  }

  /** How many replies are kept (for tests and memory reports). */
  get size(): number {
    return this.#written.size;
  }
}

const NUMERIC = /^[0-9]+$/;

/** Whether resourceVersion `a` is older than `b`, compared as numbers as etcd's are; anything else is not older. */
function olderThan(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || !NUMERIC.test(a) || !NUMERIC.test(b)) return false;
  return BigInt(a) < BigInt(b);
}
