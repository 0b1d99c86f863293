import { describe, expect, it } from 'vitest';
import { DelayHeap } from './delay-heap.ts';

function drain<K>(heap: DelayHeap<K>): [K, number][] {
  const out: [K, number][] = [];
  for (let entry = heap.pop(); entry !== undefined; entry = heap.pop()) out.push([entry.key, entry.due]);
  return out;
}

describe('DelayHeap', () => {
  it('tells whether a key is held', () => {
    const heap = new DelayHeap<string>();
    heap.schedule('a', 10);
    expect(heap.has('a')).toBe(true);
    expect(heap.has('b')).toBe(false);
    heap.pop();
    expect(heap.has('a')).toBe(false);
  });

  it('pops by due time, ties in schedule order', () => {
    const heap = new DelayHeap<string>();
    heap.schedule('c', 30);
    heap.schedule('a', 10);
    heap.schedule('b1', 20);
    heap.schedule('b2', 20);
    heap.schedule('d', 5);
    expect(drain(heap)).toEqual([
      ['d', 5],
      ['a', 10],
      ['b1', 20],
      ['b2', 20],
      ['c', 30],
    ]);
  });

  it('holds a key once and keeps its earliest due time', () => {
    const heap = new DelayHeap<string>();
    heap.schedule('a', 50);
    heap.schedule('b', 40);
    heap.schedule('a', 100); // later: ignored
    heap.schedule('a', 10); // earlier: moves up
    expect(heap.size).toBe(2);
    expect(heap.peek()).toEqual({ key: 'a', due: 10 });
    expect(drain(heap)).toEqual([
      ['a', 10],
      ['b', 40],
    ]);
  });

  it('stays ordered under many random schedules', () => {
    const heap = new DelayHeap<number>();
    let seed = 42;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const earliest = new Map<number, number>();
    for (let i = 0; i < 2_000; i++) {
      const key = Math.floor(random() * 500);
      const due = Math.floor(random() * 10_000);
      heap.schedule(key, due);
      earliest.set(key, Math.min(earliest.get(key) ?? Infinity, due));
    }
    const out = drain(heap);
    expect(out).toHaveLength(earliest.size);
    for (let i = 1; i < out.length; i++) expect(out[i]![1]).toBeGreaterThanOrEqual(out[i - 1]![1]);
    for (const [key, due] of out) expect(due).toBe(earliest.get(key));
  });

  it('is empty after clear', () => {
    const heap = new DelayHeap<string>();
    heap.schedule('a', 1);
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.pop()).toBeUndefined();
    heap.schedule('a', 2);
    expect(heap.peek()).toEqual({ key: 'a', due: 2 });
  });
});
