import type { KubernetesObject } from '@kubernetes/client-node';

/**
 * The objects a watch-list has streamed before its end bookmark: what a list at the bookmark's resourceVersion
 * would have returned. An apiserver of 1.32 or later sends only `ADDED` events there (the current state), and they
 * are appended in order, with no key built per object. A `MODIFIED` or `DELETED` event (an older server could send
 * changes before a late end bookmark) switches to a map by namespace and name, in which the last event for a key
 * wins and a deletion removes the key. One instance collects one watch-list; not shared.
 */
export class InitialEvents<T extends KubernetesObject = KubernetesObject> {
  #items: T[] = [];
  #byKey: Map<string, T> | undefined;

  /** Records one event of the initial stream. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: T): void {
    if (this.#byKey === undefined) {
      if (type === 'ADDED') {
        this.#items.push(object);
        return;
      }
      this.#byKey = new Map(this.#items.map((item) => [keyOf(item), item]));
      this.#items = [];
    }
    if (type === 'DELETED') this.#byKey.delete(keyOf(object));
    else this.#byKey.set(keyOf(object), object);
  }

  /** How many objects the collected state holds. */
  get size(): number {
    return this.#byKey?.size ?? this.#items.length;
  }

  /** The collected state, in arrival order (by first arrival once keyed); the array is the caller's. */
  objects(): T[] {
    return this.#byKey === undefined ? this.#items : [...this.#byKey.values()];
  }
}

function keyOf(object: KubernetesObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}
