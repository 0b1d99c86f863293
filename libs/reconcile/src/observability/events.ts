import type { KubernetesObject } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import type { Clock, TimerHandle } from '../core/clock.ts';
import { systemClock } from '../core/clock.ts';
import { isReasonValue } from '../core/conditions.ts';
import { isNamespaceTerminating, isNotFound } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { errorFields, silentLogger } from '../core/logger.ts';
import { resourceType } from '../client/resource-type.ts';
import type { WritePriority } from './write-priority.ts';

/** A reference to the object an Event is about (`events.k8s.io/v1` `regarding`). */
export interface EventObjectReference {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** The `series` of an aggregated Event: how often it happened and when last. Times are MicroTime strings. */
export interface EventSeries {
  readonly count: number;
  readonly lastObservedTime: string;
}

/** An `events.k8s.io/v1` Event as this package writes and reads it (times as RFC 3339 MicroTime strings). */
export interface KubeEvent extends KubernetesObject {
  eventTime: string;
  reportingController: string;
  reportingInstance: string;
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note?: string;
  regarding: EventObjectReference;
  series?: EventSeries;
}

/** The `events.k8s.io/v1` Event kind. */
export const eventType = resourceType<KubeEvent>({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true });

/**
 * Where an {@link EventRecorder} writes: create an Event, patch its series. Implementations reject on failure
 * (`patchSeries` with a 404 `KubeApiError` when the Event no longer exists, e.g. after its TTL).
 */
export interface EventSink {
  create(event: KubeEvent): Promise<void>;
  patchSeries(namespace: string, name: string, series: EventSeries): Promise<void>;
}

/** An {@link EventSink} over our {@link Client}: POST, and a merge patch of `series`. */
export function clientEventSink(client: Client): EventSink {
  return {
    async create(event) {
      await client.create(eventType, event);
    },
    async patchSeries(namespace, name, series) {
      await client.patch(eventType, { namespace, name }, { type: 'merge', body: { series } });
    },
  };
}

/** What happened, as a reconciler states it. */
export interface EventInput {
  /** `Warning` for something a human may need to act on; `Normal` otherwise. */
  readonly type: 'Normal' | 'Warning';
  /** CamelCase, why it happened, e.g. `CleanupFailed`. */
  readonly reason: string;
  /** CamelCase, what the controller did or failed to do, e.g. `DeleteTopic`. */
  readonly action: string;
  /** Human-readable detail; cut to 1 KB (UTF-8). Never contains secrets. */
  readonly note: string;
}

/**
 * Records Events about objects. `record` must never block, throw or fail the caller: recording is best effort.
 * Reconcilers and helpers depend on this interface; {@link EventRecorder} implements it.
 */
export interface Recorder {
  record(regarding: KubernetesObject, event: EventInput): void;
}

/** Dependencies of an {@link EventRecorder}. */
export interface EventRecorderDeps {
  readonly sink: EventSink;
  /** Measures intervals and runs the flush timer; default the system clock. */
  readonly clock?: Clock;
  /** Wall-clock time for `eventTime` and `lastObservedTime`; default `new Date()`. */
  readonly now?: () => Date;
  readonly log?: Logger;
  /**
   * Writes that go before Events: each create waits for `quiet()` (a {@link WritePriority} shared with the status
   * writers), so in a burst Events trail the status writes instead of competing with them. Default: none.
   */
  readonly priority?: Pick<WritePriority, 'quiet'>;
}

/** Options of an {@link EventRecorder}; the defaults are client-go's events library and spam filter. */
export interface EventRecorderOptions {
  /** `reportingController`, a qualified name such as `kafka.domain-operators.io/topic-controller`. */
  readonly reportingController: string;
  /** `reportingInstance`, e.g. the pod name (at most 128 characters). */
  readonly reportingInstance: string;
  /** A repeat within this time of the last occurrence joins the series; default 6 min. */
  readonly seriesWindowMs?: number;
  /** At most one series patch per Event per this interval; default 30 s. */
  readonly flushIntervalMs?: number;
  /** Events that create an Event object, per regarding object: bucket size; default 25. */
  readonly burst?: number;
  /** … and one more token per this interval; default 5 min. */
  readonly refillIntervalMs?: number;
  /** Event creates sent at the same time; default 1, as client-go's broadcaster sends one at a time. */
  readonly maxConcurrentCreates?: number;
  /** Creates waiting to be sent at most; beyond, new Events are dropped; default 1000, as client-go's queue. */
  readonly maxQueuedCreates?: number;
}

/** The apiserver's limit for `note`, in bytes. */
export const MAX_EVENT_NOTE_BYTES = 1024;

interface SeriesState {
  readonly key: string;
  event: KubeEvent;
  count: number;
  /** The count the server has (1 after the create). */
  written: number;
  lastObservedMs: number;
  lastObservedTime: string;
  /** Settles true once the Event exists on the server, false if creating it failed. */
  created: Promise<boolean>;
  patching: boolean;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/** Events that found the create queue full, folded by (namespace, kind, type, reason, action) until there is room. */
interface Folded {
  readonly regarding: EventObjectReference;
  readonly input: EventInput;
  count: number;
  /** The first few regarding names, for the summary's note. */
  readonly names: string[];
  lastObservedTime: string;
}

/** How many names a burst summary lists before "and N more". */
const FOLDED_NAMES_SHOWN = 5;

/**
 * Writes `events.k8s.io/v1` Events with client-go's aggregation: the first occurrence of (regarding object, type,
 * reason, action, note) creates an Event; repeats within `seriesWindowMs` of the previous one only count, and the
 * series `{count, lastObservedTime}` is patched at most once per `flushIntervalMs` per Event, and on
 * {@link EventRecorder.shutdown}. A token bucket per regarding object (burst 25, one token per 5 min, as
 * client-go's spam filter) limits the Events created, so a hot loop with changing notes cannot flood the
 * apiserver; repeats of a series take no token, since their writes are already bounded by the flush interval.
 * Creates are sent one at a time (`maxConcurrentCreates`) from a queue of at most 1000 (`maxQueuedCreates`), like
 * client-go's broadcaster: in a burst (1,000 new resources at once) Events trail the reconcilers' status writes
 * instead of competing with them for the apiserver; with `deps.priority` each create also waits until no status
 * write is in flight (and none ended just now), so they follow the burst. Where client-go drops what finds its queue
 * full, this recorder folds it: the Events of one burst with the same namespace, kind, type, reason and action
 * become one summary Event (about the first of them, with `series.count` the number folded and a note naming the
 * first few), sent once the queue is half empty or on shutdown ({@link EventRecorder.folded} counts them). So a
 * burst of 5,600 creations costs at most 1,000 + a few Event writes and still tells how many happened.
 * Dropped events (rate limit, invalid input, after shutdown) are counted ({@link EventRecorder.dropped}) and
 * logged at debug. `record` never blocks and never
 * throws: writes happen in the background and failures are logged. No work starts in the constructor.
 */
export class EventRecorder implements Recorder {
  readonly #sink: EventSink;
  readonly #clock: Clock;
  readonly #now: () => Date;
  readonly #log: Logger;
  readonly #priority: Pick<WritePriority, 'quiet'> | undefined;
  readonly #controller: string;
  readonly #instance: string;
  readonly #windowMs: number;
  readonly #flushMs: number;
  readonly #burst: number;
  readonly #refillMs: number;
  readonly #series = new Map<string, SeriesState>();
  readonly #dirty = new Set<SeriesState>();
  readonly #buckets = new Map<string, Bucket>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #maxConcurrentCreates: number;
  readonly #maxQueuedCreates: number;
  /** Creates waiting for a slot, oldest first. */
  readonly #createQueue: (() => void)[] = [];
  readonly #foldedByKey = new Map<string, Folded>();
  #foldedCount = 0;
  #creating = 0;
  #timer: TimerHandle | undefined;
  #lastSweepMs = 0;
  #sequence = 0;
  #dropped = 0;
  #closed = false;

