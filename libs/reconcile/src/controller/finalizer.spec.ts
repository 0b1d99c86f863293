import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { Client } from '../client/client.ts';
import { KubeApiError, TerminalError } from '../core/errors.ts';
import type { EventInput, Recorder } from '../observability/events.ts';
import type { FinalizerHandlers } from './finalizer.ts';
import { forceDeleteAnnotation, releaseFinalizer, withFinalizer } from './finalizer.ts';
import { resourceType } from '../client/resource-type.ts';
import type { RestRequest, RestTransport } from '../client/rest.ts';
import { Result } from '../core/result.ts';

/** Answers each request from a script (echoing the patched object by default); a fake of our RestTransport. */
class ScriptedRest implements RestTransport {
  readonly requests: RestRequest[] = [];
  readonly answers: unknown[] = [];
  json(request: RestRequest): Promise<unknown> {
    this.requests.push(request);
    const answer = this.answers.shift();
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? { metadata: { name: 'patched' } });
  }
  stream(): never {
    throw new Error('not used');
  }
}

class FakeRecorder implements Recorder {
  readonly events: { name: string | undefined; event: EventInput }[] = [];
  record(regarding: KubernetesObject, event: EventInput): void {
    this.events.push({ name: regarding.metadata?.name, event });
  }
}

const FINALIZER = 'kafka.domain-operators.io/topic';
const GROUP = 'kafka.domain-operators.io';
const topics = resourceType({ group: GROUP, version: 'v1alpha1', kind: 'KafkaTopic', plural: 'kafkatopics', namespaced: true });

function topic(options: { finalizers?: string[]; deleting?: boolean; annotations?: Record<string, string> }): KubernetesObject {
  return {
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'KafkaTopic',
    metadata: {
      namespace: 'ns',
      name: 'orders',
      uid: 'u1',
      ...(options.finalizers && { finalizers: options.finalizers }),
      ...(options.annotations && { annotations: options.annotations }),
      ...(options.deleting === true && { deletionTimestamp: '2026-11-30T10:00:00Z' as unknown as Date }),
    },
  };
}

function setup() {
  const rest = new ScriptedRest();
  const recorder = new FakeRecorder();
  const calls: string[] = [];
  const handlers: FinalizerHandlers<KubernetesObject> & { cleanupError?: Error; cleanupResult?: Result } = {
    finalizer: FINALIZER,
    apply: (object) => {
      calls.push(`apply:${object.metadata?.name ?? ''}`);
      return Promise.resolve(Result.requeueAfter(60_000));
    },
    cleanup: () => {
      calls.push('cleanup');
      if (handlers.cleanupError) return Promise.reject(handlers.cleanupError);
      return Promise.resolve(handlers.cleanupResult ?? Result.done());
    },
  };
  const deps = { client: new Client({ rest }), type: topics, recorder, group: GROUP };
  return { rest, recorder, calls, handlers, deps };
}

