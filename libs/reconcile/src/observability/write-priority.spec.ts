import { describe, expect, it } from 'vitest';
import { flushMicrotasks, VirtualClock } from '../core/clock.ts';
import { WritePriority } from './write-priority.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('WritePriority', () => {
  it('is quiet at once when no urgent write ran', async () => {
    const priority = new WritePriority({ clock: new VirtualClock(1_000) });
    let quiet = false;
    void priority.quiet().then(() => (quiet = true));
    await flushMicrotasks();
    expect(quiet).toBe(true);
  });

  it('holds a trailing write back while urgent writes run and for quietMs after the last one', async () => {
    const clock = new VirtualClock(1_000);
    const priority = new WritePriority({ clock }, { quietMs: 100 });
    const first = deferred();
    const second = deferred();
    const writes = [priority.track(first.promise), priority.track(second.promise)];
    let quiet = false;
    void priority.quiet().then(() => (quiet = true));
    first.resolve();
    await clock.advance(500);
    expect(quiet).toBe(false);
    second.resolve();
    await Promise.all(writes);
    await clock.advance(99);
    expect(quiet).toBe(false);
    await clock.advance(1);
    expect(quiet).toBe(true);
  });

  it('lets a trailing write go after maxWaitMs even while urgent writes go on', async () => {
    const clock = new VirtualClock(1_000);
    const priority = new WritePriority({ clock }, { quietMs: 100, maxWaitMs: 5_000 });
    const endless = deferred();
    void priority.track(endless.promise);
    let quiet = false;
    void priority.quiet().then(() => (quiet = true));
    await clock.advance(4_999);
    expect(quiet).toBe(false);
    await clock.advance(1);
    expect(quiet).toBe(true);
    endless.resolve();
  });

  it('passes the urgent write’s result and error through', async () => {
    const priority = new WritePriority({ clock: new VirtualClock() });
    await expect(priority.track(Promise.resolve(7))).resolves.toBe(7);
    await expect(priority.track(Promise.reject(new Error('409')))).rejects.toThrow('409');
  });
});
