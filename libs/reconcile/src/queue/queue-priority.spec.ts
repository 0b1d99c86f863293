import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { WorkQueue } from './queue.ts';
import { takeAll } from './queue.test-support.ts';
import type { WorkQueueOptions } from './queue.ts';

function newQueue(options: Omit<WorkQueueOptions<string>, 'clock'> = {}): { clock: VirtualClock; queue: WorkQueue } {
  const clock = new VirtualClock();
  return { clock, queue: new WorkQueue<string>({ clock, ...options }) };
}

describe('WorkQueue priority: order', () => {
  it('serves high keys before low ones, each priority first in, first out; add defaults to high', async () => {
    const { queue } = newQueue();
    queue.add('l1', 'low');
    queue.add('h1');
    queue.add('l2', 'low');
    queue.add('h2', 'high');
    expect(queue.len()).toBe(4);
    expect(await takeAll(queue)).toEqual(['h1', 'h2', 'l1', 'l2']);
  });

  it('hands a waiting getter a low key when no high key waits', async () => {
    const { queue } = newQueue();
    const got = queue.get();
    queue.add('l', 'low');
    expect(await got).toBe('l');
  });

  it('moves a waiting low key up on a high add and hands it out once', async () => {
    const { queue } = newQueue();
    queue.add('a', 'low');
    queue.add('b', 'low');
    queue.add('h');
    queue.add('b');
    queue.add('b', 'low'); // a low add never lowers a key
    expect(queue.len()).toBe(3);
    expect(await takeAll(queue)).toEqual(['h', 'b', 'a']);
    expect(queue.len()).toBe(0);
  });

  it('skips the stale low copy of a promoted key even after it was done and re-added low', async () => {
    const { queue } = newQueue();
    queue.add('x', 'low');
    queue.add('y', 'low');
    queue.add('x'); // x's low copy is now stale
    expect(await queue.get()).toBe('x');
    queue.done('x');
    queue.add('x', 'low'); // a new low copy behind y; the stale one is still at the head
    expect(queue.len()).toBe(2);
    expect(await takeAll(queue)).toEqual(['y', 'x']);
  });
});

describe('WorkQueue priority: processing keys', () => {
  it('queues a processing key re-added low after done at low, behind high keys', async () => {
    const { queue } = newQueue();
    queue.add('p');
    expect(await queue.get()).toBe('p');
    queue.add('p', 'low');
    queue.add('h');
    queue.done('p');
    expect(await takeAll(queue)).toEqual(['h', 'p']);
  });

  it('queues a processing key re-added low then high at high, once', async () => {
    const { queue } = newQueue();
    queue.add('l', 'low');
    queue.add('p', 'low');
    expect(await queue.get()).toBe('l');
    expect(await queue.get()).toBe('p');
    queue.add('l2', 'low');
    queue.add('p', 'low');
    queue.add('p');
    queue.done('p');
    queue.done('l');
    expect(await takeAll(queue)).toEqual(['p', 'l2']);
  });
});

describe('WorkQueue priority: starvation bound', () => {
  it('serves a low key that waited past lowPriorityMaxWaitMs before high keys added after that', async () => {
    const { clock, queue } = newQueue({ lowPriorityMaxWaitMs: 1000 });
    queue.add('old-low', 'low');
    queue.add('next-low', 'low');
    await clock.advance(1000);
    queue.add('h-at-bound'); // waited exactly the bound: not longer, so high first
    expect(await queue.get()).toBe('h-at-bound');
    queue.done('h-at-bound');
    await clock.advance(1);
    queue.add('h-late'); // old-low has now waited 1001 ms
    expect(await takeAll(queue)).toEqual(['old-low', 'next-low', 'h-late']);
  });

  it('keeps a high key that was already waiting when the bound ran out ahead of the low key', async () => {
    const { clock, queue } = newQueue({ lowPriorityMaxWaitMs: 1000 });
    queue.add('h-early');
    queue.add('low', 'low');
    await clock.advance(5000);
    expect(await takeAll(queue)).toEqual(['h-early', 'low']);
  });

  it('defaults the bound to 1000 ms of the queue clock', async () => {
    const { clock, queue } = newQueue();
    queue.add('low', 'low');
    await clock.advance(999);
    queue.add('h1');
    await clock.advance(2);
    queue.add('h2');
    expect(await takeAll(queue)).toEqual(['h1', 'low', 'h2']);
  });

  it('never serves low first with an infinite bound', async () => {
    const { clock, queue } = newQueue({ lowPriorityMaxWaitMs: Number.POSITIVE_INFINITY });
    queue.add('low', 'low');
    await clock.advance(1e9);
    queue.add('h');
    expect(await takeAll(queue)).toEqual(['h', 'low']);
  });

  it('measures a re-added processing key from its done, when it joins the low keys', async () => {
    const { clock, queue } = newQueue({ lowPriorityMaxWaitMs: 100 });
    queue.add('p', 'low');
    expect(await queue.get()).toBe('p');
    queue.add('p', 'low');
    await clock.advance(500);
    queue.done('p');
    await clock.advance(50);
    queue.add('h');
    expect(await takeAll(queue)).toEqual(['h', 'p']);
  });
});

describe('WorkQueue priority: delays and shutdown', () => {
  it('adds a delayed key at the priority it was delayed with; high wins when delayed at both', async () => {
    const { clock, queue } = newQueue();
    queue.addAfter('low', 10, 'low');
    queue.addAfter('both', 10, 'low');
    queue.addAfter('both', 20);
    queue.addRateLimited('rl', 'low');
    await clock.advance(5);
    queue.addAfter('high', 5);
    await clock.advance(5);
    expect(queue.len()).toBe(4);
    expect(await takeAll(queue)).toEqual(['both', 'high', 'rl', 'low']);
  });

  it('adds at once at the given priority when the delay is not positive', async () => {
    const { queue } = newQueue();
    queue.addAfter('l', 0, 'low');
    queue.addAfter('h', 0);
    expect(await takeAll(queue)).toEqual(['h', 'l']);
  });

  it('drains both priorities after shutdown, then resolves undefined', async () => {
    const { queue } = newQueue();
    queue.add('l', 'low');
    queue.add('h');
    queue.add('l2', 'low');
    queue.add('l2');
    queue.addAfter('delayed', 10, 'low');
    const drained = queue.shutDownWithDrain();
    queue.add('ignored', 'low');
    const out: (string | undefined)[] = [];
    for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
      out.push(key);
      queue.done(key);
    }
    await drained;
    expect(out).toEqual(['h', 'l2', 'l']);
    expect(queue.len()).toBe(0);
  });
});
