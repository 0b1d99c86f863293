import { describe, expect, it } from 'vitest';
import { flushMicrotasks, VirtualClock } from '../core/clock.ts';
import { WorkQueue } from './queue.ts';
import { takeAll } from './queue.test-support.ts';
import type { UnfinishedWork, WorkQueueMetrics, WorkQueueMetricsProvider } from '../observability/queue-metrics.ts';
import { ItemExponentialRateLimiter } from './rate-limiter.ts';

/** Tracks a promise so tests can ask whether it has settled yet. */
function track<T>(promise: Promise<T>): { readonly settled: boolean; readonly value: T | undefined } {
  const state: { settled: boolean; value: T | undefined } = { settled: false, value: undefined };
  void promise.then((value) => {
    state.settled = true;
    state.value = value;
  });
  return state;
}

function newQueue(clock = new VirtualClock()): { clock: VirtualClock; queue: WorkQueue } {
  return { clock, queue: new WorkQueue<string>({ clock }) };
}

describe('WorkQueue: waiting keys', () => {
  it('holds a waiting key once however often it is added, in first-add order', async () => {
    const { queue } = newQueue();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    queue.add('c');
    queue.add('b');
    expect(queue.len()).toBe(3);
    expect(await takeAll(queue)).toEqual(['a', 'b', 'c']);
  });

  it('serves concurrent getters in call order', async () => {
    const { queue } = newQueue();
    const getters = [track(queue.get()), track(queue.get()), track(queue.get())];
    queue.add('x');
    queue.add('y');
    queue.add('z');
    await flushMicrotasks();
    expect(getters.map((g) => g.value)).toEqual(['x', 'y', 'z']);
  });

  it('keeps FIFO order across many keys (ring buffer growth)', async () => {
    const { queue } = newQueue();
    const keys = Array.from({ length: 1_000 }, (_, i) => `ns/k${i}`);
    for (const key of keys) queue.add(key);
    expect(await takeAll(queue)).toEqual(keys);
  });
});

describe('WorkQueue: processing', () => {
  it('never hands one key to two getters at once', async () => {
    const { queue } = newQueue();
    const first = track(queue.get());
    const second = track(queue.get());
    queue.add('a');
    await flushMicrotasks();
    expect(first.value).toBe('a');
    queue.add('a'); // re-added while processing
    await flushMicrotasks();
    expect(second.settled).toBe(false);
    expect(queue.len()).toBe(0); // not waiting yet: it waits for done
    queue.done('a');
    await flushMicrotasks();
    expect(second.value).toBe('a');
  });

  it('delivers a key re-added during processing exactly once after done', async () => {
    const { queue } = newQueue();
    queue.add('a');
    expect(await queue.get()).toBe('a');
    queue.add('a');
    queue.add('a');
    queue.add('a');
    expect(queue.len()).toBe(0);
    queue.done('a');
    expect(queue.len()).toBe(1);
    expect(await queue.get()).toBe('a');
    queue.done('a');
    expect(queue.len()).toBe(0);
    const next = track(queue.get());
    await flushMicrotasks();
    expect(next.settled).toBe(false);
  });

  it('ignores done for a key that is not processing', async () => {
    const { queue } = newQueue();
    queue.add('a');
    queue.done('a'); // waiting, not processing: must not duplicate it
    queue.done('zzz');
    expect(queue.len()).toBe(1);
    expect(await takeAll(queue)).toEqual(['a']);
  });

  it('lets other keys through while one is processing', async () => {
    const { queue } = newQueue();
    queue.add('a');
    queue.add('b');
    expect(await queue.get()).toBe('a');
    queue.add('a');
    expect(await queue.get()).toBe('b');
    expect(queue.len()).toBe(0);
  });
});

