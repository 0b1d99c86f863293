/** One key waiting in a {@link DelayHeap}. */
export interface DelayedEntry<K> {
  readonly key: K;
  /** Clock time (ms) at which the key is due. */
  readonly due: number;
}

interface MutableEntry<K> {
  readonly key: K;
  due: number;
  // Ties on `due` go to the key scheduled first, so equal delays come out in add order.
  seq: number;
  index: number;
}

/**
 * A min-heap of keys by due time, holding each key at most once. Scheduling a key already held keeps the earlier
 * due time (client-go's delaying queue does the same). O(log n) schedule and pop; not exported from the package.
 */
export class DelayHeap<K> {
  readonly #heap: MutableEntry<K>[] = [];
  readonly #byKey = new Map<K, MutableEntry<K>>();
  #seq = 0;

  /** Number of keys held. */
  get size(): number {
    return this.#heap.length;
  }

  /** Holds `key` until `due`; if already held, moves it earlier when `due` is earlier, otherwise does nothing. */
  schedule(key: K, due: number): void {
    const existing = this.#byKey.get(key);
    if (existing !== undefined) {
      if (due < existing.due) {
        existing.due = due;
        this.#up(existing.index);
      }
      return;
    }
    const entry: MutableEntry<K> = { key, due, seq: this.#seq++, index: this.#heap.length };
    this.#heap.push(entry);
    this.#byKey.set(key, entry);
    this.#up(entry.index);
  }

  /** Whether `key` is held. */
  has(key: K): boolean {
    return this.#byKey.has(key);
  }

  /** The entry due first, without removing it; `undefined` when empty. */
  peek(): DelayedEntry<K> | undefined {
    const top = this.#heap[0];
    return top === undefined ? undefined : { key: top.key, due: top.due };
  }

  /** Removes and returns the entry due first; `undefined` when empty. */
  pop(): DelayedEntry<K> | undefined {
    const top = this.#heap[0];
    const last = this.#heap.pop();
    if (top === undefined || last === undefined) return undefined;
    this.#byKey.delete(top.key);
    if (last !== top) {
      last.index = 0;
      this.#heap[0] = last;
      this.#down(0);
    }
    return { key: top.key, due: top.due };
  }

  /** Drops every key. */
  clear(): void {
    this.#heap.length = 0;
    this.#byKey.clear();
  }

  // Whether the entry at `i` must come out before the entry at `j`.
  #lessAt(i: number, j: number): boolean {
    const a = this.#heap[i];
    const b = this.#heap[j];
    if (a === undefined || b === undefined) return false;
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  #swap(i: number, j: number): void {
    const a = this.#heap[i];
    const b = this.#heap[j];
    if (a === undefined || b === undefined) return;
    this.#heap[i] = b;
    this.#heap[j] = a;
    b.index = i;
    a.index = j;
  }

  #up(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#lessAt(i, parent)) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #down(index: number): void {
    let i = index;
    const n = this.#heap.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) return;
      const right = left + 1;
      const child = right < n && this.#lessAt(right, left) ? right : left;
      if (!this.#lessAt(child, i)) return;
      this.#swap(i, child);
      i = child;
    }
  }
}
