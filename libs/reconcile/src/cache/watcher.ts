import type { KubernetesObject } from '@kubernetes/client-node';
import { sleep } from '../core/clock.ts';
import { apiStatusOf, isGone, isResourceVersionTooLarge } from '../core/errors.ts';
import type { Clock, TimerHandle } from '../core/clock.ts';
import { errorFields, silentLogger } from '../core/logger.ts';
import type { Logger } from '../core/logger.ts';
import { InitialEvents } from './initial-events.ts';
import { WatchBackoff } from './watch-backoff.ts';
import type { WatchBackoffOptions } from './watch-backoff.ts';
import type { WatchEvent, WatchTransport } from './watch-transport.ts';

/**
 * What a {@link Watcher} tells its consumer. `Restarted` carries the complete current set after a full list (a
 * watch-list's initial events, or a paginated list): the consumer must replace what it holds, since objects absent
 * from it were deleted while nobody watched.
 * `Added`, `Modified` and `Deleted` then apply one change each, in resourceVersion order. Bookmarks are not
 * reported; they only move the watcher's resourceVersion.
 */
export type WatcherEvent<T extends KubernetesObject = KubernetesObject> =
  | { readonly type: 'Restarted'; readonly objects: readonly T[] }
  | { readonly type: 'Added' | 'Modified' | 'Deleted'; readonly object: T };

/**
 * The watcher's state machine position, as reported by {@link Watcher.health}: `InitialWatch` while a watch-list
 * streams the initial state, `Listing` while list pages are read; `Stopped` when not running.
 */
export type WatcherStateKind = 'Empty' | 'InitialWatch' | 'Listing' | 'Watching' | 'Backoff' | 'Stopped';

/**
 * How a {@link Watcher} gets the complete state it starts from (and again after a 410 Gone). `list` (the default):
 * a paginated list, then a watch from its resourceVersion. `watchList`: one watch with `sendInitialEvents=true`
 * (Kubernetes' streaming list, on by default in client-go since v0.35 as `WatchListClient`) whose initial events end
 * with an annotated bookmark, after which the same stream goes on as the watch; a server that refuses it is listed
 * with pages from then on, and a watch-list that fails before its end bookmark is replaced by a paginated list for
 * that one sync, as client-go does. `list` is the default because it is the faster of the two in JSON: kube-apiserver
 * 1.35 answers the first list (resourceVersion "0") from its watch cache in one response, while it streams the same
 * objects as JSON watch events at less than half that rate (30 MB: ~255 ms against ~530-660 ms; ADR 0028 addendum).
 */
export type InitialListStrategy = 'watchList' | 'list';

/** A snapshot of a watcher's condition, for readiness probes, metrics and logs. Times are `Clock.now()` values. */
export interface WatcherHealth {
  readonly state: WatcherStateKind;
  /** The resourceVersion the next watch resumes from; undefined before the first list completes. */
  readonly resourceVersion: string | undefined;
  /** When the last list completed or the last watch event (bookmarks included) arrived. */
  readonly lastEventTime: number | undefined;
  /** When any bytes last arrived from the server (list answers, events, bookmarks, keep-alive). */
  readonly lastActivityTime: number | undefined;
  /** Failures in the current streak; back to 0 once the backoff reset window (2 min) passes without one. */
  readonly consecutiveFailures: number;
  /** The last failure, stall or 410 Gone seen; kept after recovery for diagnosis. */
  readonly lastError: Error | undefined;
}

const STALL_MESSAGES = {
  inactivity: 'watch stalled: no data for',
  deadline: 'watch stalled: still open after',
  list: 'list stalled: no answer within',
} as const;

/**
 * Why the client gave up on a request: a watch with no bytes for the inactivity timeout (`inactivity`), a watch
 * open past its `timeoutSeconds` plus margin (`deadline`), or a list page not answered within `listTimeoutMs` (`list`).
 */
export class WatchStalledError extends Error {
  override readonly name = 'WatchStalledError';
  /** Which limit was exceeded. */
  readonly kind: keyof typeof STALL_MESSAGES;

