/**
 * What was applied at run time (ACL users, live config) on which member incarnation, so that a reconcile
 * repeats the Redis write only after a change or a restart. In memory: after an operator restart everything is
 * applied once more, which is idempotent.
 */

/** Applied-state memory per (owner, member incarnation, item). Not shared between processes. */
export class AppliedMemory {
  readonly #applied = new Map<string, Map<string, string>>();

  /** True when `hash` was recorded for `item` on `incarnation` under `owner`. */
  has(owner: string, incarnation: string, item: string, hash: string): boolean {
    return this.#applied.get(owner)?.get(`${incarnation}|${item}`) === hash;
  }

  /** Records that `item` with `hash` is applied on `incarnation`. */
  record(owner: string, incarnation: string, item: string, hash: string): void {
    let entries = this.#applied.get(owner);
    if (entries === undefined) {
      entries = new Map();
      this.#applied.set(owner, entries);
    }
    entries.set(`${incarnation}|${item}`, hash);
  }

  /** Forgets `item` on every incarnation of `owner` (so it is applied again). */
  forgetItem(owner: string, item: string): void {
    const entries = this.#applied.get(owner);
    if (entries === undefined) return;
    for (const key of [...entries.keys()]) if (key.endsWith(`|${item}`)) entries.delete(key);
  }

  /** Forgets incarnations of `owner` not in `live` (Pods gone or restarted), keeping memory bounded. */
  retain(owner: string, live: ReadonlySet<string>): void {
    const entries = this.#applied.get(owner);
    if (entries === undefined) return;
    for (const key of [...entries.keys()]) if (!live.has(key.slice(0, key.indexOf('|')))) entries.delete(key);
  }

  /** Forgets everything about `owner`. */
  forget(owner: string): void {
    this.#applied.delete(owner);
  }
}
