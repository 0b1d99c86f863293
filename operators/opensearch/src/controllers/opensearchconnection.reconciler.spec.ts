import type { EventInput, ReconcileContext } from '@domain-operators/reconcile';
import { Result, silentLogger } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import type { ClusterInfo, OpenSearchApi } from '../opensearch/client.ts';
import { OpenSearchError } from '../opensearch/errors.ts';
import type { Call } from './controller.test-support.ts';
import { recordingClient } from './controller.test-support.ts';
import { ConnectionReconciler } from './opensearchconnection.reconciler.ts';

const connection: OpenSearchConnection = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchConnection',
  metadata: { name: 'main', uid: 'c-uid', generation: 3, resourceVersion: '7', annotations: { 'opensearch.domain-operators.io/health-check-interval': '5s' } },
  spec: { urls: ['http://127.0.0.1:19200'], credentialsSecretRef: { namespace: 'ops', name: 'admin', usernameKey: 'username', passwordKey: 'password' } },
};

const context: ReconcileContext = { request: { namespace: undefined, name: 'main' }, reconcileId: 'r', log: silentLogger, signal: new AbortController().signal };

function setup(clusterInfo: (signal: AbortSignal | undefined) => Promise<ClusterInfo>) {
  const calls: Call[] = [];
  const events: EventInput[] = [];
  const api = { clusterInfo: (options?: { signal?: AbortSignal }) => clusterInfo(options?.signal) } as unknown as OpenSearchApi;
  const reconciler = new ConnectionReconciler(
    { connections: { api: () => api }, client: recordingClient(calls), events: { record: (_object, event) => events.push(event) }, now: () => new Date('2026-11-30T00:00:00Z') },
    { probeTimeoutMs: 20 },
  );
  return { calls, events, reconciler };
}

describe('ConnectionReconciler', () => {
  it('reports the cluster in status with Ready=True and rechecks after the annotated interval', async () => {
    const fx = setup(() => Promise.resolve({ clusterName: 'search', version: '2.19.4', health: 'yellow', securityPlugin: true }));
    expect(await fx.reconciler.reconcile(connection, context)).toEqual(Result.requeueAfter(5_000));
    expect(fx.calls[0]).toMatchObject({
      method: 'PATCH',
      body: {
        status: {
          observedGeneration: 3,
          clusterName: 'search',
          version: '2.19.4',
          health: 'yellow',
          securityPlugin: true,
          conditions: [{ type: 'Ready', status: 'True', reason: 'Connected', observedGeneration: 3 }],
        },
      },
    });
    expect(fx.events).toMatchObject([{ type: 'Normal', reason: 'Connected' }]);
  });

  it('says OpenSearchUnavailable when the cluster does not answer within the probe timeout, then throws to back off', async () => {
    const fx = setup(
      (signal) =>
        new Promise<ClusterInfo>((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            reject(signal.reason as Error);
          });
        }),
    );
    await expect(fx.reconciler.reconcile(connection, context)).rejects.toMatchObject({ reason: 'OpenSearchUnavailable' });
    expect(fx.calls[0]).toMatchObject({ body: { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'OpenSearchUnavailable', message: 'OpenSearch did not answer within 20 ms' }] } } });
    expect(fx.events).toMatchObject([{ type: 'Warning', reason: 'OpenSearchUnavailable' }]);
  });

  it('says AuthenticationFailed for refused credentials and red health as OpenSearchUnavailable', async () => {
    const refused = setup(() => Promise.reject(new OpenSearchError('AuthenticationFailed', 'read cluster info: OpenSearch refused the credentials (401)', 401)));
    await expect(refused.reconciler.reconcile(connection, context)).rejects.toMatchObject({ reason: 'AuthenticationFailed' });
    expect(refused.calls[0]).toMatchObject({ body: { status: { conditions: [{ status: 'False', reason: 'AuthenticationFailed' }] } } });

    const red = setup(() => Promise.resolve({ clusterName: 'search', version: '2.19.4', health: 'red', securityPlugin: true }));
    await expect(red.reconciler.reconcile(connection, context)).rejects.toMatchObject({ reason: 'OpenSearchUnavailable' });
    expect(red.calls[0]).toMatchObject({ body: { status: { health: 'red', conditions: [{ status: 'False', reason: 'OpenSearchUnavailable' }] } } });
  });
});
