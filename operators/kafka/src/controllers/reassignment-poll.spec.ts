import type { KubernetesObject } from '@kubernetes/client-node';
import { Result, silentLogger } from '@domain-operators/reconcile';
import type { ExternalAdapter, ExternalContext, ExternalObservation } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { ReassignmentPoll } from './reassignment-poll.ts';

const context: ExternalContext<KubernetesObject> = {
  request: { namespace: 'team', name: 'orders' },
  reconcileId: 'r1',
  log: silentLogger,
  signal: new AbortController().signal,
  externalName: 'main/orders',
  client: () => Promise.resolve(undefined),
  object: { metadata: { name: 'orders', namespace: 'team', uid: 'u1' } },
};

/** An adapter whose observe and update report `replicasChange` as told. */
function adapterReporting(observe: unknown, update: unknown): ExternalAdapter<KubernetesObject, string, string> {
  const observation: ExternalObservation<string> = { exists: true, upToDate: false, diff: [], observed: 'o', ...(observe !== undefined && { status: { replicasChange: observe } }) };
  return {
    observe: () => Promise.resolve(observation),
    create: () => Promise.resolve({}),
    update: () => Promise.resolve(update === undefined ? {} : { status: { replicasChange: update } }),
    delete: () => Promise.resolve(),
  };
}

/** One reconcile through `poll`: observe, then update, then the inner result. */
async function reconcileOnce(poll: ReassignmentPoll, adapter: ExternalAdapter<KubernetesObject, string, string>, inner: Result, polling = true): Promise<Result> {
  const watched = poll.watch(adapter);
  return poll.reconcile(context, polling, async () => {
    await watched.observe('d', context);
    await watched.update('d', 'o', context);
    return inner;
  });
}

const ongoing = { targetReplicas: 2, state: 'Ongoing', message: 'reassigning' };

describe('ReassignmentPoll', () => {
  it('requeues after the poll interval while a reassignment is reported, by observe or by the update that started it', async () => {
    const poll = new ReassignmentPoll(5_000);
    expect(await reconcileOnce(poll, adapterReporting(ongoing, undefined), Result.checkDriftAfter(120_000))).toEqual(Result.requeueAfter(5_000));
    expect(await reconcileOnce(poll, adapterReporting(null, ongoing), Result.checkDriftAfter(120_000))).toEqual(Result.requeueAfter(5_000));
  });

  it('keeps a sooner requeue, and the result as it was when no reassignment runs or when not polling (deletion)', async () => {
    const poll = new ReassignmentPoll(5_000);
    expect(await reconcileOnce(poll, adapterReporting(ongoing, undefined), Result.requeueAfter(1_000))).toEqual(Result.requeueAfter(1_000));
    expect(await reconcileOnce(poll, adapterReporting(null, undefined), Result.checkDriftAfter(120_000))).toEqual(Result.checkDriftAfter(120_000));
    expect(await reconcileOnce(poll, adapterReporting(ongoing, undefined), Result.done(), false)).toEqual(Result.done());
  });

  it('remembers nothing after a reconcile, also after one that failed', async () => {
    const poll = new ReassignmentPoll(5_000);
    const watched = poll.watch(adapterReporting(ongoing, undefined));
    await expect(
      poll.reconcile(context, true, async () => {
        await watched.observe('d', context);
        throw new Error('Kafka unavailable');
      }),
    ).rejects.toThrow('Kafka unavailable');
    // The next reconcile of the key reports nothing: it is not polled on the strength of the failed one.
    expect(await poll.reconcile(context, true, () => Promise.resolve(Result.done()))).toEqual(Result.done());
  });
});
