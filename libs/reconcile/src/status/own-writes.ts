/**
 * Read your own writes for a reconciler that writes its own status: the apiserver's reply to each write is kept per
 * object until the informer cache shows that resourceVersion or a newer one, and used in place of the older cached
 * object meanwhile. The reply is the whole object after the write (a spec change that came before the write is in
 * it; one after the write makes the cache newer, and the reply is dropped). Memory: one reply per object written
 * and not yet seen by the cache.
 *
 * A write whose reply is unknown (a writer that cannot tell) is remembered as the object it started from with the
 * status it wrote, and the top-level status fields it changed: while the resourceVersions cannot tell (the same, or
 * not numbers), the cache has caught up once its status shows every one of those fields, and until then the cached
 * object is served with the written status over it.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { objectKey } from '../core/request.ts';

/** See the module comment. Keeps nothing until {@link OwnWrites.remember}. */
export class OwnWrites<T extends KubernetesObject> {
  readonly #written = new Map<string, Written<T>>();

  /**
   * Keeps `reply` (the apiserver's answer to a status write) for its object; a later one replaces it. `changed`: the
   * top-level status fields the write changed, given when `reply` is not the apiserver's answer (see the module comment).
   */
  remember(reply: T, changed?: Readonly<Record<string, unknown>>): void {
    this.#written.set(objectKey(reply), { object: reply, ...(changed !== undefined && { changed }) });
  }

  /**
   * `cached`, or the kept reply while `cached` is older than it (same UID, a lower resourceVersion). Forgets the
   * reply once the cache shows it or something newer, when the UID differs (deleted and created again), or when a
   * resourceVersion is not a number (never guessed: the cache wins), unless the write's changed fields were given.
   */
  over(cached: T): T {
    const key = objectKey(cached);
    const written = this.#written.get(key);
    if (written === undefined) return cached;
    const { object } = written;
    if ((object.metadata?.uid ?? '') === (cached.metadata?.uid ?? '')) {
      const older = olderThan(cached.metadata?.resourceVersion, object.metadata?.resourceVersion);
      if (older === true) return object;
      if (older === undefined && written.changed !== undefined && !shows(cached, written.changed)) return { ...cached, status: statusOf(object) };
    }
    this.#written.delete(key);
    return cached;
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

/** A kept write: the object after it, and the status fields it changed when the object is not the apiserver's reply. */
interface Written<T> {
  readonly object: T;
  readonly changed?: Readonly<Record<string, unknown>>;
}

const NUMERIC = /^[0-9]+$/;

/**
 * Whether resourceVersion `a` is older than `b`, compared as numbers as etcd's are: `true` or `false`, or `undefined`
 * when they cannot tell (equal, missing, or not numbers).
 */
function olderThan(a: string | undefined, b: string | undefined): boolean | undefined {
  if (a === undefined || b === undefined || a === b || !NUMERIC.test(a) || !NUMERIC.test(b)) return undefined;
  return BigInt(a) < BigInt(b);
}

/** Whether `object`'s status shows every field of `fields` (compared as JSON). */
function shows(object: KubernetesObject, fields: Readonly<Record<string, unknown>>): boolean {
  const status = statusOf(object);
  return Object.entries(fields).every(([field, value]) => JSON.stringify(status[field]) === JSON.stringify(value));
}

function statusOf(object: KubernetesObject): Readonly<Record<string, unknown>> {
  const status = (object as { status?: unknown }).status;
  return typeof status === 'object' && status !== null ? (status as Readonly<Record<string, unknown>>) : {};
}