describe('WorkQueue: delayed adds', () => {
  it('treats addAfter with ms <= 0 as add', () => {
    const { queue } = newQueue();
    queue.addAfter('a', 0);
    queue.addAfter('b', -5);
    queue.addAfter('c', Number.NaN);
    expect(queue.len()).toBe(3);
  });

  it('delivers delayed keys in due order at their due time', async () => {
    const { clock, queue } = newQueue();
    const seen: [string, number][] = [];
    const worker = (async () => {
      for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
        seen.push([key, clock.now()]);
        queue.done(key);
      }
    })();
    queue.addAfter('c', 30);
    queue.addAfter('a', 10);
    queue.addAfter('b', 20);
    queue.addAfter('b2', 20);
    await clock.advance(9);
    expect(seen).toEqual([]);
    await clock.advance(100);
    expect(seen).toEqual([
      ['a', 10],
      ['b', 20],
      ['b2', 20],
      ['c', 30],
    ]);
    queue.shutDown();
    await worker;
  });

  it('keeps the earliest due time for a key delayed twice, and delivers it once', async () => {
    const { clock, queue } = newQueue();
    queue.addAfter('a', 100);
    queue.addAfter('a', 50); // earlier wins
    queue.addAfter('b', 40);
    queue.addAfter('b', 80); // later is ignored
    await clock.advance(40);
    expect(await takeAll(queue)).toEqual(['b']);
    await clock.advance(10);
    expect(await takeAll(queue)).toEqual(['a']);
    await clock.advance(1_000);
    expect(queue.len()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('delivers once immediately when a delayed key is also added; the delay still fires later, as in client-go', async () => {
    const { clock, queue } = newQueue();
    queue.addAfter('a', 100);
    queue.add('a');
    expect(queue.len()).toBe(1);
    expect(await takeAll(queue)).toEqual(['a']);
    await clock.advance(99);
    expect(queue.len()).toBe(0);
    await clock.advance(1);
    expect(await takeAll(queue)).toEqual(['a']);
  });

  it('does not duplicate a delayed key that falls due while it is still waiting', async () => {
    const { clock, queue } = newQueue();
    queue.add('a');
    queue.addAfter('a', 10);
    await clock.advance(10);
    expect(queue.len()).toBe(1);
  });

  it('uses at most one timer however many keys are delayed', async () => {
    const { clock, queue } = newQueue();
    let seed = 7;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const delays = new Map<string, number>();
    for (let i = 0; i < 500; i++) {
      const key = `k${i % 300}`;
      const ms = 1 + Math.floor(random() * 10_000);
      queue.addAfter(key, ms);
      delays.set(key, Math.min(delays.get(key) ?? Infinity, ms));
      expect(clock.pendingTimers()).toBeLessThanOrEqual(1);
    }
    const seen: string[] = [];
    for (let t = 0; t < 10_000; t += 250) {
      await clock.advance(250);
      expect(clock.pendingTimers()).toBeLessThanOrEqual(1);
      seen.push(...(await takeAll(queue)));
    }
    expect(clock.pendingTimers()).toBe(0);
    expect(new Set(seen).size).toBe(300);
    expect(seen).toHaveLength(300);
  });

  it('fires a delay longer than a Node timer can hold only when it is due', async () => {
    const { clock, queue } = newQueue();
    const thirtyDays = 30 * 24 * 3_600_000;
    queue.addAfter('a', thirtyDays);
    await clock.advance(2 ** 31); // the clamped timer fires and re-arms
    expect(queue.len()).toBe(0);
    expect(clock.pendingTimers()).toBe(1);
    await clock.advance(thirtyDays - 2 ** 31);
    expect(queue.len()).toBe(1);
  });
});

describe('WorkQueue: rate-limited adds', () => {
  it('delays by the rate limiter, counts requeues, and forget resets them', async () => {
    const clock = new VirtualClock();
    const queue = new WorkQueue<string>({ clock, rateLimiter: new ItemExponentialRateLimiter() });
    const arrivals: number[] = [];
    for (let i = 0; i < 4; i++) {
      const start = clock.now();
      queue.addRateLimited('a');
      while (queue.len() === 0) await clock.advance(1);
      arrivals.push(clock.now() - start);
      await takeAll(queue);
    }
    expect(arrivals).toEqual([5, 10, 20, 40]);
    expect(queue.numRequeues('a')).toBe(4);
    queue.forget('a');
    expect(queue.numRequeues('a')).toBe(0);
  });

  it('uses the controller-runtime default limiter when none is given', async () => {
    const { clock, queue } = newQueue();
    queue.addRateLimited('a');
    await clock.advance(4);
    expect(queue.len()).toBe(0);
    await clock.advance(1);
    expect(queue.len()).toBe(1);
    expect(queue.numRequeues('a')).toBe(1);
  });
});

describe('WorkQueue: shutdown', () => {
  it('resolves waiting getters with undefined and ignores later adds', async () => {
    const { clock, queue } = newQueue();
    const getters = [track(queue.get()), track(queue.get())];
    queue.shutDown();
    await flushMicrotasks();
    expect(getters.map((g) => [g.settled, g.value])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
    expect(queue.shuttingDown()).toBe(true);
    queue.add('a');
    queue.addAfter('b', 0);
    queue.addAfter('c', 10);
    queue.addRateLimited('d');
    expect(queue.numRequeues('d')).toBe(0); // the limiter was not even asked
    await clock.advance(1_000);
    expect(queue.len()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
    expect(await queue.get()).toBeUndefined();
  });

  it('still hands out keys left waiting, drops delayed ones, then resolves undefined', async () => {
    const { clock, queue } = newQueue();
    queue.add('a');
    queue.add('b');
    queue.addAfter('later', 10);
    expect(clock.pendingTimers()).toBe(1);
    queue.shutDown();
    expect(clock.pendingTimers()).toBe(0);
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
    expect(await queue.get()).toBeUndefined();
    queue.shutDown(); // idempotent
  });

  it('shutDownWithDrain waits until every processing key is done, including a re-added one', async () => {
    const { queue } = newQueue();
    queue.add('a');
    queue.add('b');
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
    queue.add('a'); // dirty while processing: comes back after done
    const drained = track(queue.shutDownWithDrain());
    queue.add('c'); // ignored
    queue.done('b');
    await flushMicrotasks();
    expect(drained.settled).toBe(false);
    queue.done('a');
    expect(await queue.get()).toBe('a');
    await flushMicrotasks();
    expect(drained.settled).toBe(false);
    queue.done('a');
    await flushMicrotasks();
    expect(drained.settled).toBe(true);
    expect(await queue.get()).toBeUndefined();
  });

  it('shutDownWithDrain resolves at once when nothing is processing, and shutDown releases a pending drain', async () => {
    const { queue } = newQueue();
    await queue.shutDownWithDrain();
    const other = newQueue().queue;
    other.add('a');
    await other.get();
    const drained = track(other.shutDownWithDrain());
    await flushMicrotasks();
    expect(drained.settled).toBe(false);
    other.shutDown();
    await flushMicrotasks();
    expect(drained.settled).toBe(true);
  });
});

describe('WorkQueue: metrics', () => {
  interface Recorded {
    name: string;
    adds: number;
    retries: number;
    depth: number[];
    queueSeconds: number[];
    workSeconds: number[];
    unfinished: () => UnfinishedWork;
  }

  function recordingProvider(): { provider: WorkQueueMetricsProvider; recorded: Recorded[] } {
    const recorded: Recorded[] = [];
    const provider: WorkQueueMetricsProvider = {
      newQueueMetrics(name, unfinished): WorkQueueMetrics {
        const r: Recorded = { name, adds: 0, retries: 0, depth: [], queueSeconds: [], workSeconds: [], unfinished };
        recorded.push(r);
        return {
          incAdds: () => {
            r.adds++;
          },
          setDepth: (depth) => void r.depth.push(depth),
          observeQueueDuration: (seconds) => void r.queueSeconds.push(seconds),
          observeWorkDuration: (seconds) => void r.workSeconds.push(seconds),
          incRetries: () => {
            r.retries++;
          },
        };
      },
    };
    return { provider, recorded };
  }

  it('reports adds, depth, queue and work durations, retries and unfinished work', async () => {
    const clock = new VirtualClock();
    const { provider, recorded } = recordingProvider();
    const queue = new WorkQueue<string>({ clock, name: 'widgets', metrics: provider });
    const r = recorded[0]!;
    expect(r.name).toBe('widgets');

    queue.add('a');
    queue.add('a'); // duplicate: not an add
    queue.add('b');
    expect(r.adds).toBe(2);
    expect(r.depth).toEqual([1, 2]);

    await clock.advance(2_000);
    expect(await queue.get()).toBe('a');
    expect(r.queueSeconds).toEqual([2]);
    expect(r.depth.at(-1)).toBe(1);

    await clock.advance(500);
    expect(await queue.get()).toBe('b');
    expect(r.queueSeconds).toEqual([2, 2.5]);
    await clock.advance(1_000);
    // a has run 1.5 s, b 1 s.
    expect(r.unfinished()).toEqual({ unfinishedWorkSeconds: 2.5, longestRunningProcessorSeconds: 1.5 });

    queue.done('a');
    expect(r.workSeconds).toEqual([1.5]);
    queue.done('b');
    expect(r.workSeconds).toEqual([1.5, 1]);
    expect(r.unfinished()).toEqual({ unfinishedWorkSeconds: 0, longestRunningProcessorSeconds: 0 });

    queue.addAfter('c', 0);
    queue.addAfter('d', 100);
    queue.addRateLimited('e');
    expect(r.retries).toBe(3);
    expect(r.adds).toBe(3); // c now; d and e when due
    await clock.advance(100);
    expect(r.adds).toBe(5);
    expect(r.depth.at(-1)).toBe(3);
  });

  it('counts a re-add during processing in adds and depth but not in len', async () => {
    const clock = new VirtualClock();
    const { provider, recorded } = recordingProvider();
    const queue = new WorkQueue<string>({ clock, metrics: provider });
    const r = recorded[0]!;
    queue.add('a');
    await queue.get();
    queue.add('a');
    expect(r.adds).toBe(2);
    expect(r.depth.at(-1)).toBe(1);
    expect(queue.len()).toBe(0);
    await clock.advance(300);
    queue.done('a');
    expect(await queue.get()).toBe('a');
    expect(r.queueSeconds).toEqual([0, 0.3]); // measured from the re-add
  });
});