describe('withFinalizer', () => {
  it('not deleting, finalizer missing: adds it with a test-guarded JSON patch, then applies to the patched object', async () => {
    const { rest, calls, handlers, deps } = setup();
    expect(await withFinalizer(topic({}), handlers, deps)).toEqual(Result.requeueAfter(60_000));
    expect(rest.requests).toHaveLength(1);
    expect(rest.requests[0]).toMatchObject({ method: 'PATCH', contentType: 'application/json-patch+json', path: '/apis/kafka.domain-operators.io/v1alpha1/namespaces/ns/kafkatopics/orders' });
    expect(rest.requests[0]?.body).toEqual([
      { op: 'test', path: '/metadata/finalizers', value: null },
      { op: 'add', path: '/metadata/finalizers', value: [FINALIZER] },
    ]);
    expect(calls).toEqual(['apply:patched']);
  });

  it('appends to other finalizers after testing the whole list', async () => {
    const { rest, handlers, deps } = setup();
    await withFinalizer(topic({ finalizers: ['other/finalizer'] }), handlers, deps);
    expect(rest.requests[0]?.body).toEqual([
      { op: 'test', path: '/metadata/finalizers', value: ['other/finalizer'] },
      { op: 'add', path: '/metadata/finalizers/-', value: FINALIZER },
    ]);
  });

  it('does not apply when adding the finalizer fails (a concurrent change fails the test)', async () => {
    const { rest, calls, handlers, deps } = setup();
    rest.answers.push(new KubeApiError('test failed', 422, 'Invalid'));
    await expect(withFinalizer(topic({}), handlers, deps)).rejects.toMatchObject({ status: 422 });
    expect(calls).toEqual([]);
  });

  it('not deleting, finalizer present: applies without any request', async () => {
    const { rest, calls, handlers, deps } = setup();
    await withFinalizer(topic({ finalizers: [FINALIZER] }), handlers, deps);
    expect(rest.requests).toEqual([]);
    expect(calls).toEqual(['apply:orders']);
  });

  it('deleting, finalizer present: cleans up, then removes the finalizer by index after testing its value', async () => {
    const { rest, calls, handlers, deps } = setup();
    expect(await withFinalizer(topic({ deleting: true, finalizers: ['a/b', FINALIZER] }), handlers, deps)).toEqual(Result.done());
    expect(calls).toEqual(['cleanup']);
    expect(rest.requests[0]?.body).toEqual([
      { op: 'test', path: '/metadata/finalizers/1', value: FINALIZER },
      { op: 'remove', path: '/metadata/finalizers/1' },
    ]);
  });

  it('treats a 404 on removal as done', async () => {
    const { rest, handlers, deps } = setup();
    rest.answers.push(new KubeApiError('gone', 404, 'NotFound'));
    await expect(withFinalizer(topic({ deleting: true, finalizers: [FINALIZER] }), handlers, deps)).resolves.toEqual(Result.done());
  });

  it('keeps the finalizer while cleanup reports progress with requeueAfter', async () => {
    const { rest, handlers, deps } = setup();
    handlers.cleanupResult = Result.requeueAfter(5_000);
    expect(await withFinalizer(topic({ deleting: true, finalizers: [FINALIZER] }), handlers, deps)).toEqual(Result.requeueAfter(5_000));
    expect(rest.requests).toEqual([]);
  });

  it('cleanup throws: keeps the finalizer, records a Warning CleanupFailed, and rethrows the same error', async () => {
    const { rest, recorder, handlers, deps } = setup();
    const error = new TerminalError('cluster unreachable', 'ClusterGone');
    handlers.cleanupError = error;
    await expect(withFinalizer(topic({ deleting: true, finalizers: [FINALIZER] }), handlers, deps)).rejects.toBe(error);
    expect(rest.requests).toEqual([]);
    expect(recorder.events).toEqual([{ name: 'orders', event: expect.objectContaining({ type: 'Warning', reason: 'CleanupFailed', note: expect.stringContaining('cluster unreachable') as unknown }) as unknown }]);
  });

  it('force-delete annotation on a deleting object: removes the finalizer without cleanup and records ForceDeleted', async () => {
    const { rest, recorder, calls, handlers, deps } = setup();
    const object = topic({ deleting: true, finalizers: [FINALIZER], annotations: { [forceDeleteAnnotation(GROUP)]: 'true' } });
    expect(await withFinalizer(object, handlers, deps)).toEqual(Result.done());
    expect(calls).toEqual([]);
    expect(rest.requests[0]?.body).toEqual([
      { op: 'test', path: '/metadata/finalizers/0', value: FINALIZER },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
    expect(recorder.events.map((e) => [e.event.type, e.event.reason])).toEqual([['Warning', 'ForceDeleted']]);
  });

  it('force-delete annotation on an object not being deleted changes nothing', async () => {
    const { rest, calls, handlers, deps } = setup();
    await withFinalizer(topic({ finalizers: [FINALIZER], annotations: { [forceDeleteAnnotation(GROUP)]: 'true' } }), handlers, deps);
    expect(rest.requests).toEqual([]);
    expect(calls).toEqual(['apply:orders']);
  });

  it('deleting, finalizer missing: does nothing', async () => {
    const { rest, calls, recorder, handlers, deps } = setup();
    expect(await withFinalizer(topic({ deleting: true, finalizers: ['other/x'] }), handlers, deps)).toEqual(Result.done());
    expect(rest.requests).toEqual([]);
    expect(calls).toEqual([]);
    expect(recorder.events).toEqual([]);
  });
});

describe('releaseFinalizer', () => {
  it('removes the finalizer by index after testing its value, and returns the patched object', async () => {
    const { rest, deps } = setup();
    const released = await releaseFinalizer(topic({ finalizers: ['a/b', FINALIZER] }), FINALIZER, deps);
    expect(released.metadata?.name).toBe('patched');
    expect(rest.requests[0]).toMatchObject({ method: 'PATCH', contentType: 'application/json-patch+json' });
    expect(rest.requests[0]?.body).toEqual([
      { op: 'test', path: '/metadata/finalizers/1', value: FINALIZER },
      { op: 'remove', path: '/metadata/finalizers/1' },
    ]);
  });

  it('makes no request and returns the same object when the finalizer is absent', async () => {
    const { rest, deps } = setup();
    const object = topic({ finalizers: ['a/b'] });
    expect(await releaseFinalizer(object, FINALIZER, deps)).toBe(object);
    expect(rest.requests).toEqual([]);
  });

  it('rejects when the guarded patch fails (a stale cached list)', async () => {
    const { rest, deps } = setup();
    rest.answers.push(new KubeApiError('test failed', 422, 'Invalid'));
    await expect(releaseFinalizer(topic({ finalizers: [FINALIZER] }), FINALIZER, deps)).rejects.toMatchObject({ status: 422 });
  });
});
