import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { flushMicrotasks, VirtualClock } from '../core/clock.ts';
import { KubeApiError } from '../core/errors.ts';
import type { EventInput, EventSeries, EventSink, KubeEvent } from './events.ts';
import { EventRecorder, MAX_EVENT_NOTE_BYTES, microTime, truncateUtf8 } from './events.ts';
import type { LogFields, Logger } from '../core/logger.ts';
import { apiErrorFrom } from '../client/rest.ts';
import { WritePriority } from './write-priority.ts';

/** A fake of our own EventSink: records calls; failures are scripted per call kind. */
class FakeSink implements EventSink {
  readonly created: KubeEvent[] = [];
  readonly patches: { namespace: string; name: string; series: EventSeries }[] = [];
  createError: Error | undefined;
  patchError: Error | undefined;
  /** When set, creates wait for this promise. */
  gate: Promise<void> | undefined;
  /** Creates in flight now, and the most seen at once. */
  inFlight = 0;
  maxInFlight = 0;

  async create(event: KubeEvent): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await this.#create(event);
    } finally {
      this.inFlight--;
    }
  }

  async #create(event: KubeEvent): Promise<void> {
    if (this.gate) await this.gate;
    if (this.createError) throw this.createError;
    this.created.push(structuredClone(event));
  }
  patchSeries(namespace: string, name: string, series: EventSeries): Promise<void> {
    if (this.patchError) return Promise.reject(this.patchError);
    this.patches.push({ namespace, name, series });
    return Promise.resolve();
  }
}

class CapturingLogger implements Logger {
  readonly lines: { level: string; fields: LogFields; message: string }[] = [];
  debug(fields: LogFields, message: string): void {
    this.lines.push({ level: 'debug', fields, message });
  }
  info(fields: LogFields, message: string): void {
    this.lines.push({ level: 'info', fields, message });
  }
  warn(fields: LogFields, message: string): void {
    this.lines.push({ level: 'warn', fields, message });
  }
  error(fields: LogFields, message: string): void {
    this.lines.push({ level: 'error', fields, message });
  }
  child(): Logger {
    return this;
  }
}

const EPOCH = Date.parse('2026-11-30T10:00:00Z');

function setup(options: { burst?: number; maxConcurrentCreates?: number; maxQueuedCreates?: number } = {}) {
  const clock = new VirtualClock();
  const sink = new FakeSink();
  const log = new CapturingLogger();
  const recorder = new EventRecorder(
    { sink, clock, now: () => new Date(EPOCH + clock.now()), log },
    { reportingController: 'kafka.domain-operators.io/topic-controller', reportingInstance: 'pod-0', ...options },
  );
  return { clock, sink, log, recorder };
}

function widget(name = 'w1', uid = `uid-${name}`): KubernetesObject {
  return { apiVersion: 'test.domain-operators.io/v1', kind: 'Widget', metadata: { namespace: 'ns', name, uid, resourceVersion: '7' } };
}

const failed: EventInput = { type: 'Warning', reason: 'ApplyFailed', action: 'CreateTopic', note: 'broker unreachable' };

