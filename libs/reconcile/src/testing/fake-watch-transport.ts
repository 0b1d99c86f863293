import type { KubernetesObject } from '@kubernetes/client-node';
import type { Clock } from '../core/clock.ts';
import type { ListPage, ListRequest, WatchEvent, WatchRequest, WatchTransport } from '../cache/watch-transport.ts';

type Scripted<T extends KubernetesObject> = ListPage<T> | Error;

type Item<T extends KubernetesObject> =
  | { readonly kind: 'event'; readonly event: WatchEvent<T> }
  | { readonly kind: 'end' }
  | { readonly kind: 'error'; readonly error: Error };

/** One open watch of a {@link FakeWatchTransport}; the test drives it. */
export class FakeWatch<T extends KubernetesObject = KubernetesObject> {
  /** The request the watcher made. */
  readonly request: WatchRequest;
  /** `Clock.now()` when the watch was opened. */
  readonly openedAt: number;
  readonly #queue: Item<T>[] = [];
  #wake: (() => void) | undefined;

  /** Wraps a request; the test drives the stream with the methods below. */
  constructor(request: WatchRequest, openedAt: number) {
    this.request = request;
    this.openedAt = openedAt;
  }

  /** True once the watcher aborted this watch (stall, close or shutdown). */
  get aborted(): boolean {
    return this.request.signal.aborted;
  }

  /** Delivers an event (and reports activity, as bytes would arrive). */
  push(event: WatchEvent<T>): void {
    this.request.onActivity();
    this.#enqueue({ kind: 'event', event });
  }

  /** Delivers a bookmark. */
  bookmark(resourceVersion: string): void {
    this.push({ type: 'BOOKMARK', resourceVersion });
  }

  /** Delivers the bookmark that ends a watch-list's initial events (annotation `k8s.io/initial-events-end`). */
  endInitialEvents(resourceVersion: string): void {
    this.push({ type: 'BOOKMARK', resourceVersion, initialEventsEnd: true });
  }

  /** Reports bytes without an event (a keep-alive or a partial line). */
  activity(): void {
    this.request.onActivity();
  }

  /** Ends the stream normally, as the server does at `timeoutSeconds`. */
  end(): void {
    this.#enqueue({ kind: 'end' });
  }

  /** Breaks the stream with `error`. */
  fail(error: Error): void {
    this.#enqueue({ kind: 'error', error });
  }

  /** The stream as the transport returns it; honours the request's signal. */
  async *stream(): AsyncGenerator<WatchEvent<T>, void, undefined> {
    const signal = this.request.signal;
    for (;;) {
      let item = this.#queue.shift();
      while (item === undefined) {
        if (signal.aborted) throw signal.reason as Error;
        await new Promise<void>((resolve) => {
          const onAbort = (): void => {
            resolve();
          };
          this.#wake = () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          };
          signal.addEventListener('abort', onAbort, { once: true });
        });
        item = this.#queue.shift();
      }
      if (item.kind === 'end') return;
      if (item.kind === 'error') throw item.error;
      yield item.event;
    }
  }

  #enqueue(item: Item<T>): void {
    this.#queue.push(item);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/**
 * A scripted {@link WatchTransport} for unit tests. `list` answers from a queue of pages or errors (and stays
 * pending, until aborted, when the queue is empty); each `watch` creates a {@link FakeWatch} the test drives.
 * Only for tests: it fakes our own interface, never the API server.
 */
export class FakeWatchTransport<T extends KubernetesObject = KubernetesObject> implements WatchTransport<T> {
  /** Every list request, with the time it was made. */
  readonly lists: { readonly request: ListRequest; readonly at: number }[] = [];
  /** Every watch opened, in order. */
  readonly watches: FakeWatch<T>[] = [];
  /** Called for each new watch (e.g. to end it at once); optional. */
  onWatch: ((watch: FakeWatch<T>) => void) | undefined;
  readonly #clock: Clock;
  readonly #script: Scripted<T>[] = [];

  /** Uses `clock` to time-stamp requests. */
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Queues answers for the next list calls, in order. */
  scriptList(...answers: Scripted<T>[]): void {
    this.#script.push(...answers);
  }

  /** The most recent watch; throws when none was opened. */
  lastWatch(): FakeWatch<T> {
    const watch = this.watches.at(-1);
    if (watch === undefined) throw new Error('FakeWatchTransport: no watch opened yet');
    return watch;
  }

  list(request: ListRequest): Promise<ListPage<T>> {
    this.lists.push({ request, at: this.#clock.now() });
    const answer = this.#script.shift();
    if (answer instanceof Error) return Promise.reject(answer);
    if (answer !== undefined) return Promise.resolve(answer);
    return new Promise<ListPage<T>>((_resolve, reject) => {
      request.signal.addEventListener(
        'abort',
        () => {
          reject(request.signal.reason as Error);
        },
        { once: true },
      );
    });
  }

  watch(request: WatchRequest): AsyncIterable<WatchEvent<T>> {
    const watch = new FakeWatch<T>(request, this.#clock.now());
    this.watches.push(watch);
    this.onWatch?.(watch);
    return watch.stream();
  }
}
