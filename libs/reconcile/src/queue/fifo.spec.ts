import { describe, expect, it } from 'vitest';
import { Fifo } from './fifo.ts';

describe('Fifo', () => {
  it('returns items in insertion order across growth and wrap-around', () => {
    const fifo = new Fifo<number>();
    const out: number[] = [];
    let next = 0;
    // Interleave pushes and shifts so the head wraps while the buffer grows several times.
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 7; i++) fifo.push(next++);
      for (let i = 0; i < 5; i++) out.push(fifo.shift()!);
    }
    while (fifo.size > 0) out.push(fifo.shift()!);
    expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
    expect(fifo.shift()).toBeUndefined();
  });

  it('peeks at the head without removing it', () => {
    const fifo = new Fifo<string>();
    expect(fifo.peek()).toBeUndefined();
    fifo.push('a');
    fifo.push('b');
    expect(fifo.peek()).toBe('a');
    expect(fifo.size).toBe(2);
    expect(fifo.shift()).toBe('a');
    expect(fifo.peek()).toBe('b');
  });

  it('is empty after clear', () => {
    const fifo = new Fifo<string>();
    fifo.push('a');
    fifo.clear();
    expect(fifo.size).toBe(0);
    expect(fifo.shift()).toBeUndefined();
  });
});
