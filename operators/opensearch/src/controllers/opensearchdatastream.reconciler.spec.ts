import { boundAdapter } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { OpenSearchDataStream } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { callNames, FakeOpenSearch, fakeConnections, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { DataStreamAdapter, dataStreamDesired, dataStreamScope } from './opensearchdatastream.reconciler.ts';

const stream: OpenSearchDataStream = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchDataStream',
  metadata: { namespace: 'team-a', name: 'app-logs', uid: 'stream-uid', generation: 1 },
  spec: { connectionRef: { name: 'main' }, deletionPolicy: 'Retain' },
};

function setup() {
  const calls: Call[] = [];
  const openSearch = new FakeOpenSearch(calls);
  const connections = fakeConnections(openSearch.api());
  const r = reconcilerOver(calls, boundAdapter(new DataStreamAdapter(), openSearch.api()), { externalName: (object) => `main/${dataStreamScope(connections, object).name}`, desired: (object) => dataStreamDesired(connections, object) });
  return { calls, openSearch, connections, r };
}

describe('data streams', () => {
  it('wait with DependencyNotReady while no data-stream template matches, then are created and report generation, backing indices and health', async () => {
    const { calls, openSearch, r } = setup();
    r.objects.put(stream);

    await expect(r.reconcile('stream-uid')).rejects.toMatchObject({ reason: 'DependencyNotReady' });
    expect(openSearch.dataStreams.size).toBe(0);
    expect(JSON.stringify(r.status('stream-uid'))).toContain('DependencyNotReady');

    openSearch.indexTemplates.set('team-a-app-logs', { index_patterns: ['team-a-app-*'], data_stream: { timestamp_field: { name: '@timestamp' } } });
    calls.length = 0;
    await r.reconcile('stream-uid');
    expect(callNames(calls).filter((call) => call !== 'status')).toEqual(['createDataStream']);
    expect(statusChanges(calls).at(-1)).toMatchObject({ dataStreamName: 'team-a-app-logs', generation: 1, backingIndices: ['.ds-team-a-app-logs-000001'], health: 'green', template: 'team-a-app-logs', ownership: 'Created' });
  });

  it('report a rollover at the next reconcile, writing nothing to OpenSearch', async () => {
    const { calls, openSearch, r } = setup();
    openSearch.indexTemplates.set('team-a-app-logs', { index_patterns: ['team-a-app-*'], data_stream: { timestamp_field: { name: '@timestamp' } } });
    r.objects.put(stream);
    await r.reconcile('stream-uid');
    openSearch.dataStreams.set('team-a-app-logs', { name: 'team-a-app-logs', generation: 2, backingIndices: ['.ds-team-a-app-logs-000001', '.ds-team-a-app-logs-000002'], health: 'yellow', template: 'team-a-app-logs' });
    calls.length = 0;
    await r.reconcile('stream-uid');
    expect(callNames(calls)).toEqual(['status']);
    expect(r.status('stream-uid')).toMatchObject({ generation: 2, backingIndices: ['.ds-team-a-app-logs-000001', '.ds-team-a-app-logs-000002'], health: 'yellow' });
  });

  it('refuse a name outside the prefix before any request', () => {
    const { calls, connections } = setup();
    expect(() => dataStreamScope(connections, { ...stream, spec: { ...stream.spec, name: 'logs-app' } })).toThrow(
      expect.objectContaining({ reason: 'TenancyViolation', message: 'data stream name "logs-app" is outside the prefix "team-a-"' }) as Error,
    );
    expect(calls).toEqual([]);
  });
});
