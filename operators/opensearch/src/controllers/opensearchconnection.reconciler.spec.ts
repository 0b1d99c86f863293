import { describe, expect, it } from 'vitest';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import type { ClusterInfo, OpenSearchApi } from '../opensearch/client.ts';
import { OpenSearchError } from '../opensearch/errors.ts';
import { OpenSearchConnectionCheck } from './opensearchconnection.reconciler.ts';

const connection: OpenSearchConnection = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchConnection',
  metadata: { name: 'main', uid: 'c-uid', generation: 3, resourceVersion: '7' },
  spec: { urls: ['http://127.0.0.1:19200'], credentialsSecretRef: { namespace: 'ops', name: 'admin', usernameKey: 'username', passwordKey: 'password' } },
};

const signal = new AbortController().signal;

function check(clusterInfo: (signal: AbortSignal | undefined) => Promise<ClusterInfo>): OpenSearchConnectionCheck {
  const api = { clusterInfo: (options?: { signal?: AbortSignal }) => clusterInfo(options?.signal) } as unknown as OpenSearchApi;
  return new OpenSearchConnectionCheck({ api: () => Promise.resolve(api) }, { probeTimeoutMs: 20 });
}

describe('OpenSearchConnectionCheck', () => {
  it('reports the cluster as the status fields, with the Connected note; a missing security plugin is said in the message', async () => {
    await expect(check(() => Promise.resolve({ clusterName: 'search', version: '2.19.4', health: 'yellow', securityPlugin: true })).check(connection, signal)).resolves.toEqual({
      ready: true,
      message: '',
      note: 'connected to search (OpenSearch 2.19.4, yellow)',
      fields: { clusterName: 'search', version: '2.19.4', health: 'yellow', securityPlugin: true },
    });
    const plain = await check(() => Promise.resolve({ clusterName: 'search', version: '2.19.4', health: 'green', securityPlugin: false })).check(connection, signal);
    expect(plain).toMatchObject({ ready: true, message: expect.stringContaining('the security plugin does not answer') as unknown });
  });

  it('says OpenSearchUnavailable when the cluster does not answer within the probe timeout', async () => {
    const hanging = check(
      (s) =>
        new Promise<ClusterInfo>((_resolve, reject) => {
          s?.addEventListener('abort', () => {
            reject(s.reason as Error);
          });
        }),
    );
    await expect(hanging.check(connection, signal)).rejects.toMatchObject({ reason: 'OpenSearchUnavailable', message: 'OpenSearch did not answer within 20 ms' });
  });

  it('passes refused credentials on with their reason, and reports red health as OpenSearchUnavailable with the health field', async () => {
    await expect(check(() => Promise.reject(new OpenSearchError('AuthenticationFailed', 'refused (401)', 401))).check(connection, signal)).rejects.toMatchObject({ reason: 'AuthenticationFailed' });
    await expect(check(() => Promise.resolve({ clusterName: 'search', version: '2.19.4', health: 'red', securityPlugin: true })).check(connection, signal)).resolves.toMatchObject({
      ready: false,
      reason: 'OpenSearchUnavailable',
      fields: { health: 'red' },
    });
  });
});
