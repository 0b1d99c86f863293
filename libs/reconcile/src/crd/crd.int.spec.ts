import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CustomResourceDefinitionManifest } from './crd.ts';
import { isInvalid } from '../core/errors.ts';
import { coreTypes } from '../client/resource-type.ts';
import { HttpsRestTransport } from '../client/rest.ts';
import type { RestTransport } from '../client/rest.ts';
import { deleteNamespace, eventually, freshNamespace, liveCluster } from '../testing/control-plane.ts';
import type { LiveCluster } from '../testing/control-plane.ts';
import { gizmos } from './testdata/gizmo.ts';
import type { Gizmo } from './testdata/gizmo.ts';

const FIELD_MANAGER = 'crd-int-spec';

/** Applies the committed (generated) Gizmo CRD, creating or updating it, and waits until it is Established. */
async function applyGizmoCrd(cluster: LiveCluster): Promise<void> {
  const text = await readFile(new URL('./testdata/crds/gizmos.test.domain-operators.io.yaml', import.meta.url), 'utf8');
  const crd = parse(text) as CustomResourceDefinitionManifest;
  await cluster.client.patch(coreTypes.customResourceDefinition, { namespace: undefined, name: crd.metadata.name }, { type: 'apply', body: crd, fieldManager: FIELD_MANAGER, force: true });
  await eventually(
    async () => {
      const live = await cluster.client.get(coreTypes.customResourceDefinition, { namespace: undefined, name: crd.metadata.name });
      return live.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') === true;
    },
    30_000,
    'Gizmo CRD Established',
  );
}

/** The message of the apiserver's rejection of `write`; fails the test when the write succeeds or fails otherwise. */
async function rejection(write: () => Promise<unknown>): Promise<string> {
  try {
    await write();
  } catch (err) {
    expect(isInvalid(err), String(err)).toBe(true);
    return (err as Error).message;
  }
  throw new Error('the apiserver accepted an invalid object');
}

function gizmo(namespace: string, name: string, spec: Record<string, unknown>): Gizmo {
  return { apiVersion: gizmos.apiVersion, kind: gizmos.kind, metadata: { name, namespace }, spec: spec as Gizmo['spec'] };
}

/** The part of an OpenAPI v3 document the test reads. */
interface OpenApi {
  components?: { schemas?: Record<string, { properties?: Record<string, { properties?: Record<string, { description?: string }> }> }> };
}

describe('generated CRD against the real apiserver', () => {
  let cluster: LiveCluster;
  let rest: RestTransport;
  let namespace: string;

  beforeAll(async () => {
    cluster = await liveCluster();
    rest = await HttpsRestTransport.create(cluster.kubeConfig);
    await applyGizmoCrd(cluster);
    namespace = await freshNamespace(cluster, 'crd');
    // After an update of the CRD the apiserver swaps in the new schema asynchronously: wait until the newest
    // rule (the spec-level CEL rule) is in force before asserting on validation.
    await eventually(
      async () => {
        await rejection(() => cluster.client.create(gizmos.type, gizmo(namespace, 'probe', { name: 'p', color: 'red', replicas: 5 }), { dryRun: true }));
        return true;
      },
      30_000,
      'Gizmo schema in force',
    );
  });

  afterAll(async () => {
    await deleteNamespace(cluster, namespace);
  });

  it('applies the CRD idempotently (a second apply changes nothing)', async () => {
    const before = await cluster.client.get(coreTypes.customResourceDefinition, { namespace: undefined, name: gizmos.name });
    await applyGizmoCrd(cluster);
    const after = await cluster.client.get(coreTypes.customResourceDefinition, { namespace: undefined, name: gizmos.name });
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    expect(after.spec.names.shortNames).toEqual(['gz']);
    expect(after.spec.names.categories).toEqual(['testing']);
  });

  it('rejects a number below its minimum with the schema message', async () => {
    const message = await rejection(() => cluster.client.create(gizmos.type, gizmo(namespace, 'negative', { name: 'n', color: 'blue', replicas: -1 })));
    expect(message).toContain('spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0');
  });

  it('rejects an unknown enum value, listing the supported values', async () => {
    const message = await rejection(() => cluster.client.create(gizmos.type, gizmo(namespace, 'purple', { name: 'p', color: 'purple' })));
    expect(message).toContain('spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"');
  });

  it('enforces spec-level CEL rules with their message and field path', async () => {
    const message = await rejection(() => cluster.client.create(gizmos.type, gizmo(namespace, 'too-red', { name: 'r', color: 'red', replicas: 4 })));
    expect(message).toContain('spec.replicas: Invalid value: a red gizmo runs at most 3 replicas');
  });

  it('applies defaults, including a required field that has a default', async () => {
    const created = await cluster.client.create(gizmos.type, gizmo(namespace, 'defaults', { name: 'd', color: 'green' }));
    expect(created.spec.replicas).toBe(1);
    expect(created.spec.deletionPolicy).toBe('Delete');
  });

  it('rejects a change of an immutable field with the CEL message and accepts other changes', async () => {
    const request = { namespace, name: 'immutable' };
    await cluster.client.create(gizmos.type, gizmo(namespace, request.name, { name: 'first', color: 'green', labels: { team: 'a' }, settings: { any: ['thing', 1] } }));
    const message = await rejection(() => cluster.client.patch(gizmos.type, request, { type: 'merge', body: { spec: { name: 'second' } } }));
    expect(message).toContain('spec.name: Invalid value: "second": name is immutable');
    const updated = await cluster.client.patch(gizmos.type, request, { type: 'merge', body: { spec: { color: 'blue' } } });
    expect(updated.spec).toMatchObject({ name: 'first', color: 'blue', labels: { team: 'a' }, settings: { any: ['thing', 1] } });
  });

  it('serves the field descriptions in its OpenAPI v3 document (what kubectl explain shows)', async () => {
    await eventually(
      async () => {
        const doc = (await rest.json({ method: 'GET', path: '/openapi/v3/apis/test.domain-operators.io/v1' })) as OpenApi;
        const spec = doc.components?.schemas?.['io.domain-operators.test.v1.Gizmo']?.properties?.['spec'];
        return spec?.properties?.['name']?.description === 'The name of the gizmo in the external system. Immutable once set.';
      },
      30_000,
      'spec.name description served',
    );
  });
});
