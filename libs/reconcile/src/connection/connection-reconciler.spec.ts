import { describe, expect, it } from 'vitest';
import { Client } from '../client/client.ts';
import type { RestRequest } from '../client/rest.ts';
import { resourceType } from '../client/resource-type.ts';
import { silentLogger } from '../core/logger.ts';
import { Result } from '../core/result.ts';
import type { ReconcileContext } from '../controller/reconciler.ts';
import type { EventInput } from '../observability/events.ts';
import type { ConnectionObject } from './connection-object.ts';
import type { ConnectionHealth } from './connection-reconciler.ts';
import { ConnectionReconciler } from './connection-reconciler.ts';

const type = resourceType<ConnectionObject>({ group: 'things.example.io', version: 'v1', kind: 'ThingConnection', plural: 'thingconnections', namespaced: false });
const context: ReconcileContext = { request: { namespace: undefined, name: 'main' }, reconcileId: 'r', log: silentLogger, signal: new AbortController().signal };

function connection(ready?: { status: 'True' | 'False'; reason: string }, annotations?: Record<string, string>): ConnectionObject {
  return {
    apiVersion: 'things.example.io/v1',
    kind: 'ThingConnection',
    metadata: { name: 'main', uid: 'c-1', generation: 2, resourceVersion: '5', ...(annotations !== undefined && { annotations }) },
    ...(ready !== undefined && { status: { conditions: [{ ...ready, type: 'Ready', message: '', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 2 }] } }),
  };
}

function setup(check: () => Promise<ConnectionHealth>) {
  const patches: unknown[] = [];
  const events: EventInput[] = [];
  const rest = {
    json: (request: RestRequest) => {
      patches.push(request.body);
      return Promise.resolve({});
    },
    stream: () => Promise.reject(new Error('no streams here')),
  };
  const reconciler = new ConnectionReconciler(
    { client: new Client({ rest }), type, events: { record: (_object, event) => void events.push(event) }, check: { check }, now: () => new Date('2026-11-30T00:00:00Z') },
    { fallbackReason: 'ThingError', intervalAnnotation: 'things.example.io/health-check-interval' },
  );
  return { reconciler, patches, events };
}

describe('ConnectionReconciler', () => {
  it('writes Ready=True with the check\u2019s fields, a Connected Event on the change, and rechecks at the healthy pace (or the annotation\u2019s)', async () => {
    const fx = setup(() => Promise.resolve({ ready: true, message: 'connected to x', note: 'connected to x (3 nodes)', fields: { clusterId: 'x' } }));
    expect(await fx.reconciler.reconcile(connection(), context)).toEqual(Result.requeueAfter(30_000));
    expect(fx.patches[0]).toMatchObject({ status: { observedGeneration: 2, clusterId: 'x', conditions: [{ type: 'Ready', status: 'True', reason: 'Connected', message: 'connected to x', observedGeneration: 2 }] } });
    expect(fx.events).toEqual([{ type: 'Normal', reason: 'Connected', action: 'Connect', note: 'connected to x (3 nodes)' }]);

    const annotated = setup(() => Promise.resolve({ ready: true, message: '' }));
    expect(await annotated.reconciler.reconcile(connection({ status: 'True', reason: 'Connected' }, { 'things.example.io/health-check-interval': '5s' }), context)).toEqual(Result.requeueAfter(5_000));
    expect(annotated.events).toEqual([]);
  });

  it('writes a working connection\u2019s own reason, and records its Event with the type the check gives', async () => {
    const replaced = setup(() => Promise.resolve({ ready: true, reason: 'ClusterReplaced', eventType: 'Warning', message: 'cluster id changed from a to b', fields: { clusterId: 'b' } }));
    expect(await replaced.reconciler.reconcile(connection({ status: 'True', reason: 'Connected' }), context)).toEqual(Result.requeueAfter(30_000));
    expect(replaced.patches[0]).toMatchObject({ status: { clusterId: 'b', conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReplaced', message: 'cluster id changed from a to b' }] } });
    expect(replaced.events).toEqual([{ type: 'Warning', reason: 'ClusterReplaced', action: 'Connect', note: 'cluster id changed from a to b' }]);

    const back = setup(() => Promise.resolve({ ready: true, message: 'connected to b' }));
    await back.reconciler.reconcile(connection({ status: 'True', reason: 'ClusterReplaced' }), context);
    expect(back.events).toEqual([{ type: 'Normal', reason: 'Connected', action: 'Connect', note: 'connected to b' }]);
  });

  it('writes Ready=False with a thrown error\u2019s reason (or the fallback) and checks again at the failing pace, never a backoff', async () => {
    const down = setup(() => Promise.reject(Object.assign(new Error('no answer'), { reason: 'ThingUnavailable' })));
    expect(await down.reconciler.reconcile(connection({ status: 'True', reason: 'Connected' }), context)).toEqual(Result.requeueAfter(10_000));
    expect(down.patches[0]).toMatchObject({ status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ThingUnavailable', message: 'no answer' }, { type: 'Reconciling', status: 'True', reason: 'ThingUnavailable' }] } });
    expect(down.events).toEqual([{ type: 'Warning', reason: 'ThingUnavailable', action: 'Connect', note: 'no answer' }]);

    const odd = setup(() => Promise.reject(new Error('boom')));
    await odd.reconciler.reconcile(connection(), context);
    expect(odd.patches[0]).toMatchObject({ status: { conditions: [{ reason: 'ThingError' }, { type: 'Reconciling', reason: 'ThingError' }] } });
  });

  it('takes a reported failure with its fields, and records no Event while status and reason stay the same', async () => {
    const red = setup(() => Promise.resolve({ ready: false, reason: 'ThingUnavailable', message: 'health is red', fields: { health: 'red' } }));
    expect(await red.reconciler.reconcile(connection({ status: 'False', reason: 'ThingUnavailable' }), context)).toEqual(Result.requeueAfter(10_000));
    expect(red.patches[0]).toMatchObject({ status: { health: 'red', conditions: [{ status: 'False', reason: 'ThingUnavailable', message: 'health is red' }, { type: 'Reconciling', status: 'True' }] } });
    expect(red.events).toEqual([]);
  });
});