  /** Builds the error for the given limit, with its value in milliseconds. */
  constructor(kind: keyof typeof STALL_MESSAGES, limitMs: number) {
    super(`${STALL_MESSAGES[kind]} ${limitMs} ms`);
    this.kind = kind;
  }
}

/**
 * A watch-list the server refused (400 or 422: an apiserver without the WatchList feature, or one older than 1.27),
 * or streamed without the annotated end bookmark (a server that ignores `sendInitialEvents`): the watcher lists
 * with pages from then on.
 */
export class WatchListUnsupportedError extends Error {
  override readonly name = 'WatchListUnsupportedError';
}

/** A watch-list stream that ended before its end bookmark: the initial state is incomplete, so it is not used. */
export class WatchListIncompleteError extends Error {
  override readonly name = 'WatchListIncompleteError';

  /** Builds the error with the number of initial events received before the end. */
  constructor(events: number) {
    super(`watch-list ended after ${events} event(s), before the bookmark that ends the initial events`);
  }
}

/** A watch that the server ended almost at once with no events: treated as a failure so it is backed off. */
export class ShortWatchError extends Error {
  /** Builds the error with the watch's duration in milliseconds. */
  constructor(durationMs: number) {
    super(`watch ended after ${durationMs} ms without any event`);
    this.name = 'ShortWatchError';
  }
}

/** What a {@link Watcher} needs from outside. */
export interface WatcherDeps<T extends KubernetesObject> {
  /** Reaches the API server for one resource type and scope. */
  readonly transport: WatchTransport<T>;
  /** Time for backoff sleeps and the stalled-watch timer. */
  readonly clock: Clock;
  /** Uniform numbers in [0, 1) for backoff jitter and the watch timeout; defaults to `Math.random`. */
  readonly random?: () => number;
  /** Where the one line about falling back from watch-list to paginated lists goes; default: nowhere. */
  readonly logger?: Logger;
}

/** Tuning of a {@link Watcher}; every field is optional. */
export interface WatcherOptions {
  /** How the initial state is read (default `list`; `watchList` falls back to `list` where the server refuses it). */
  readonly initialList?: InitialListStrategy;
  /** Items per list page (default 500). */
  readonly pageSize?: number;
  /** Lower bound of the server-side watch `timeoutSeconds`, drawn uniformly per watch (default 300). */
  readonly minTimeoutSeconds?: number;
  /** Upper bound (inclusive) of the server-side watch `timeoutSeconds` (default 600). */
  readonly maxTimeoutSeconds?: number;
  /**
   * Abort a watch and re-watch from the last resourceVersion after this long without any bytes (default 70 000 ms).
   * The API server's watch cache sends a bookmark about once a minute to watches that allow them, so a healthy
   * stream is never silent for 60 s; 70 s tolerates one late bookmark. A resource served without the watch cache
   * sends no bookmarks and is then re-watched (cheaply, without relisting) every 70 s while quiet.
   */
  readonly inactivityTimeoutMs?: number;
  /** Abort a watch still open this long after its `timeoutSeconds` (default 15 000 ms): the server forgot it. */
  readonly deadlineMarginMs?: number;
  /**
   * Abort a list page not answered within this time and retry it after a backoff (default 70 000 ms). The API server
   * ends ordinary requests after 60 s itself, so a page still unanswered later is on a dead connection.
   */
  readonly listTimeoutMs?: number;
  /** A watch that ends sooner than this with no events counts as a failure and is backed off (default 1 000 ms). */
  readonly minWatchDurationMs?: number;
  /** Backoff after failures (default 800 ms → 30 s, ×2, ±20 % jitter, reset after 2 min without failures). */
  readonly backoff?: WatchBackoffOptions;
}

interface OpenWatch<T extends KubernetesObject> {
  /**
   * The stream's next event; rejects with the abort reason as soon as `signal` aborts, even if the transport ignores
   * the signal. One call at a time.
   */
  next(): Promise<IteratorResult<WatchEvent<T>>>;
  /** Aborted when the watch is closed, stalls, or the run's signal aborts; the reason says which. */
  readonly signal: AbortSignal;
  readonly startedAt: number;
  events: number;
  close(): void;
}