  constructor(deps: EventRecorderDeps, options: EventRecorderOptions) {
    this.#sink = deps.sink;
    this.#clock = deps.clock ?? systemClock;
    this.#now = deps.now ?? (() => new Date());
    this.#log = deps.log ?? silentLogger;
    this.#priority = deps.priority;
    this.#controller = options.reportingController;
    this.#instance = options.reportingInstance;
    this.#windowMs = options.seriesWindowMs ?? 6 * 60_000;
    this.#flushMs = options.flushIntervalMs ?? 30_000;
    this.#burst = options.burst ?? 25;
    this.#refillMs = options.refillIntervalMs ?? 5 * 60_000;
    this.#maxConcurrentCreates = Math.max(1, options.maxConcurrentCreates ?? 1);
    this.#maxQueuedCreates = Math.max(0, options.maxQueuedCreates ?? 1000);
  }

  /** How many events were dropped (rate limit, invalid input, after shutdown) since construction. */
  get dropped(): number {
    return this.#dropped;
  }

  /** How many Events found the create queue full and were folded into a burst summary since construction. */
  get folded(): number {
    return this.#foldedCount;
  }

  /**
   * Records that `event` happened to `regarding` (an object read from the apiserver, with name and, ideally,
   * uid). Returns at once; never throws. Invalid input (reason or action not CamelCase) is dropped and logged.
   */
  record(regarding: KubernetesObject, event: EventInput): void {
    try {
      this.#record(regarding, event);
    } catch (err) {
      this.#dropped++;
      this.#log.error({ ...errorFields(err), reason: event.reason }, 'event recorder failed');
    }
  }

