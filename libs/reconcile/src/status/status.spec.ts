import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { Client } from '../client/client.ts';
import type { Condition } from '../core/conditions.ts';
import { resourceType } from '../client/resource-type.ts';
import type { RestRequest, RestTransport } from '../client/rest.ts';
import { patchStatusIfChanged, statusChange } from './status.ts';

/** Records requests and answers `{}`; a fake of our own RestTransport interface. */
class RecordingRest implements RestTransport {
  readonly requests: RestRequest[] = [];
  json(request: RestRequest): Promise<unknown> {
    this.requests.push(request);
    return Promise.resolve({});
  }
  stream(): never {
    throw new Error('not used');
  }
}

interface Topic extends KubernetesObject {
  status?: { observedGeneration?: number; conditions?: Condition[]; topicId?: string; partitions?: number[] };
}

const topics = resourceType<Topic>({ group: 'kafka.domain-operators.io', version: 'v1alpha1', kind: 'KafkaTopic', plural: 'kafkatopics', namespaced: true });
const t0 = new Date('2026-11-30T10:00:00Z');
const t1 = new Date('2026-11-30T10:05:00Z');

function topic(status: Topic['status'], generation = 2): Topic {
  return { apiVersion: 'kafka.domain-operators.io/v1alpha1', kind: 'KafkaTopic', metadata: { namespace: 'ns', name: 'orders', generation, resourceVersion: '41' }, ...(status && { status }) };
}

const readyTrue = { type: 'Ready', status: 'True', reason: 'Created', message: 'topic exists' } as const;

describe('patchStatusIfChanged', () => {
  it('sends one merge patch to the status subresource with the changed fields only', async () => {
    const rest = new RecordingRest();
    const wrote = await patchStatusIfChanged(new Client({ rest }), topics, topic(undefined), { conditions: [readyTrue], fields: { topicId: 'abc' } }, { now: t0 });
    expect(wrote).toBe(true);
    expect(rest.requests).toHaveLength(1);
    const [request] = rest.requests;
    expect(request?.method).toBe('PATCH');
    expect(request?.path).toBe('/apis/kafka.domain-operators.io/v1alpha1/namespaces/ns/kafkatopics/orders/status');
    expect(request?.contentType).toBe('application/merge-patch+json');
    expect(request?.body).toEqual({
      status: {
        topicId: 'abc',
        observedGeneration: 2,
        conditions: [{ ...readyTrue, lastTransitionTime: '2026-11-30T10:00:00Z', observedGeneration: 2 }],
      },
    });
  });

  it('sends no request at all at steady state, even with conditions in another order and later time', async () => {
    const rest = new RecordingRest();
    const current = topic({
      topicId: 'abc',
      partitions: [0, 1],
      observedGeneration: 2,
      conditions: [
        { type: 'Synced', status: 'True', reason: 'Applied', message: '', lastTransitionTime: '2026-11-30T09:00:00Z', observedGeneration: 2 },
        { ...readyTrue, lastTransitionTime: '2026-11-30T09:00:00Z', observedGeneration: 2 },
      ],
    });
    const desired = { conditions: [readyTrue, { type: 'Synced', status: 'True', reason: 'Applied', message: '' }] as const, fields: { topicId: 'abc', partitions: [0, 1] } };
    for (let i = 0; i < 3; i++) expect(await patchStatusIfChanged(new Client({ rest }), topics, current, desired, { now: t1 })).toBe(false);
    expect(rest.requests).toEqual([]);
  });

  it('writes when only observedGeneration moved, keeping untouched fields and lastTransitionTime', () => {
    const current = topic({ observedGeneration: 1, topicId: 'abc', conditions: [{ ...readyTrue, lastTransitionTime: '2026-11-30T09:00:00Z', observedGeneration: 1 }] }, 2);
    expect(statusChange(current, { conditions: [readyTrue] }, t1)).toEqual({
      observedGeneration: 2,
      conditions: [{ ...readyTrue, lastTransitionTime: '2026-11-30T09:00:00Z', observedGeneration: 2 }],
    });
  });

  it('removes a field given as null only when it is present', () => {
    expect(statusChange(topic({ observedGeneration: 2, topicId: 'abc' }), { fields: { topicId: null } }, t0)).toEqual({ topicId: null });
    expect(statusChange(topic({ observedGeneration: 2 }), { fields: { topicId: null } }, t0)).toBeUndefined();
  });

  it('sends resourceVersion with optimisticLock, and refuses fields it manages itself', async () => {
    const rest = new RecordingRest();
    await patchStatusIfChanged(new Client({ rest }), topics, topic(undefined), { fields: { topicId: 'x' } }, { now: t0, optimisticLock: true });
    expect(rest.requests[0]?.body).toMatchObject({ metadata: { resourceVersion: '41' } });
    expect(() => statusChange(topic(undefined), { fields: { conditions: [] } }, t0)).toThrow(RangeError);
  });
});