/**
 * The explicit states of a watcher (kube-rs style). Transitions happen only in {@link Watcher}'s `#step`:
 *
 *     Empty ─► InitialWatch(rv, events) ─► … ─► end bookmark ─► Watching(rv', same stream) ─► Watching(rv'') …
 *     Empty ─► Listing(token, items) ─► … ─► Listing(last page) ─► Watching(rv) ─► Watching(rv') …   (strategy list)
 *     InitialWatch refused or unsupported ─► Listing (and every later sync lists)
 *     InitialWatch(rv ≠ "") answered 410 or too large ─► Empty (the next one from "")
 *     InitialWatch failure ─► Backoff ─► Listing (this sync only)    any other failure ─► Backoff(until, next)
 *     410 Gone ─► Empty        stall / normal end ─► Watching(rv)
 */
type State<T extends KubernetesObject> =
  | { readonly kind: 'Empty' }
  | { readonly kind: 'InitialWatch'; readonly resourceVersion: string; readonly watch: OpenWatch<T> | undefined; readonly initial: InitialEvents<T> }
  | { readonly kind: 'Listing'; readonly continueToken: string | undefined; readonly items: T[] }
  | { readonly kind: 'Watching'; readonly resourceVersion: string; readonly watch: OpenWatch<T> | undefined }
  | { readonly kind: 'Backoff'; readonly until: number; readonly next: State<T> };

interface Transition<T extends KubernetesObject> {
  readonly next: State<T>;
  readonly event?: WatcherEvent<T>;
}

const EVENT_TYPES = { ADDED: 'Added', MODIFIED: 'Modified', DELETED: 'Deleted' } as const;

// A watch-list refused with one of these statuses is not served by this server (validation or a bad request).
const WATCH_LIST_REFUSED = new Set([400, 422]);

/**
 * Lists then watches one resource type forever, the way client-go's reflector and kube-rs's `watcher` do. The
 * complete state comes first (reported as `Restarted`): by default from a paginated list followed by a watch from the
 * list's resourceVersion, or from a watch-list whose stream then carries on as the watch (see
 * {@link InitialListStrategy}). Watches ask for bookmarks, are re-watched from the last
 * resourceVersion when the server ends them or when they stall (no bytes for `inactivityTimeoutMs`), and the full
 * state is read again only on 410 Gone. It never gives up: 429, 5xx, network errors and watches that end at once are
 * retried after an exponential, jittered backoff, so it never hammers the API server. Construction does no work;
 * iteration of {@link Watcher.events} does.
 */
export class Watcher<T extends KubernetesObject = KubernetesObject> {
  readonly #transport: WatchTransport<T>;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #logger: Logger;
  readonly #backoff: WatchBackoff;
  readonly #pageSize: number;
  readonly #minTimeoutSeconds: number;
  readonly #maxTimeoutSeconds: number;
  readonly #inactivityTimeoutMs: number;
  readonly #deadlineMarginMs: number;
  readonly #minWatchDurationMs: number;
  readonly #listTimeoutMs: number;
  #running = false;
  // Whether the initial state comes from a watch-list; false from the start for strategy `list`, and for good once
  // the server refused one.
  #watchList: boolean;
  #stateKind: WatcherStateKind = 'Stopped';
  #resourceVersion: string | undefined;
  // Like client-go's reflector: lists start with resourceVersion "0", which the apiserver serves from its watch
  // cache in one pass (no round trip to etcd per page); after a 410 the next list is a consistent read instead.
  #consistentRelist = false;
  // Like client-go's reflector: a watch-list after a 410 on the watch starts from the last resourceVersion seen (the
  // state it sends is at least that new, and the apiserver serves it from its watch cache); only when that one is
  // refused as expired or too new does the next start from "", a consistent read.
  #watchListFromScratch = false;
  #lastEventTime: number | undefined;
  #lastActivityTime: number | undefined;
  #lastError: Error | undefined;
  #listedAt: number | undefined;