  /**
   * Stops recording (later calls are dropped), waits for creates in flight and writes every pending series
   * count. Resolves when done; never rejects.
   */
  async shutdown(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#settle();
    this.#sendFolded(Number.POSITIVE_INFINITY);
    await this.#settle();
    await this.#flush();
    await this.#settle();
  }

  #record(regarding: KubernetesObject, event: EventInput): void {
    const meta = regarding.metadata;
    if (this.#closed) {
      this.#drop('recorder is shut down', event);
      return;
    }
    const type: string = event.type; // checked at run time too: callers may be untyped
    if (type !== 'Normal' && type !== 'Warning') {
      this.#invalid('type must be Normal or Warning', event);
      return;
    }
    if (!isReasonValue(event.reason) || event.reason.length > 128) {
      this.#invalid('reason must be CamelCase', event);
      return;
    }
    if (!isReasonValue(event.action) || event.action.length > 128) {
      this.#invalid('action must be CamelCase', event);
      return;
    }
    if (meta?.name === undefined || meta.name === '') {
      this.#invalid('regarding object has no name', event);
      return;
    }
    const nowMs = this.#clock.now();
    this.#sweep(nowMs);
    const note = truncateUtf8(event.note, MAX_EVENT_NOTE_BYTES);
    const objectKey = meta.uid ?? `${regarding.kind ?? ''}/${meta.namespace ?? ''}/${meta.name}`;
    const key = JSON.stringify([objectKey, event.type, event.reason, event.action, note]);
    const existing = this.#series.get(key);
    if (existing !== undefined && nowMs - existing.lastObservedMs <= this.#windowMs) {
      existing.count++;
      existing.lastObservedMs = nowMs;
      existing.lastObservedTime = microTime(this.#now());
      this.#dirty.add(existing);
      this.#scheduleFlush();
      return;
    }
    if (!this.#takeToken(objectKey, nowMs)) {
      this.#drop('rate limited', event);
      return;
    }
    const reference: EventObjectReference = {
      ...(regarding.apiVersion !== undefined && { apiVersion: regarding.apiVersion }),
      ...(regarding.kind !== undefined && { kind: regarding.kind }),
      ...(meta.namespace !== undefined && { namespace: meta.namespace }),
      name: meta.name,
      ...(meta.uid !== undefined && { uid: meta.uid }),
      ...(meta.resourceVersion !== undefined && { resourceVersion: meta.resourceVersion }),
    };
    if (this.#creating >= this.#maxConcurrentCreates && this.#createQueue.length >= this.#maxQueuedCreates) {
      this.#fold(reference, { ...event, note });
      return;
    }
    const kubeEvent = this.#kubeEvent(reference, { ...event, note }, this.#now());
    const state: SeriesState = { key, event: kubeEvent, count: 1, written: 1, lastObservedMs: nowMs, lastObservedTime: kubeEvent.eventTime, created: Promise.resolve(false), patching: false };
    this.#series.set(key, state);
    state.created = this.#queueCreate(kubeEvent, (sent) => this.#create(state, sent));
    this.#track(state.created.then(() => undefined));
  }

