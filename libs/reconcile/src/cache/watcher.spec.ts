import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { KubeApiError } from '../core/errors.ts';
import { FakeWatchTransport } from '../testing/fake-watch-transport.ts';
import type { FakeWatch } from '../testing/fake-watch-transport.ts';
import type { Logger } from '../core/logger.ts';
import { NetworkError } from '../core/network-error.ts';
import type { WatchEvent, WatchTransport } from './watch-transport.ts';
import { ShortWatchError, Watcher, WatchStalledError } from './watcher.ts';
import type { WatcherEvent, WatcherOptions } from './watcher.ts';

function cm(name: string, resourceVersion: string): KubernetesObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', resourceVersion } };
}

const serverError = (): KubeApiError => new KubeApiError('etcd is sad', 500, 'InternalError');
const gone = (): KubeApiError => new KubeApiError('too old resource version', 410, 'Expired');

function setup(options: WatcherOptions = {}, random: () => number = () => 0.5) {
  const clock = new VirtualClock();
  const transport = new FakeWatchTransport(clock);
  const watcher = new Watcher({ transport, clock, random }, { initialList: 'list', ...options });
  const events: WatcherEvent[] = [];
  const controller = new AbortController();
  const start = async (): Promise<void> => {
    for await (const event of watcher.events(controller.signal)) events.push(event);
  };
  return { clock, transport, watcher, events, controller, start };
}

/** Differences between consecutive times. */
const gaps = (times: readonly number[]): number[] => times.slice(1).map((t, i) => t - (times[i] ?? 0));