  /** Stores its dependencies and options; starts nothing. */
  constructor(deps: WatcherDeps<T>, options: WatcherOptions = {}) {
    this.#transport = deps.transport;
    this.#clock = deps.clock;
    this.#random = deps.random ?? Math.random;
    this.#logger = deps.logger ?? silentLogger;
    this.#watchList = options.initialList === 'watchList';
    this.#backoff = new WatchBackoff(this.#random, options.backoff);
    this.#pageSize = options.pageSize ?? 500;
    this.#minTimeoutSeconds = options.minTimeoutSeconds ?? 300;
    this.#maxTimeoutSeconds = options.maxTimeoutSeconds ?? 600;
    this.#inactivityTimeoutMs = options.inactivityTimeoutMs ?? 70_000;
    this.#deadlineMarginMs = options.deadlineMarginMs ?? 15_000;
    this.#minWatchDurationMs = options.minWatchDurationMs ?? 1_000;
    this.#listTimeoutMs = options.listTimeoutMs ?? 70_000;
  }

  /**
   * Runs the watcher and yields its events until `signal` aborts (then it returns normally) or the consumer stops
   * iterating; either way the open watch is closed. Errors are never thrown to the consumer. The consumer should
   * handle each event promptly: the next request waits for it. One run at a time: a second concurrent call throws.
   */
  async *events(signal: AbortSignal): AsyncGenerator<WatcherEvent<T>, void, undefined> {
    if (this.#running) throw new Error('Watcher.events: already running');
    this.#running = true;
    let state: State<T> = { kind: 'Empty' };
    this.#stateKind = state.kind;
    try {
      while (!signal.aborted) {
        let transition: Transition<T>;
        try {
          transition = await this.#step(state, signal);
        } catch (error) {
          if (isAborted(signal)) return;
          // Only a bug can land here (#step handles every API and network error): start over rather than die.
          openWatchOf(state)?.close();
          transition = this.#fail(error, { kind: 'Empty' });
        }
        state = transition.next;
        this.#stateKind = state.kind;
        if (transition.event !== undefined) yield transition.event;
      }
    } finally {
      openWatchOf(state)?.close();
      this.#running = false;
      this.#stateKind = 'Stopped';
    }
  }

  /** The watcher's current condition; cheap, synchronous, safe to call at any time. */
  health(): WatcherHealth {
    return {
      state: this.#stateKind,
      resourceVersion: this.#resourceVersion,
      lastEventTime: this.#lastEventTime,
      lastActivityTime: this.#lastActivityTime,
      consecutiveFailures: this.#backoff.failures(this.#clock.now()),
      lastError: this.#lastError,
    };
  }

  /**
   * The one transition function: performs the work of `state` and returns the next state (and maybe an event). Not
   * itself `async`: it hands back the state's own promise, which saves a promise and its ticks per watch event.
   */
  #step(state: State<T>, signal: AbortSignal): Promise<Transition<T>> {
    switch (state.kind) {
      case 'Empty':
        return Promise.resolve({ next: this.#watchList ? this.#initialWatch() : firstPage() });
      case 'InitialWatch':
        return this.#stepInitialWatch(state, signal);
      case 'Listing':
        return this.#stepListing(state, signal);
      case 'Watching':
        return this.#stepWatching(state, signal);
      case 'Backoff':
        return sleep(this.#clock, state.until - this.#clock.now(), signal).then(() => ({ next: state.next }));
    }
  }

  /**
   * A watch-list from the last resourceVersion seen, or from "" (a consistent read) at the start and after a
   * watch-list refused that resourceVersion, as client-go's reflector chooses it.
   */
  #initialWatch(): State<T> {
    const resourceVersion = this.#watchListFromScratch ? '' : (this.#resourceVersion ?? '');
    return { kind: 'InitialWatch', resourceVersion, watch: undefined, initial: new InitialEvents<T>() };
  }

  async #stepInitialWatch(state: State<T> & { kind: 'InitialWatch' }, signal: AbortSignal): Promise<Transition<T>> {
    let watch: OpenWatch<T>;
    try {
      watch = state.watch ?? this.#openWatch({ resourceVersion: state.resourceVersion, sendInitialEvents: true }, signal);
    } catch (error) {
      return this.#initialWatchFailed(error, state);
    }
    let result: IteratorResult<WatchEvent<T>>;
    try {
      result = await watch.next();
    } catch (error) {
      watch.close();
      if (signal.aborted) throw error;
      const stalled: unknown = watch.signal.reason;
      return this.#initialWatchFailed(stalled instanceof WatchStalledError ? stalled : error, state);
    }
    if (result.done === true) {
      watch.close();
      const failure = this.#isShort(watch) ? new ShortWatchError(this.#clock.now() - watch.startedAt) : new WatchListIncompleteError(watch.events);
      return this.#initialWatchFailed(failure, state);
    }
    watch.events++;
    const event = result.value;
    if (event.type !== 'BOOKMARK') {
      // No clock read per initial event: the transport's onActivity already stamps every chunk.
      state.initial.apply(event.type, event.object);
      return { next: state.watch === watch ? state : { ...state, watch } };
    }
    const now = this.#clock.now();
    this.#lastActivityTime = now;
    if (event.initialEventsEnd !== true) {
      // An apiserver serving the watch-list sends the end bookmark before any other; this one ignored the request.
      watch.close();
      return this.#refuseWatchList(new WatchListUnsupportedError('the apiserver sent a bookmark without k8s.io/initial-events-end: it ignores sendInitialEvents'));
    }
    this.#resourceVersion = event.resourceVersion;
    this.#watchListFromScratch = false;
    this.#lastEventTime = now;
    this.#listedAt = now;
    return {
      next: { kind: 'Watching', resourceVersion: event.resourceVersion, watch },
      event: { type: 'Restarted', objects: state.initial.objects() },
    };
  }

  /**
   * A watch-list that failed before its end bookmark. A resourceVersion refused as expired (410) or too new (the
   * apiserver's cache is behind it) starts over at once from "" (client-go does the same); a refusal of the request
   * (400, 422) makes every later sync list with pages; anything else is backed off and this sync reads the paginated
   * list instead, so a stream that keeps breaking cannot keep the cache from ever syncing.
   */
  #initialWatchFailed(error: unknown, state: State<T> & { kind: 'InitialWatch' }): Transition<T> {
    if (state.resourceVersion !== '' && (isGone(error) || isResourceVersionTooLarge(error))) {
      this.#watchListFromScratch = true;
      this.#lastError = toError(error);
      return { next: { kind: 'Empty' } };
    }
    const status = apiStatusOf(error);
    if (status !== undefined && WATCH_LIST_REFUSED.has(status)) return this.#refuseWatchList(error);
    return this.#fail(error, firstPage());
  }

