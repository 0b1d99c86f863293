import { describe, expect, it } from 'vitest';
import { Client, retryOnConflict } from './client.ts';
import { VirtualClock } from '../core/clock.ts';
import { KubeApiError } from '../core/errors.ts';
import { coreTypes, resourceType } from './resource-type.ts';
import type { RestRequest, RestTransport } from './rest.ts';

/** Records requests and answers from a script; a fake of our own RestTransport interface. */
class ScriptedRest implements RestTransport {
  readonly requests: RestRequest[] = [];
  readonly #answers: unknown[];
  constructor(...answers: unknown[]) {
    this.#answers = answers;
  }
  json(request: RestRequest): Promise<unknown> {
    this.requests.push(request);
    const answer = this.#answers.shift();
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }
  stream(): never {
    throw new Error('not used');
  }
}

const topics = resourceType({ group: 'kafka.domain-operators.io', version: 'v1alpha1', kind: 'KafkaTopic', plural: 'kafkatopics', namespaced: true });

describe('Client', () => {
  it('builds paths for namespaced, all-namespace, core and cluster-scoped kinds', async () => {
    const rest = new ScriptedRest({}, { items: [] }, {}, { items: [] });
    const client = new Client({ rest });
    await client.get(topics, { namespace: 'team-a', name: 'orders' });
    await client.list(topics);
    await client.get(coreTypes.secret, { namespace: 'ns', name: 's' });
    await client.list(coreTypes.namespace);
    expect(rest.requests.map((r) => r.path)).toEqual([
      '/apis/kafka.domain-operators.io/v1alpha1/namespaces/team-a/kafkatopics/orders',
      '/apis/kafka.domain-operators.io/v1alpha1/kafkatopics',
      '/api/v1/namespaces/ns/secrets/s',
      '/api/v1/namespaces',
    ]);
  });

  it('refuses a namespace for a cluster-scoped kind and a missing one for a namespaced get', async () => {
    const client = new Client({ rest: new ScriptedRest() });
    await expect(client.get(coreTypes.namespace, { namespace: 'x', name: 'y' })).rejects.toThrow(/cluster-scoped/);
    await expect(client.get(topics, { namespace: undefined, name: 'y' })).rejects.toThrow(/needs a namespace/);
  });

  it('fills apiVersion and kind into list items and follows continue tokens', async () => {
    const rest = new ScriptedRest(
      { items: [{ metadata: { name: 'a' } }], metadata: { resourceVersion: '5', continue: 'next' } },
      { items: [{ metadata: { name: 'b' } }], metadata: { resourceVersion: '5', continue: '' } },
    );
    const items = await new Client({ rest }).listAll(topics, { namespace: 'ns', limit: 1 });
    expect(items).toEqual([
      { apiVersion: 'kafka.domain-operators.io/v1alpha1', kind: 'KafkaTopic', metadata: { name: 'a' } },
      { apiVersion: 'kafka.domain-operators.io/v1alpha1', kind: 'KafkaTopic', metadata: { name: 'b' } },
    ]);
    expect(rest.requests[1]?.query).toMatchObject({ limit: 1, continue: 'next' });
  });

  it('sends each patch type with its content type, and status patches to the subresource', async () => {
    const rest = new ScriptedRest({}, {}, {});
    const client = new Client({ rest });
    const req = { namespace: 'ns', name: 'orders' };
    await client.patch(topics, req, { type: 'merge', body: { spec: { partitions: 3 } } });
    await client.patch(topics, req, { type: 'apply', body: { apiVersion: 'x', kind: 'y' }, fieldManager: 'kafka-operator', force: true });
    await client.patchStatus(topics, req, { type: 'json', operations: [{ op: 'test', path: '/metadata/resourceVersion', value: '7' }] });
    expect(rest.requests.map((r) => [r.contentType, r.path.endsWith('/status')])).toEqual([
      ['application/merge-patch+json', false],
      ['application/apply-patch+yaml', false],
      ['application/json-patch+json', true],
    ]);
    expect(rest.requests[1]?.query).toMatchObject({ fieldManager: 'kafka-operator', force: true });
  });

  it('reader().get answers undefined for a missing object and rethrows anything else', async () => {
    const rest = new ScriptedRest(new KubeApiError('nf', 404, 'NotFound'), new KubeApiError('no', 403, 'Forbidden'));
    const reader = new Client({ rest }).reader(topics);
    await expect(reader.get({ namespace: 'ns', name: 'x' })).resolves.toBeUndefined();
    await expect(reader.get({ namespace: 'ns', name: 'x' })).rejects.toThrow(/no/);
  });
});

describe('retryOnConflict', () => {
  it('retries conflicts up to the attempt limit, then rethrows', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const done = retryOnConflict(
      () => {
        calls++;
        return Promise.reject(new KubeApiError('stale', 409, 'Conflict'));
      },
      { clock, random: () => 0.5 },
    );
    const assertion = expect(done).rejects.toThrow(/stale/);
    await clock.runAll();
    await assertion;
    expect(calls).toBe(5);
  });

  it('returns as soon as an attempt succeeds and never retries other errors', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const ok = retryOnConflict(
      () => (++calls < 3 ? Promise.reject(new KubeApiError('stale', 409, 'Conflict')) : Promise.resolve('written')),
      { clock },
    );
    await clock.runAll();
    await expect(ok).resolves.toBe('written');
    expect(calls).toBe(3);
    await expect(retryOnConflict(() => Promise.reject(new KubeApiError('x', 409, 'AlreadyExists')), { clock })).rejects.toThrow('x');
  });
});