describe('Watcher (initial list: paginated list, then watch)', () => {
  it('lists every page with continue tokens, reports Restarted, then watches from the list resourceVersion', async () => {
    const { clock, transport, events, controller, start } = setup();
    transport.scriptList(
      { items: [cm('a', '5'), cm('b', '6')], resourceVersion: '10', continue: 't1' },
      { items: [cm('c', '7')], resourceVersion: '11' },
    );
    const done = start();
    await clock.advance(0);

    expect(transport.lists.map((l) => l.request.continue)).toEqual([undefined, 't1']);
    expect(transport.lists.map((l) => l.request.limit)).toEqual([500, 500]);
    expect(events).toEqual([{ type: 'Restarted', objects: [cm('a', '5'), cm('b', '6'), cm('c', '7')] }]);
    const watch = transport.lastWatch();
    expect(watch.request.resourceVersion).toBe('11');
    expect(watch.request.allowWatchBookmarks).toBe(true);
    expect(watch.request.timeoutSeconds).toBe(450);

    controller.abort();
    await done;
    expect(watch.aborted).toBe(true);
  });

  it('draws the server timeoutSeconds from [300, 600]', async () => {
    for (const [random, expected] of [
      [0, 300],
      [0.9999, 600],
    ] as const) {
      const { clock, transport, controller, start } = setup({}, () => random);
      transport.scriptList({ items: [], resourceVersion: '1' });
      const done = start();
      await clock.advance(0);
      expect(transport.lastWatch().request.timeoutSeconds).toBe(expected);
      controller.abort();
      await done;
    }
  });

  it('applies watch events in order; a bookmark moves the resourceVersion without an event', async () => {
    const { clock, transport, watcher, events, controller, start } = setup();
    transport.scriptList({ items: [], resourceVersion: '1' });
    const done = start();
    await clock.advance(0);
    const watch = transport.lastWatch();
    watch.push({ type: 'ADDED', object: cm('a', '2') });
    watch.push({ type: 'MODIFIED', object: cm('a', '3') });
    watch.bookmark('7');
    watch.push({ type: 'DELETED', object: cm('a', '8') });
    watch.bookmark('9');
    await clock.advance(0);

    expect(events.slice(1)).toEqual([
      { type: 'Added', object: cm('a', '2') },
      { type: 'Modified', object: cm('a', '3') },
      { type: 'Deleted', object: cm('a', '8') },
    ]);
    expect(watcher.health().resourceVersion).toBe('9');
    controller.abort();
    await done;
  });

  it('re-watches from the last resourceVersion when the server ends the watch, without relisting', async () => {
    const { clock, transport, controller, start } = setup();
    transport.scriptList({ items: [], resourceVersion: '1' });
    const done = start();
    await clock.advance(0);
    transport.lastWatch().bookmark('42');
    await clock.advance(60_000);
    transport.lastWatch().end();
    await clock.advance(0);

    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch().request.resourceVersion).toBe('42');
    expect(transport.lastWatch().openedAt).toBe(60_000);
    expect(transport.lists).toHaveLength(1);
    controller.abort();
    await done;
  });

  it('relists on 410 Gone from the watch and reports a new Restarted', async () => {
    const { clock, transport, events, controller, start } = setup();
    transport.scriptList({ items: [cm('a', '1')], resourceVersion: '1' }, { items: [cm('b', '9')], resourceVersion: '9' });
    const done = start();
    await clock.advance(0);
    transport.lastWatch().push({ type: 'ADDED', object: cm('x', '2') });
    await clock.advance(5_000);
    transport.lastWatch().fail(gone());
    await clock.advance(0);

    expect(transport.lists).toHaveLength(2);
    expect(transport.lists[1]?.at).toBe(5_000);
    expect(transport.lists[1]?.request.continue).toBeUndefined();
    // The first list may be served from the apiserver's watch cache (resourceVersion "0", as client-go does);
    // the relist after a 410 is a consistent read.
    expect(transport.lists[0]?.request.resourceVersion).toBe('0');
    expect(transport.lists[1]?.request.resourceVersion).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'Restarted', objects: [cm('b', '9')] });
    expect(transport.lastWatch().request.resourceVersion).toBe('9');
    controller.abort();
    await done;
  });

  it('backs off before relisting when the watch rejects a list resourceVersion at once (410 loop)', async () => {
    const { clock, transport, watcher, controller, start } = setup();
    transport.scriptList({ items: [], resourceVersion: '1' }, { items: [], resourceVersion: '2' }, { items: [], resourceVersion: '3' });
    transport.onWatch = (watch) => {
      watch.fail(gone());
    };
    const done = start();
    await clock.advance(5_000);

    expect(gaps(transport.lists.map((l) => l.at))).toEqual([800, 1600]);
    expect(watcher.health().consecutiveFailures).toBe(3); // the third list's watch failed too
    controller.abort();
    await done;
  });

  it('starts the list over when a continue token has expired (410)', async () => {
    const { clock, transport, events, controller, start } = setup();
    transport.scriptList(
      { items: [cm('a', '1')], resourceVersion: '1', continue: 't1' },
      gone(),
      { items: [cm('a', '3')], resourceVersion: '3' },
    );
    const done = start();
    await clock.advance(0);

    expect(transport.lists.map((l) => l.request.continue)).toEqual([undefined, 't1', undefined]);
    expect(events).toEqual([{ type: 'Restarted', objects: [cm('a', '3')] }]);
    controller.abort();
    await done;
  });

  it('aborts a silent watch after 70 s of inactivity and re-watches from the last resourceVersion', async () => {
    const { clock, transport, watcher, controller, start } = setup();
    transport.scriptList({ items: [], resourceVersion: '1' });
    const done = start();
    await clock.advance(0);
    const first = transport.lastWatch();
    await clock.advance(50_000);
    first.bookmark('5'); // any bytes postpone the timeout
    await clock.advance(69_999);
    expect(first.aborted).toBe(false);
    await clock.advance(1);

    expect(first.aborted).toBe(true);
    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch().request.resourceVersion).toBe('5');
    expect(transport.lastWatch().openedAt).toBe(120_000);
    expect(transport.lists).toHaveLength(1);
    const health = watcher.health();
    expect(health.lastError).toBeInstanceOf(WatchStalledError);
    expect(health.consecutiveFailures).toBe(0);
    expect(health.lastActivityTime).toBe(50_000);
    controller.abort();
    await done;
  });

  it('counts keep-alive bytes without events as activity', async () => {
    const { clock, transport, controller, start } = setup();
    transport.scriptList({ items: [], resourceVersion: '1' });
    const done = start();
    await clock.advance(0);
    for (let i = 0; i < 4; i++) {
      await clock.advance(60_000);
      transport.lastWatch().activity();
    }
    expect(transport.watches).toHaveLength(1);
    controller.abort();
    await done;
  });

  it('aborts a watch still open well after its timeoutSeconds, even if it trickles bytes', async () => {
    const { clock, transport, watcher, controller, start } = setup();
    transport.scriptList({ items: [], resourceVersion: '1' });
    const done = start();
    await clock.advance(0);
    const first = transport.lastWatch(); // timeoutSeconds 450, so the deadline is 465 s
    for (let t = 0; t < 460_000; t += 20_000) {
      await clock.advance(20_000);
      first.activity();
    }
    expect(first.aborted).toBe(false);
    await clock.advance(5_000);

    expect(first.aborted).toBe(true);
    expect(watcher.health().lastError).toMatchObject({ kind: 'deadline' });
    expect(transport.watches).toHaveLength(2);
    controller.abort();
    await done;
  });

  it('recovers from a stalled watch even when the transport ignores the abort signal', async () => {
    const clock = new VirtualClock();
    const opened: number[] = [];
    const transport: WatchTransport = {
      list: () => Promise.resolve({ items: [], resourceVersion: '1' }),
      watch: () => {
        opened.push(clock.now());
        return {
          [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<WatchEvent>>(() => undefined) }),
        };
      },
    };
    const watcher = new Watcher({ transport, clock, random: () => 0.5 }, { initialList: 'list' });
    const controller = new AbortController();
    const done = (async () => {
      for await (const _event of watcher.events(controller.signal)) {
        // drain
      }
    })();
    await clock.advance(140_000);
    expect(opened).toEqual([0, 70_000, 140_000]);
    controller.abort();
    await done;
  });

  it('backs off 800 ms, 1.6 s, 3.2 s … capped at 30 s on repeated errors', async () => {
    const { clock, transport, controller, start } = setup();
    transport.scriptList(...Array.from({ length: 9 }, serverError));
    const done = start();
    await clock.advance(200_000);

    expect(gaps(transport.lists.map((l) => l.at))).toEqual([800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000, 30_000]);
    controller.abort();
    await done;
  });

  it('keeps backoff delays within ±20 % jitter', async () => {
    for (const [random, expected] of [
      [0, [640, 1280, 2560]],
      [0.5, [800, 1600, 3200]],
      [0.999_999, [960, 1920, 3840]],
    ] as const) {
      const { clock, transport, controller, start } = setup({}, () => random);
      transport.scriptList(serverError(), serverError(), serverError());
      const done = start();
      await clock.advance(10_000);
      const delays = gaps(transport.lists.map((l) => l.at));
      expect(delays).toHaveLength(3);
      delays.forEach((delay, i) => {
        expect(delay).toBeCloseTo(expected[i] ?? 0, -1);
      });
      controller.abort();
      await done;
    }
  });

  it('gives up on a list page unanswered for 70 s and retries it after a backoff', async () => {
    const { clock, transport, watcher, controller, start } = setup();
    const done = start(); // nothing scripted: the first list hangs
    await clock.advance(69_999);
    expect(transport.lists).toHaveLength(1);
    expect(transport.lists[0]?.request.signal.aborted).toBe(false);
    transport.scriptList({ items: [], resourceVersion: '1' });
    await clock.advance(1);
    expect(transport.lists[0]?.request.signal.aborted).toBe(true);
    expect(watcher.health()).toMatchObject({ state: 'Backoff', consecutiveFailures: 1, lastError: { kind: 'list' } });
    await clock.advance(800);
    expect(transport.lists.map((l) => l.at)).toEqual([0, 70_800]);
    expect(transport.watches).toHaveLength(1);
    controller.abort();
    await done;
  });

  it('backs off 429 Too Many Requests like a server error', async () => {
    const { clock, transport, controller, start } = setup();
    transport.scriptList(new KubeApiError('slow down', 429, 'TooManyRequests'), { items: [], resourceVersion: '1' });
    const done = start();
    await clock.advance(10_000);
    expect(gaps(transport.lists.map((l) => l.at))).toEqual([800]);
    expect(transport.watches).toHaveLength(1);
    controller.abort();
    await done;
  });

  it('resets the backoff after 2 minutes without errors', async () => {
    const { clock, transport, watcher, controller, start } = setup();
    transport.scriptList(serverError(), serverError(), serverError(), { items: [], resourceVersion: '1' });
    const done = start();
    await clock.advance(10_000); // lists at 0, 800, 2400, 5600; watch opens at 5600
    expect(watcher.health().consecutiveFailures).toBe(3);
    for (let i = 0; i < 3; i++) {
      await clock.advance(50_000);
      transport.lastWatch().bookmark(String(2 + i));
    }
    expect(watcher.health().consecutiveFailures).toBe(0);
    const failedAt = clock.now();
    transport.lastWatch().fail(new KubeApiError('unavailable', 503, 'ServiceUnavailable'));
    await clock.advance(10_000);

    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch().openedAt - failedAt).toBe(800);
    expect(transport.lastWatch().request.resourceVersion).toBe('4');
    expect(transport.lists).toHaveLength(4);
    controller.abort();
    await done;
  });

  it('backs off network errors on the watch and resumes from the same resourceVersion', async () => {
    const { clock, transport, controller, start } = setup();
    transport.scriptList({ items: [], resourceVersion: '3' });
    const done = start();
    await clock.advance(0);
    transport.lastWatch().fail(new NetworkError('ECONNRESET'));
    await clock.advance(799);
    expect(transport.watches).toHaveLength(1);
    await clock.advance(1);
    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch().request.resourceVersion).toBe('3');
    controller.abort();
    await done;
  });

  it('backs off a watch that the server closes at once, again and again', async () => {
    const { clock, transport, watcher, controller, start } = setup();
    transport.scriptList({ items: [], resourceVersion: '1' });
    transport.onWatch = (watch) => {
      watch.end();
    };
    const done = start();
    await clock.advance(30_000);

    expect(gaps(transport.watches.map((w) => w.openedAt))).toEqual([800, 1600, 3200, 6400, 12_800]);
    expect(transport.lists).toHaveLength(1);
    expect(watcher.health().lastError).toBeInstanceOf(ShortWatchError);
    controller.abort();
    await done;
  });

  it('reports its state, failures and times through health()', async () => {
    const { clock, watcher, controller, start } = setup();
    expect(watcher.health().state).toBe('Stopped');
    const done = start();
    await clock.advance(1_000);
    expect(watcher.health()).toMatchObject({ state: 'Listing', consecutiveFailures: 0, lastEventTime: undefined });

    controller.abort();
    await done;
    expect(watcher.health().state).toBe('Stopped');

    const second = setup();
    second.transport.scriptList(serverError(), { items: [], resourceVersion: '8' });
    const run = second.start();
    await second.clock.advance(100);
    expect(second.watcher.health()).toMatchObject({ state: 'Backoff', consecutiveFailures: 1 });
    expect(second.watcher.health().lastError?.message).toBe('etcd is sad');
    await second.clock.advance(700);
    expect(second.watcher.health()).toMatchObject({
      state: 'Watching',
      resourceVersion: '8',
      lastEventTime: 800,
      lastActivityTime: 800,
      consecutiveFailures: 1,
    });
    await second.clock.advance(5_000);
    second.transport.lastWatch().push({ type: 'ADDED', object: cm('a', '9') });
    await second.clock.advance(0);
    expect(second.watcher.health()).toMatchObject({ resourceVersion: '9', lastEventTime: 5_800, lastActivityTime: 5_800 });
    second.controller.abort();
    await run;
  });

  it('stops on abort during a backoff and refuses a second concurrent run', async () => {
    const { clock, transport, watcher, controller, start } = setup();
    transport.scriptList(serverError());
    const done = start();
    await clock.advance(100);
    const second = watcher.events(controller.signal);
    await expect(second.next()).rejects.toThrow('already running');
    controller.abort();
    await done;
    expect(clock.pendingTimers()).toBe(0);
  });

  it('closes the watch when the consumer stops iterating', async () => {
    const { clock, transport, watcher } = setup();
    transport.scriptList({ items: [], resourceVersion: '1' });
    const done = (async () => {
      for await (const event of watcher.events(new AbortController().signal)) {
        if (event.type === 'Added') break;
      }
    })();
    await clock.advance(0);
    const watch = transport.lastWatch();
    watch.push({ type: 'ADDED', object: cm('a', '2') });
    await done;
    expect(watch.aborted).toBe(true);
    expect(watcher.health().state).toBe('Stopped');
    expect(clock.pendingTimers()).toBe(0);
  });
});