  #kubeEvent(regarding: EventObjectReference, event: EventInput, wall: Date): KubeEvent {
    return {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { namespace: regarding.namespace ?? 'default', name: this.#eventName(regarding.name ?? 'event', wall) },
      eventTime: microTime(wall),
      reportingController: this.#controller,
      reportingInstance: this.#instance,
      type: event.type,
      reason: event.reason,
      action: event.action,
      note: event.note,
      regarding,
    };
  }

  /** Sends `event` through `create` when a slot is free and the status writes are quiet; releases the slot after. */
  #queueCreate(event: KubeEvent, create: (event: KubeEvent) => Promise<boolean>): Promise<boolean> {
    return this.#whenSlotFree()
      .then(() => this.#priority?.quiet())
      .then(() => create(event))
      .finally(() => {
        this.#releaseSlot();
      });
  }

  /** Counts an Event that found the queue full into its burst's summary. */
  #fold(regarding: EventObjectReference, event: EventInput): void {
    this.#foldedCount++;
    const key = JSON.stringify([regarding.namespace ?? '', regarding.kind ?? '', event.type, event.reason, event.action]);
    const lastObservedTime = microTime(this.#now());
    const folded = this.#foldedByKey.get(key);
    if (folded === undefined) {
      this.#foldedByKey.set(key, { regarding, input: event, count: 1, names: [regarding.name ?? ''], lastObservedTime });
    } else {
      folded.count++;
      folded.lastObservedTime = lastObservedTime;
      if (folded.names.length < FOLDED_NAMES_SHOWN) folded.names.push(regarding.name ?? '');
    }
    this.#log.debug({ reason: event.reason, action: event.action, folded: this.#foldedCount }, 'event folded into a burst summary: create queue full');
  }

  /** Queues one summary Event per folded burst while fewer than `limit` creates wait. */
  #sendFolded(limit: number): void {
    for (const [key, folded] of this.#foldedByKey) {
      if (this.#createQueue.length >= limit) return;
      this.#foldedByKey.delete(key);
      const event = this.#kubeEvent(folded.regarding, { ...folded.input, note: burstNote(folded) }, this.#now());
      const summary: KubeEvent = folded.count > 1 ? { ...event, series: { count: folded.count, lastObservedTime: folded.lastObservedTime } } : event;
      this.#track(this.#queueCreate(summary, (sent) => this.#send(sent)).then(() => undefined));
    }
  }

