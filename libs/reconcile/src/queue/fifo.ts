/**
 * A first-in, first-out queue on a growable ring buffer: `push` and `shift` are O(1) amortised, unlike
 * `Array.prototype.shift`, which copies the array. Not thread-safe in any sense that matters in JavaScript; not
 * exported from the package.
 */
export class Fifo<T> {
  #items: (T | undefined)[] = new Array<T | undefined>(16);
  #head = 0;
  #size = 0;

  /** Number of items held. */
  get size(): number {
    return this.#size;
  }

  /** Appends `item` at the tail. */
  push(item: T): void {
    if (this.#size === this.#items.length) this.#grow();
    this.#items[(this.#head + this.#size) & (this.#items.length - 1)] = item;
    this.#size++;
  }

  /** Returns the head without removing it, or `undefined` when empty. */
  peek(): T | undefined {
    return this.#size === 0 ? undefined : this.#items[this.#head];
  }

  /** Removes and returns the head, or `undefined` when empty. */
  shift(): T | undefined {
    if (this.#size === 0) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head] = undefined; // let the item be collected
    this.#head = (this.#head + 1) & (this.#items.length - 1);
    this.#size--;
    return item;
  }

  /** Removes every item. */
  clear(): void {
    this.#items = new Array<T | undefined>(16);
    this.#head = 0;
    this.#size = 0;
  }

  // Capacity stays a power of two so wrapping is a mask, not a division.
  #grow(): void {
    const old = this.#items;
    const next = new Array<T | undefined>(old.length * 2);
    for (let i = 0; i < this.#size; i++) next[i] = old[(this.#head + i) & (old.length - 1)];
    this.#items = next;
    this.#head = 0;
  }
}
