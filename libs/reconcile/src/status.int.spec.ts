import type { KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, auditLogPath } from './audit-log.int.ts';
import type { Condition } from './conditions.ts';
import { isAlreadyExists } from './errors.ts';
import { coreTypes, resourceType } from './resource-type.ts';
import { patchStatusIfChanged } from './status.ts';
import { deleteNamespace, eventually, freshNamespace, liveCluster } from './test-support.int.ts';
import type { LiveCluster } from './test-support.int.ts';

/** A test kind whose status has conditions (the Widget's status schema only has observedGeneration). */
interface Gauge extends KubernetesObject {
  spec?: { level?: number };
  status?: { observedGeneration?: number; level?: number; conditions?: Condition[] };
}

const gaugeType = resourceType<Gauge>({ group: 'test.domain-operators.io', version: 'v1', kind: 'Gauge', plural: 'gauges', namespaced: true });

const conditionSchema = {
  type: 'object',
  required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
  properties: {
    type: { type: 'string' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string', pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' },
    message: { type: 'string', maxLength: 32768 },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: { type: 'integer', minimum: 0 },
  },
};

async function installGaugeCrd(cluster: LiveCluster): Promise<void> {
  try {
    await cluster.client.create(coreTypes.customResourceDefinition, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gauges.test.domain-operators.io' },
      spec: {
        group: 'test.domain-operators.io',
        scope: 'Namespaced',
        names: { plural: 'gauges', singular: 'gauge', kind: 'Gauge', listKind: 'GaugeList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { level: { type: 'integer' } } },
                  status: {
                    type: 'object',
                    properties: {
                      observedGeneration: { type: 'integer' },
                      level: { type: 'integer' },
                      conditions: { type: 'array', items: conditionSchema },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  await eventually(async () => {
    await cluster.client.list(gaugeType, { namespace: 'default', limit: 1 });
    return true;
  }, 30_000);
}

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
