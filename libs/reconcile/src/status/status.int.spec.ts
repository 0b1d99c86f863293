import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, auditLogPath } from '../testing/audit-log.ts';
import { patchStatusIfChanged } from './status.ts';
import { deleteNamespace, eventually, freshNamespace, gaugeType, installGaugeCrd, liveCluster } from '../testing/control-plane.ts';
import type { LiveCluster } from '../testing/control-plane.ts';

describe('patchStatusIfChanged against the real apiserver', () => {
  let cluster: LiveCluster;
  let auditLog: string;
  const namespaces: string[] = [];

  beforeAll(async () => {
    cluster = await liveCluster();
    auditLog = await auditLogPath();
    await installGaugeCrd(cluster);
  });

  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(cluster, ns);
  });

  it('writes once, then nothing when the same desired status is patched again', async () => {
    const namespace = await freshNamespace(cluster, 'status');
    namespaces.push(namespace);
    const request = { namespace, name: 'g1' };
    await cluster.client.create(gaugeType, { apiVersion: 'test.domain-operators.io/v1', kind: 'Gauge', metadata: request, spec: { level: 3 } });
    const desired = {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'LevelReached', message: 'level 3' },
        { type: 'Synced', status: 'True', reason: 'Applied', message: '' },
      ],
      fields: { level: 3 },
    } as const;

    expect(await patchStatusIfChanged(cluster.client, gaugeType, await cluster.client.get(gaugeType, request), desired)).toBe(true);
    const written = await cluster.client.get(gaugeType, request);
    expect(written.status).toMatchObject({ observedGeneration: 1, level: 3, conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1 }, { type: 'Synced' }] });
    expect(await patchStatusIfChanged(cluster.client, gaugeType, written, desired)).toBe(false);
    expect(await patchStatusIfChanged(cluster.client, gaugeType, await cluster.client.get(gaugeType, request), desired)).toBe(false);

    const isStatusWrite = (entry: { verb: string; objectRef?: { resource?: string; namespace?: string; subresource?: string } }): boolean =>
      entry.objectRef?.resource === 'gauges' && entry.objectRef.namespace === namespace && entry.objectRef.subresource === 'status';
    await eventually(async () => (await auditEntries(auditLog, isStatusWrite)).length >= 1, 10_000, 'audit entry for the status write');
    // Give a (wrong) second write time to reach the log before counting.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await auditEntries(auditLog, isStatusWrite)).map((e) => e.verb)).toEqual(['patch']);
  });
});