  /** Resolves when a create may be sent (at once while fewer than `maxConcurrentCreates` are), taking the slot. */
  #whenSlotFree(): Promise<void> {
    if (this.#creating < this.#maxConcurrentCreates) {
      this.#creating++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#createQueue.push(() => {
        this.#creating++;
        resolve();
      });
    });
  }

  #releaseSlot(): void {
    this.#creating--;
    this.#createQueue.shift()?.();
    // At least one place: with a queue of 0 or 1 half of it is none, and the summaries would wait for shutdown.
    if (this.#foldedByKey.size > 0 && !this.#closed) this.#sendFolded(Math.max(1, Math.floor(this.#maxQueuedCreates / 2)));
  }

  async #create(state: SeriesState, event: KubeEvent): Promise<boolean> {
    const created = await this.#send(event);
    if (!created) {
      if (this.#series.get(state.key) === state) this.#series.delete(state.key);
      this.#dirty.delete(state);
    }
    return created;
  }

  /** Creates `event`; false (logged) when the apiserver refused it. Never rejects. */
  async #send(event: KubeEvent): Promise<boolean> {
    try {
      await this.#sink.create(event);
      return true;
    } catch (err) {
      // An Event about an object whose namespace is going away cannot be stored, and would go with it anyway.
      if (isNamespaceTerminating(err)) this.#log.debug({ ...eventFields(event) }, 'event dropped: its namespace is being deleted');
      else this.#log.warn({ ...errorFields(err), ...eventFields(event) }, 'could not create event');
      return false;
    }
  }

  #scheduleFlush(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#track(this.#flush());
    }, this.#flushMs);
  }

  /** Writes every pending series count: one patch per Event, or a new Event when the old one is gone. */
  async #flush(): Promise<void> {
    const pending = [...this.#dirty].filter((s) => !s.patching);
    for (const state of pending) this.#dirty.delete(state);
    await Promise.all(pending.map((state) => this.#patch(state)));
    if (this.#dirty.size > 0) this.#scheduleFlush();
  }

  async #patch(state: SeriesState): Promise<void> {
    if (!(await state.created)) return;
    const series: EventSeries = { count: state.count, lastObservedTime: state.lastObservedTime };
    const namespace = state.event.metadata?.namespace ?? 'default';
    const name = state.event.metadata?.name ?? '';
    state.patching = true;
    try {
      await this.#sink.patchSeries(namespace, name, series);
      state.written = Math.max(state.written, series.count);
    } catch (err) {
      if (isNotFound(err)) {
        // The Event expired (TTL) while the series went on: start it again, carrying the count, as client-go does.
        const wall = this.#now();
        const event: KubeEvent = { ...state.event, metadata: { namespace, name: this.#eventName(state.event.regarding.name ?? 'event', wall) }, eventTime: microTime(wall), series };
        state.event = event;
        state.created = this.#create(state, event);
        if (await state.created) state.written = Math.max(state.written, series.count);
      } else {
        this.#log.warn({ ...errorFields(err), ...eventFields(state.event) }, 'could not update event series; will retry');
        this.#dirty.add(state);
      }
    } finally {
      state.patching = false;
    }
    if (state.count > state.written) {
      this.#dirty.add(state);
      this.#scheduleFlush();
    }
  }

  #takeToken(objectKey: string, nowMs: number): boolean {
    const bucket = this.#buckets.get(objectKey) ?? { tokens: this.#burst, atMs: nowMs };
    bucket.tokens = Math.min(this.#burst, bucket.tokens + (nowMs - bucket.atMs) / this.#refillMs);
    bucket.atMs = nowMs;
    this.#buckets.set(objectKey, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Forgets finished series and full buckets, at most once a minute, so memory follows activity. */
  #sweep(nowMs: number): void {
    if (nowMs - this.#lastSweepMs < 60_000) return;
    this.#lastSweepMs = nowMs;
    for (const [key, state] of this.#series) {
      if (nowMs - state.lastObservedMs > this.#windowMs && !this.#dirty.has(state) && !state.patching) this.#series.delete(key);
    }
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (nowMs - bucket.atMs) / this.#refillMs >= this.#burst) this.#buckets.delete(key);
    }
  }

  #eventName(regardingName: string, wall: Date): string {
    // client-go names Events `<regarding>.<hex nanoseconds>`; a sequence number keeps names unique within a millisecond.
    const suffix = (BigInt(wall.getTime()) * 1_000_000n + BigInt(this.#sequence++ % 1_000_000)).toString(16);
    return `${regardingName.slice(0, 253 - suffix.length - 1)}.${suffix}`;
  }

  #drop(why: string, event: EventInput): void {
    this.#dropped++;
    this.#log.debug({ reason: event.reason, action: event.action, dropped: this.#dropped }, `event dropped: ${why}`);
  }

  #invalid(why: string, event: EventInput): void {
    this.#dropped++;
    this.#log.error({ reason: event.reason, action: event.action }, `event dropped: ${why}`);
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((err: unknown) => {
      this.#log.error(errorFields(err), 'event recorder failed');
    });
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }

  async #settle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }
}

/** The note of a burst summary: how many were folded, the first names, and the first one's own note; at most 1 KB. */
function burstNote(folded: Folded): string {
  const more = folded.count - folded.names.length;
  const names = folded.names.join(', ') + (more > 0 ? ` and ${more} more` : '');
  const kind = folded.regarding.kind ?? 'object';
  const where = folded.regarding.namespace !== undefined ? ` in ${folded.regarding.namespace}` : '';
  return truncateUtf8(`${folded.count} ${kind} Events (${folded.input.reason}) of one burst${where}, folded into this one: ${names}. The first: ${folded.input.note}`, MAX_EVENT_NOTE_BYTES);
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character, ending with `…` when cut. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const budget = maxBytes - Buffer.byteLength('…', 'utf8');
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > budget) break;
    bytes += size;
    end += char.length;
  }
  return `${text.slice(0, end)}…`;
}

/** Formats a time as `metav1.MicroTime`: RFC 3339 with exactly six fractional digits, UTC. */
export function microTime(time: Date): string {
  return time.toISOString().replace(/Z$/, '000Z');
}

function eventFields(event: KubeEvent): Record<string, unknown> {
  return { reason: event.reason, regarding: `${event.regarding.kind ?? ''}/${event.regarding.namespace ?? ''}/${event.regarding.name ?? ''}`, event: event.metadata?.name };
}