  /** The server does not serve watch-lists: say so once, and list with pages now and at every later sync. */
  #refuseWatchList(error: unknown): Transition<T> {
    this.#watchList = false;
    this.#lastError = toError(error);
    this.#logger.warn(errorFields(error), 'watch-list refused: the initial state is read with paginated lists from now on');
    return { next: firstPage() };
  }

  async #stepListing(state: State<T> & { kind: 'Listing' }, signal: AbortSignal): Promise<Transition<T>> {
    let page;
    const request = linkedController(signal);
    const timer = this.#clock.setTimeout(() => {
      request.abort(new WatchStalledError('list', this.#listTimeoutMs));
    }, this.#listTimeoutMs);
    try {
      const listed = this.#transport.list({
        limit: this.#pageSize,
        ...(state.continueToken === undefined
          ? this.#consistentRelist
            ? {}
            : { resourceVersion: '0' }
          : { continue: state.continueToken }),
        signal: request.signal,
      });
      page = await untilAborted(listed, request.signal);
    } catch (error) {
      if (signal.aborted) throw error;
      // An expired continue token means the snapshot is gone: start the list over. Anything else retries this page.
      if (isGone(error)) {
        this.#consistentRelist = true;
        return this.#restart(error);
      }
      return this.#fail(error, state);
    } finally {
      this.#clock.clearTimeout(timer);
      request.dispose();
    }
    this.#lastActivityTime = this.#clock.now();
    for (const item of page.items) state.items.push(item);
    if (page.continue !== undefined && page.continue !== '') {
      return { next: { kind: 'Listing', continueToken: page.continue, items: state.items } };
    }
    this.#resourceVersion = page.resourceVersion;
    this.#consistentRelist = false;
    this.#lastEventTime = this.#clock.now();
    this.#listedAt = this.#lastEventTime;
    return {
      next: { kind: 'Watching', resourceVersion: page.resourceVersion, watch: undefined },
      event: { type: 'Restarted', objects: state.items },
    };
  }

  async #stepWatching(state: State<T> & { kind: 'Watching' }, signal: AbortSignal): Promise<Transition<T>> {
    const resume: State<T> = { kind: 'Watching', resourceVersion: state.resourceVersion, watch: undefined };
    let watch: OpenWatch<T>;
    try {
      watch = state.watch ?? this.#openWatch({ resourceVersion: state.resourceVersion, sendInitialEvents: false }, signal);
    } catch (error) {
      return this.#fail(error, resume);
    }
    let result: IteratorResult<WatchEvent<T>>;
    try {
      result = await watch.next();
    } catch (error) {
      watch.close();
      if (signal.aborted) throw error;
      const stalled: unknown = watch.signal.reason;
      if (stalled instanceof WatchStalledError) {
        // A dead connection, not a server complaint: reconnect now, from where we were.
        this.#lastError = stalled;
        return { next: resume };
      }
      if (isGone(error)) {
        // The list we just made is already too old: relisting at once could loop hot, so back off first.
        const hot = this.#listedAt !== undefined && this.#clock.now() - this.#listedAt < this.#minWatchDurationMs;
        return hot ? this.#fail(error, { kind: 'Empty' }) : this.#restart(error);
      }
      return this.#fail(error, resume);
    }
    const now = this.#clock.now();
    if (result.done === true) {
      watch.close();
      if (this.#isShort(watch)) return this.#fail(new ShortWatchError(now - watch.startedAt), resume);
      return { next: resume };
    }
    watch.events++;
    this.#lastEventTime = now;
    this.#lastActivityTime = now;
    const event = result.value;
    const resourceVersion =
      event.type === 'BOOKMARK' ? event.resourceVersion : (event.object.metadata?.resourceVersion ?? state.resourceVersion);
    this.#resourceVersion = resourceVersion;
    const next: State<T> = { kind: 'Watching', resourceVersion, watch };
    if (event.type === 'BOOKMARK') return { next };
    return { next, event: { type: EVENT_TYPES[event.type], object: event.object } };
  }

  /** Opens a watch (or a watch-list) from `resourceVersion`, with the stalled-watch timer armed. */
  #openWatch(from: { readonly resourceVersion: string; readonly sendInitialEvents: boolean }, signal: AbortSignal): OpenWatch<T> {
    const clock = this.#clock;
    const controller = linkedController(signal);
    const span = this.#maxTimeoutSeconds - this.#minTimeoutSeconds + 1;
    const timeoutSeconds = this.#minTimeoutSeconds + Math.floor(this.#random() * span);
    const startedAt = clock.now();
    const deadlineMs = timeoutSeconds * 1000 + this.#deadlineMarginMs;
    const inactivityMs = this.#inactivityTimeoutMs;
    let lastActivity = startedAt;
    let timer: TimerHandle | undefined;
    // One timer per watch, re-armed lazily from the last activity time, rather than one timer reset per chunk.
    const check = (): void => {
      timer = undefined;
      const now = clock.now();
      if (now - startedAt >= deadlineMs) {
        controller.abort(new WatchStalledError('deadline', deadlineMs));
      } else if (now - lastActivity >= inactivityMs) {
        controller.abort(new WatchStalledError('inactivity', inactivityMs));
      } else {
        timer = clock.setTimeout(check, Math.min(lastActivity + inactivityMs, startedAt + deadlineMs) - now);
      }
    };
    timer = clock.setTimeout(check, Math.min(inactivityMs, deadlineMs));
    let iterator: AsyncIterator<WatchEvent<T>>;
    try {
      iterator = this.#transport.watch({
        resourceVersion: from.resourceVersion,
        ...(from.sendInitialEvents && { sendInitialEvents: true }),
        timeoutSeconds,
        allowWatchBookmarks: true,
        signal: controller.signal,
        onActivity: () => {
          lastActivity = clock.now();
          this.#lastActivityTime = lastActivity;
        },
      })[Symbol.asyncIterator]();
    } catch (error) {
      clock.clearTimeout(timer);
      controller.dispose();
      throw error;
    }
    // One abort listener per watch, not one per event (a watch-list delivers thousands in a burst): it rejects the
    // event awaited at the time.
    let rejectPending: ((reason: Error) => void) | undefined;
    controller.signal.addEventListener(
      'abort',
      () => {
        rejectPending?.(toError(controller.signal.reason));
      },
      { once: true },
    );
    let closed = false;
    return {
      next: () => {
        if (controller.signal.aborted) return Promise.reject(toError(controller.signal.reason));
        const pending = iterator.next();
        return new Promise((resolve, reject) => {
          rejectPending = reject;
          pending.then(resolve, (error: unknown) => {
            reject(toError(error));
          });
        });
      },
      signal: controller.signal,
      startedAt,
      events: 0,
      close: () => {
        if (closed) return;
        closed = true;
        if (timer !== undefined) clock.clearTimeout(timer);
        controller.dispose();
        if (!controller.signal.aborted) controller.abort(new Error('watch closed'));
        closeIterator(iterator);
      },
    };
  }

  #isShort(watch: OpenWatch<T>): boolean {
    return watch.events === 0 && this.#clock.now() - watch.startedAt < this.#minWatchDurationMs;
  }

  /**
   * 410 Gone: the resourceVersion is too old; relist at once (not a failure, it is how etcd compaction shows).
   * A paginated relist is a consistent read, since a cache that just answered 410 may be behind; a watch-list
   * starts from the last resourceVersion seen (see #watchListFromScratch).
   */
  #restart(error: unknown): Transition<T> {
    this.#consistentRelist = true;
    this.#lastError = toError(error);
    return { next: { kind: 'Empty' } };
  }

  /** A failure: record it and wait (exponential backoff with jitter) before `next`. */
  #fail(error: unknown, next: State<T>): Transition<T> {
    const now = this.#clock.now();
    this.#lastError = toError(error);
    return { next: { kind: 'Backoff', until: now + this.#backoff.fail(now), next } };
  }
}

