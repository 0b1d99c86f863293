import type { ReconcileTrigger } from '../core/reconcile-trigger.ts';

/**
 * Remembers, per queued key, why it was queued, for the worker that takes it. Events (the object or a related one
 * changed) are immediate: the first since the key was last taken wins, because it is what made the key due. A
 * scheduled requeue or retry is delayed: it is kept until a take finds no event (the delayed add came due), and a
 * later schedule replaces it. Memory: at most two entries per key that is queued or scheduled. Not thread-safe,
 * which JavaScript does not need.
 */
export class TriggerLedger {
  readonly #immediate = new Map<string, ReconcileTrigger>();
  readonly #delayed = new Map<string, ReconcileTrigger>();

  /** Notes an event that queued `key` now. */
  noteEvent(key: string, trigger: 'ObjectChanged' | 'OwnedObjectChanged' | 'RelatedObjectChanged'): void {
    if (!this.#immediate.has(key)) this.#immediate.set(key, trigger);
  }

  /** Notes a requeue, drift check or retry scheduled for `key`. */
  noteScheduled(key: string, trigger: 'Requeue' | 'DriftCheck' | 'RetryAfterError'): void {
    this.#delayed.set(key, trigger);
  }

  /** Why `key` runs now; forgets that reason. */
  take(key: string): ReconcileTrigger {
    const event = this.#immediate.get(key);
    if (event !== undefined) {
      this.#immediate.delete(key);
      return event;
    }
    const scheduled = this.#delayed.get(key);
    if (scheduled === undefined) return 'Unknown';
    this.#delayed.delete(key);
    return scheduled;
  }

  /** Forgets everything of `key` (its object is gone and nothing is scheduled). */
  forget(key: string): void {
    this.#immediate.delete(key);
    this.#delayed.delete(key);
  }

  /** Keys with a remembered reason (for tests of the memory bound). */
  get size(): number {
    return new Set([...this.#immediate.keys(), ...this.#delayed.keys()]).size;
  }
}