describe('EventRecorder', () => {
  it('creates one events.k8s.io/v1 Event for the first occurrence', async () => {
    const { sink, recorder } = setup();
    recorder.record(widget(), failed);
    await flushMicrotasks();
    expect(sink.created).toEqual([
      {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { namespace: 'ns', name: expect.stringMatching(/^w1\.[0-9a-f]+$/) as unknown },
        eventTime: '2026-11-30T10:00:00.000000Z',
        reportingController: 'kafka.domain-operators.io/topic-controller',
        reportingInstance: 'pod-0',
        type: 'Warning',
        reason: 'ApplyFailed',
        action: 'CreateTopic',
        note: 'broker unreachable',
        regarding: { apiVersion: 'test.domain-operators.io/v1', kind: 'Widget', namespace: 'ns', name: 'w1', uid: 'uid-w1', resourceVersion: '7' },
      },
    ]);
  });

  it('aggregates repeats into the series with at most one patch per interval, and flushes on shutdown', async () => {
    const { clock, sink, recorder } = setup();
    for (let i = 0; i < 10; i++) {
      recorder.record(widget(), failed);
      await clock.advance(1_000);
    }
    // 10 occurrences over 10 s: one create, and the first flush is due 30 s after the first repeat.
    expect(sink.created).toHaveLength(1);
    expect(sink.patches).toHaveLength(0);
    await clock.advance(21_000);
    expect(sink.patches).toEqual([{ namespace: 'ns', name: sink.created[0]?.metadata?.name, series: { count: 10, lastObservedTime: '2026-11-30T10:00:09.000000Z' } }]);
    for (let i = 0; i < 100; i++) {
      recorder.record(widget(), failed);
      await clock.advance(100);
    }
    expect(sink.patches).toHaveLength(1);
    await clock.advance(30_000);
    expect(sink.patches).toHaveLength(2);
    recorder.record(widget(), failed);
    await recorder.shutdown();
    expect(sink.patches.map((p) => p.series.count)).toEqual([10, 110, 111]);
    expect(sink.created).toHaveLength(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('keeps different notes, reasons and objects apart, and starts a new Event after 6 quiet minutes', async () => {
    const { clock, sink, recorder } = setup();
    recorder.record(widget(), failed);
    recorder.record(widget(), { ...failed, note: 'other' });
    recorder.record(widget('w2'), failed);
    recorder.record(widget(), { ...failed, type: 'Normal' });
    await flushMicrotasks();
    expect(sink.created).toHaveLength(4);
    await clock.advance(6 * 60_000 + 1);
    recorder.record(widget(), failed);
    await recorder.shutdown();
    expect(sink.created).toHaveLength(5);
    expect(sink.patches).toHaveLength(0);
  });

  it('rate-limits Events created per object: burst 25, then one per 5 minutes; dropped ones are counted', async () => {
    const { clock, sink, log, recorder } = setup();
    for (let i = 0; i < 40; i++) recorder.record(widget(), { ...failed, note: `attempt ${i}` });
    recorder.record(widget('other'), failed);
    await flushMicrotasks();
    expect(sink.created).toHaveLength(26);
    expect(recorder.dropped).toBe(15);
    expect(log.lines.filter((l) => l.level === 'debug' && l.message.includes('rate limited'))).toHaveLength(15);
    await clock.advance(5 * 60_000);
    recorder.record(widget(), { ...failed, note: 'later' });
    recorder.record(widget(), { ...failed, note: 'later still' });
    await flushMicrotasks();
    expect(sink.created).toHaveLength(27);
    expect(recorder.dropped).toBe(16);
  });

  it('does not spend tokens on repeats of a series', async () => {
    const { sink, recorder } = setup({ burst: 1 });
    for (let i = 0; i < 50; i++) recorder.record(widget(), failed);
    await recorder.shutdown();
    expect(recorder.dropped).toBe(0);
    expect(sink.patches.at(-1)?.series.count).toBe(50);
  });

  it('cuts notes to 1 KB of UTF-8 without splitting characters', async () => {
    const { sink, recorder } = setup();
    recorder.record(widget(), { ...failed, note: 'ü'.repeat(2000) });
    await flushMicrotasks();
    const note = sink.created[0]?.note ?? '';
    expect(Buffer.byteLength(note, 'utf8')).toBeLessThanOrEqual(MAX_EVENT_NOTE_BYTES);
    expect(note.endsWith('ü…')).toBe(true);
    expect(truncateUtf8('short', 10)).toBe('short');
    expect(microTime(new Date(EPOCH + 1))).toBe('2026-11-30T10:00:00.001000Z');
  });

  it('drops an Event whose namespace is being deleted with a debug line, not a warning', async () => {
    const { sink, log, recorder } = setup();
    sink.createError = apiErrorFrom(
      403,
      JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'unable to create new content in namespace ns because it is being terminated', details: { causes: [{ type: 'NamespaceTerminating', message: 'namespace ns is being terminated' }] } }),
      'POST events',
    );
    recorder.record(widget(), failed);
    await flushMicrotasks();
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);
    expect(log.lines.some((l) => l.level === 'debug' && l.message === 'event dropped: its namespace is being deleted')).toBe(true);
    // A plain 403 (RBAC) is still a warning.
    sink.createError = apiErrorFrom(403, JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'cannot create resource "events"' }), 'POST events');
    recorder.record(widget('w2'), failed);
    await flushMicrotasks();
    expect(log.lines.some((l) => l.level === 'warn' && l.message === 'could not create event')).toBe(true);
  });

  it('never throws: sink failures, invalid input and a closed recorder are logged', async () => {
    const { sink, log, recorder } = setup();
    sink.createError = new Error('apiserver down');
    expect(() => {
      recorder.record(widget(), failed);
    }).not.toThrow();
    await flushMicrotasks();
    expect(log.lines.some((l) => l.level === 'warn' && l.message === 'could not create event')).toBe(true);
    // The failed create left no series behind: the next occurrence tries to create again.
    sink.createError = undefined;
    recorder.record(widget(), failed);
    recorder.record(widget(), { ...failed, reason: 'not camel case' });
    recorder.record({ metadata: {} }, failed);
    await recorder.shutdown();
    recorder.record(widget(), failed);
    expect(sink.created).toHaveLength(1);
    expect(recorder.dropped).toBe(3);
    expect(log.lines.filter((l) => l.level === 'error')).toHaveLength(2);
  });

  it('retries a failed series patch at the next interval and recreates an Event that expired', async () => {
    const { clock, sink, recorder } = setup();
    recorder.record(widget(), failed);
    recorder.record(widget(), failed);
    sink.patchError = new KubeApiError('busy', 500, 'InternalError');
    await clock.advance(30_000);
    expect(sink.patches).toHaveLength(0);
    sink.patchError = undefined;
    await clock.advance(30_000);
    expect(sink.patches.map((p) => p.series.count)).toEqual([2]);
    recorder.record(widget(), failed);
    sink.patchError = new KubeApiError('gone', 404, 'NotFound');
    await clock.advance(30_000);
    expect(sink.created).toHaveLength(2);
    expect(sink.created[1]?.series).toEqual({ count: 3, lastObservedTime: '2026-11-30T10:01:00.000000Z' });
    expect(sink.created[1]?.metadata?.name).not.toBe(sink.created[0]?.metadata?.name);
    await recorder.shutdown();
  });

  it('sends creates one at a time from a bounded queue, in order, and folds what finds the queue full into one summary per burst', async () => {
    const { sink, recorder } = setup({ maxQueuedCreates: 2 });
    let open = (): void => undefined;
    sink.gate = new Promise((resolve) => {
      open = resolve;
    });
    const created: EventInput = { type: 'Normal', reason: 'Created', action: 'CreateTopic', note: 'created topic' };
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) recorder.record(widget(name), created);
    recorder.record(widget('x'), failed);
    await flushMicrotasks();
    // One in flight (a), two queued (b, c); d to i fold into one summary, x into another (another reason).
    expect(sink.inFlight).toBe(1);
    expect(recorder.folded).toBe(7);
    expect(recorder.dropped).toBe(0);
    open();
    await recorder.shutdown();
    expect(sink.created.map((e) => e.regarding.name)).toEqual(['a', 'b', 'c', 'd', 'x']);
    expect(sink.maxInFlight).toBe(1);
    const [summary, single] = sink.created.slice(3);
    expect(summary).toMatchObject({ reason: 'Created', action: 'CreateTopic', type: 'Normal', series: { count: 6 } });
    expect(summary?.note).toBe('6 Widget Events (Created) of one burst in ns, folded into this one: d, e, f, g, h and 1 more. The first: created topic');
    expect(single?.series).toBeUndefined();
    expect(single?.reason).toBe('ApplyFailed');
  });

  it('sends the burst summary once the queue is half empty, not only at shutdown', async () => {
    const { sink, recorder } = setup({ maxQueuedCreates: 4 });
    const gates: (() => void)[] = [];
    const realCreate = sink.create.bind(sink);
    sink.create = async (event) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      await realCreate(event);
    };
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) recorder.record(widget(name), failed);
    await flushMicrotasks();
    expect(recorder.folded).toBe(2);
    // a, b, c finish: the queue (d, e) is at half, so the summary of f and g joins it.
    for (let i = 0; i < 3; i++) {
      gates.shift()?.();
      await flushMicrotasks();
    }
    expect(sink.created.map((e) => e.regarding.name)).toEqual(['a', 'b', 'c']);
    for (let i = 0; i < 3; i++) {
      gates.shift()?.();
      await flushMicrotasks();
    }
    expect(sink.created.map((e) => e.regarding.name)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(sink.created.at(-1)?.series?.count).toBe(2);
    await recorder.shutdown();
    expect(sink.created).toHaveLength(6);
  });

  it('sends the burst summary before shutdown even when no create may wait in the queue', async () => {
    const { sink, recorder } = setup({ maxQueuedCreates: 0 });
    const gates: (() => void)[] = [];
    const realCreate = sink.create.bind(sink);
    sink.create = async (event) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      await realCreate(event);
    };
    for (const name of ['a', 'b', 'c']) recorder.record(widget(name), failed);
    await flushMicrotasks();
    expect(recorder.folded).toBe(2);
    gates.shift()?.();
    await flushMicrotasks();
    gates.shift()?.();
    await flushMicrotasks();
    expect(sink.created.map((e) => e.regarding.name)).toEqual(['a', 'b']);
    expect(sink.created.at(-1)?.series?.count).toBe(2);
    await recorder.shutdown();
    expect(sink.created).toHaveLength(2);
  });

  it('sends no create while a status write is in flight, nor just after one: Events trail the status writes', async () => {
    const clock = new VirtualClock();
    const sink = new FakeSink();
    const priority = new WritePriority({ clock }, { quietMs: 100 });
    const recorder = new EventRecorder({ sink, clock, priority }, { reportingController: 'kafka.domain-operators.io/topic-controller', reportingInstance: 'pod-0' });
    let finish = (): void => undefined;
    const statusWrite = priority.track(new Promise<void>((resolve) => (finish = resolve)));
    recorder.record(widget('a'), failed);
    recorder.record(widget('b'), failed);
    await clock.advance(1_000);
    expect(sink.created).toEqual([]);
    finish();
    await statusWrite;
    await clock.advance(99);
    expect(sink.created).toEqual([]);
    await clock.advance(1);
    await recorder.shutdown();
    expect(sink.created.map((e) => e.regarding.name)).toEqual(['a', 'b']);
  });

  it('sends up to maxConcurrentCreates at once', async () => {
    const { sink, recorder } = setup({ maxConcurrentCreates: 3 });
    let open = (): void => undefined;
    sink.gate = new Promise((resolve) => {
      open = resolve;
    });
    for (const name of ['a', 'b', 'c', 'd', 'e']) recorder.record(widget(name), failed);
    await flushMicrotasks();
    expect(sink.inFlight).toBe(3);
    open();
    await recorder.shutdown();
    expect(sink.created).toHaveLength(5);
    expect(sink.maxInFlight).toBe(3);
    expect(recorder.dropped).toBe(0);
  });

  it('waits for a slow create before patching its series', async () => {
    const { sink, recorder } = setup();
    let open = (): void => undefined;
    sink.gate = new Promise((resolve) => {
      open = resolve;
    });
    recorder.record(widget(), failed);
    recorder.record(widget(), failed);
    const done = recorder.shutdown();
    await flushMicrotasks();
    expect(sink.created).toHaveLength(0);
    open();
    await done;
    expect(sink.created).toHaveLength(1);
    expect(sink.patches.map((p) => p.series.count)).toEqual([2]);
  });
});