/** A fresh first-page state of a paginated list. */
function firstPage<T extends KubernetesObject>(): State<T> {
  return { kind: 'Listing', continueToken: undefined, items: [] };
}

/** The stream a state holds open, if any (to close when the run ends). */
function openWatchOf<T extends KubernetesObject>(state: State<T>): OpenWatch<T> | undefined {
  return state.kind === 'Watching' || state.kind === 'InitialWatch' ? state.watch : undefined;
}

/** An AbortController that also aborts (with the same reason) when `parent` does; `dispose()` unlinks it. */
function linkedController(parent: AbortSignal): AbortController & { dispose(): void } {
  const controller = new AbortController();
  const onAbort = (): void => {
    controller.abort(parent.reason);
  };
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return Object.assign(controller, {
    dispose: () => {
      parent.removeEventListener('abort', onAbort);
    },
  });
}

/** `promise`, but rejecting with the abort reason as soon as `signal` aborts, even if the transport ignores it. */
function untilAborted<R>(promise: Promise<R>, signal: AbortSignal): Promise<R> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(toError(signal.reason));
  }
  return new Promise<R>((resolve, reject) => {
    const onAbort = (): void => {
      reject(toError(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(toError(error));
      },
    );
  });
}

/** Lets the transport release the stream; never waits for it and never throws. */
function closeIterator(iterator: AsyncIterator<unknown>): void {
  try {
    iterator.return?.().catch(() => undefined);
  } catch {
    // A transport whose return() throws synchronously has nothing left to release.
  }
}

/** Reads `signal.aborted` afresh (a call, so flow analysis does not assume it is unchanged across awaits). */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
