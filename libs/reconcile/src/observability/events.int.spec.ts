import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, auditLogPath, WRITE_VERBS } from '../testing/audit-log.ts';
import { clientEventSink, EventRecorder, eventType } from './events.ts';
import { coreTypes } from '../client/resource-type.ts';
import { deleteNamespace, eventually, freshNamespace, liveCluster } from '../testing/control-plane.ts';
import type { LiveCluster } from '../testing/control-plane.ts';

describe('EventRecorder against the real apiserver', () => {
  let cluster: LiveCluster;
  let auditLog: string;
  const namespaces: string[] = [];

  beforeAll(async () => {
    cluster = await liveCluster();
    auditLog = await auditLogPath();
  });

  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(cluster, ns);
  });

  it('aggregates 10 identical records into one Event with series count 10, in far fewer than 10 writes', async () => {
    const namespace = await freshNamespace(cluster, 'events');
    namespaces.push(namespace);
    const configMap = await cluster.client.create(coreTypes.configMap, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name: 'subject' }, data: { a: '1' } });
    const recorder = new EventRecorder(
      { sink: clientEventSink(cluster.client) },
      { reportingController: 'test.domain-operators.io/events-int', reportingInstance: 'events-int-0' },
    );

    for (let i = 0; i < 10; i++) {
      recorder.record(configMap, { type: 'Warning', reason: 'ApplyFailed', action: 'Apply', note: 'the backend is unreachable' });
    }
    await recorder.shutdown();

    const events = await cluster.client.listAll(eventType, { namespace });
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      type: 'Warning',
      reason: 'ApplyFailed',
      action: 'Apply',
      note: 'the backend is unreachable',
      reportingController: 'test.domain-operators.io/events-int',
      reportingInstance: 'events-int-0',
      regarding: { kind: 'ConfigMap', namespace, name: 'subject', uid: configMap.metadata?.uid, resourceVersion: configMap.metadata?.resourceVersion },
      series: { count: 10 },
    });

    const isEventWrite = (entry: { verb: string; objectRef?: { resource?: string; namespace?: string; apiGroup?: string } }): boolean =>
      WRITE_VERBS.has(entry.verb) && entry.objectRef?.resource === 'events' && entry.objectRef.namespace === namespace;
    // The audit line of a request is written as it completes; wait until both writes are there.
    await eventually(async () => (await auditEntries(auditLog, isEventWrite)).length >= 2, 10_000, 'audit entries for the event');
    const writes = await auditEntries(auditLog, isEventWrite);
    expect(writes.map((w) => w.verb).sort()).toEqual(['create', 'patch']);
    expect(writes.every((w) => w.objectRef?.apiGroup === 'events.k8s.io' && w.user?.username === 'admin')).toBe(true);
  });
});