/** A logger that records each line as `level: message`. */
function recordingLogger(lines: string[]): Logger {
  const logger: Logger = {
    debug: (_fields, message) => lines.push(`debug: ${message}`),
    info: (_fields, message) => lines.push(`info: ${message}`),
    warn: (_fields, message) => lines.push(`warn: ${message}`),
    error: (_fields, message) => lines.push(`error: ${message}`),
    child: () => logger,
  };
  return logger;
}

function watchListSetup(options: WatcherOptions = {}) {
  const clock = new VirtualClock();
  const transport = new FakeWatchTransport(clock);
  const logs: string[] = [];
  const watcher = new Watcher({ transport, clock, random: () => 0.5, logger: recordingLogger(logs) }, { initialList: 'watchList', ...options });
  const events: WatcherEvent[] = [];
  const controller = new AbortController();
  const start = async (): Promise<void> => {
    for await (const event of watcher.events(controller.signal)) events.push(event);
  };
  return { clock, transport, watcher, events, logs, controller, start };
}

const watchLists = (transport: FakeWatchTransport): FakeWatch[] => transport.watches.filter((watch) => watch.request.sendInitialEvents === true);

describe('Watcher (initial list: watch-list)', () => {
  it('streams the initial state on one watch, reports it at the end bookmark, and keeps watching on the same stream', async () => {
    const { clock, transport, watcher, events, controller, start } = watchListSetup();
    const done = start();
    await clock.advance(0);
    const watch = transport.lastWatch();
    expect(watch.request).toMatchObject({ sendInitialEvents: true, resourceVersion: '', allowWatchBookmarks: true, timeoutSeconds: 450 });
    watch.push({ type: 'ADDED', object: cm('a', '5') });
    watch.push({ type: 'ADDED', object: cm('b', '6') });
    await clock.advance(0);
    expect(events).toEqual([]);
    expect(watcher.health()).toMatchObject({ state: 'InitialWatch', resourceVersion: undefined });

    watch.endInitialEvents('10');
    watch.push({ type: 'MODIFIED', object: cm('a', '11') });
    await clock.advance(0);
    expect(events).toEqual([
      { type: 'Restarted', objects: [cm('a', '5'), cm('b', '6')] },
      { type: 'Modified', object: cm('a', '11') },
    ]);
    expect(transport.watches).toHaveLength(1);
    expect(transport.lists).toHaveLength(0);
    expect(watcher.health()).toMatchObject({ state: 'Watching', resourceVersion: '11', lastEventTime: 0 });
    controller.abort();
    await done;
    expect(watch.aborted).toBe(true);
  });

  it('reports an empty collection as an empty Restarted', async () => {
    const { clock, transport, events, controller, start } = watchListSetup();
    const done = start();
    await clock.advance(0);
    transport.lastWatch().endInitialEvents('3');
    await clock.advance(0);
    expect(events).toEqual([{ type: 'Restarted', objects: [] }]);
    controller.abort();
    await done;
  });

  it('re-watches (without sendInitialEvents) from the last resourceVersion when the stream ends after the end bookmark', async () => {
    const { clock, transport, controller, start } = watchListSetup();
    const done = start();
    await clock.advance(0);
    transport.lastWatch().endInitialEvents('10');
    transport.lastWatch().bookmark('12');
    await clock.advance(60_000);
    transport.lastWatch().end();
    await clock.advance(0);
    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch().request.resourceVersion).toBe('12');
    expect(transport.lastWatch().request.sendInitialEvents).toBeUndefined();
    controller.abort();
    await done;
  });

  it('after a 410 on the watch, streams the state again from the last resourceVersion: objects deleted meanwhile are not in it', async () => {
    const { clock, transport, events, controller, start } = watchListSetup();
    const done = start();
    await clock.advance(0);
    const first = transport.lastWatch();
    first.push({ type: 'ADDED', object: cm('a', '5') });
    first.push({ type: 'ADDED', object: cm('b', '6') });
    first.endInitialEvents('10');
    await clock.advance(60_000);
    first.fail(gone());
    await clock.advance(0);

    const second = transport.lastWatch();
    expect(watchLists(transport)).toEqual([first, second]);
    expect(second.openedAt).toBe(60_000);
    expect(second.request.resourceVersion).toBe('10');
    second.push({ type: 'ADDED', object: cm('b', '6') });
    second.endInitialEvents('20');
    await clock.advance(0);
    expect(events.at(-1)).toEqual({ type: 'Restarted', objects: [cm('b', '6')] });
    expect(transport.lists).toHaveLength(0);
    controller.abort();
    await done;
  });

  it('starts over at once from "" when a watch-list from a resourceVersion is answered 410 or "too large resource version"', async () => {
    for (const refusal of [gone(), new KubeApiError('Too large resource version', 504, 'Timeout', { causes: ['ResourceVersionTooLarge'] })]) {
      const { clock, transport, watcher, events, controller, start } = watchListSetup();
      const done = start();
      await clock.advance(0);
      transport.lastWatch().endInitialEvents('10');
      await clock.advance(60_000);
      transport.lastWatch().fail(gone());
      await clock.advance(0);
      expect(transport.lastWatch().request.resourceVersion).toBe('10');
      transport.lastWatch().fail(refusal);
      await clock.advance(0);

      expect(watchLists(transport).map((watch) => [watch.openedAt, watch.request.resourceVersion])).toEqual([
        [0, ''],
        [60_000, '10'],
        [60_000, ''],
      ]);
      transport.lastWatch().push({ type: 'ADDED', object: cm('c', '30') });
      transport.lastWatch().endInitialEvents('30');
      await clock.advance(0);
      expect(events.at(-1)).toEqual({ type: 'Restarted', objects: [cm('c', '30')] });
      expect(watcher.health().consecutiveFailures).toBe(0);
      controller.abort();
      await done;
    }
  });

  it('falls back to paginated lists for good when the apiserver refuses the watch-list (422), and logs it once', async () => {
    const { clock, transport, watcher, events, logs, controller, start } = watchListSetup();
    transport.onWatch = (watch) => {
      if (watch.request.sendInitialEvents === true) {
        watch.fail(new KubeApiError('sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled', 422, 'Invalid'));
      }
    };
    transport.scriptList({ items: [cm('a', '1')], resourceVersion: '4' }, { items: [cm('a', '9')], resourceVersion: '9' });
    const done = start();
    await clock.advance(0);
    expect(events).toEqual([{ type: 'Restarted', objects: [cm('a', '1')] }]);
    expect(transport.lists.map((list) => list.at)).toEqual([0]);
    expect(transport.lastWatch().request.resourceVersion).toBe('4');
    expect(transport.lastWatch().request.sendInitialEvents).toBeUndefined();
    expect(logs).toEqual(['warn: watch-list refused: the initial state is read with paginated lists from now on']);
    expect(watcher.health().consecutiveFailures).toBe(0);

    await clock.advance(60_000);
    transport.lastWatch().fail(gone());
    await clock.advance(0);
    expect(watchLists(transport)).toHaveLength(1);
    expect(transport.lists).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: 'Restarted', objects: [cm('a', '9')] });
    expect(logs).toHaveLength(1);
    controller.abort();
    await done;
  });

  it('falls back for good when the server ignores sendInitialEvents (a bookmark without the end annotation)', async () => {
    const { clock, transport, events, logs, controller, start } = watchListSetup();
    transport.scriptList({ items: [cm('a', '1'), cm('b', '2')], resourceVersion: '4' });
    const done = start();
    await clock.advance(0);
    const ignored = transport.lastWatch();
    ignored.push({ type: 'ADDED', object: cm('a', '1') });
    ignored.bookmark('4');
    await clock.advance(0);
    expect(ignored.aborted).toBe(true);
    expect(events).toEqual([{ type: 'Restarted', objects: [cm('a', '1'), cm('b', '2')] }]);
    expect(logs).toHaveLength(1);
    controller.abort();
    await done;
  });

  it('backs off a watch-list that fails before its end bookmark, reads this sync with a paginated list, and streams the next one', async () => {
    const { clock, transport, watcher, events, logs, controller, start } = watchListSetup();
    transport.scriptList({ items: [cm('a', '1'), cm('b', '2')], resourceVersion: '4' });
    const done = start();
    await clock.advance(0);
    const broken = transport.lastWatch();
    broken.push({ type: 'ADDED', object: cm('a', '1') });
    broken.fail(new NetworkError('ECONNRESET'));
    await clock.advance(799);
    expect(watcher.health()).toMatchObject({ state: 'Backoff', consecutiveFailures: 1 });
    expect(transport.lists).toHaveLength(0);
    await clock.advance(1);
    expect(transport.lists.map((list) => list.at)).toEqual([800]);
    expect(events).toEqual([{ type: 'Restarted', objects: [cm('a', '1'), cm('b', '2')] }]);
    expect(logs).toEqual([]);

    await clock.advance(60_000);
    transport.lastWatch().fail(gone());
    await clock.advance(0);
    expect(watchLists(transport)).toHaveLength(2);
    expect(transport.lastWatch().request).toMatchObject({ sendInitialEvents: true, resourceVersion: '4' });
    controller.abort();
    await done;
  });

  it('treats a 5xx, a stall and a stream that ends before the end bookmark alike: backoff, then a paginated list', async () => {
    const endings: [(watch: FakeWatch, clock: VirtualClock) => Promise<void>, string][] = [
      [
        (watch) => {
          watch.fail(serverError());
          return Promise.resolve();
        },
        'KubeApiError',
      ],
      [(_watch, clock) => clock.advance(70_000), 'WatchStalledError'],
      [
        async (watch, clock) => {
          watch.push({ type: 'ADDED', object: cm('a', '1') });
          await clock.advance(2_000);
          watch.end();
        },
        'WatchListIncompleteError',
      ],
    ];
    for (const [ending, errorName] of endings) {
      const { clock, transport, watcher, events, controller, start } = watchListSetup();
      transport.scriptList({ items: [cm('a', '1')], resourceVersion: '4' });
      const done = start();
      await clock.advance(0);
      const endedAt = clock.now();
      await ending(transport.lastWatch(), clock);
      await clock.advance(0);
      expect(watcher.health().lastError?.name).toBe(errorName);
      await clock.advance(800);
      expect(transport.lists).toHaveLength(1);
      expect(transport.lists[0]?.at).toBeGreaterThan(endedAt);
      expect(events).toEqual([{ type: 'Restarted', objects: [cm('a', '1')] }]);
      controller.abort();
      await done;
    }
  });

  it('applies changes sent before the end bookmark (older apiservers): the last event for a key wins', async () => {
    const { clock, transport, events, controller, start } = watchListSetup();
    const done = start();
    await clock.advance(0);
    const watch = transport.lastWatch();
    watch.push({ type: 'ADDED', object: cm('a', '5') });
    watch.push({ type: 'ADDED', object: cm('b', '6') });
    watch.push({ type: 'DELETED', object: cm('a', '7') });
    watch.push({ type: 'MODIFIED', object: cm('b', '8') });
    watch.endInitialEvents('8');
    await clock.advance(0);
    expect(events).toEqual([{ type: 'Restarted', objects: [cm('b', '8')] }]);
    controller.abort();
    await done;
  });

  it('lists with pages when no initialList is given (the default)', async () => {
    const clock = new VirtualClock();
    const transport = new FakeWatchTransport(clock);
    const watcher = new Watcher({ transport, clock, random: () => 0.5 });
    const controller = new AbortController();
    transport.scriptList({ items: [], resourceVersion: '1' });
    const done = (async () => {
      for await (const _event of watcher.events(controller.signal)) {
        // drain
      }
    })();
    await clock.advance(0);
    expect(transport.lists).toHaveLength(1);
    expect(watchLists(transport)).toHaveLength(0);
    controller.abort();
    await done;
  });
});
