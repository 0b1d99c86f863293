import type { KubernetesObject } from '@kubernetes/client-node';
import { coreTypes } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { adminClient, deleteNamespace, eventually, randomSuffix } from '@domain-operators/e2e-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartCrds, exampleFiles, readManifests, typeOfExample, typesOfCrd, withNamespaces } from './examples.ts';

// The examples as a user applies them (`kubectl apply -f examples/kafka`), checked by the real apiserver with
// server-side dry run after installing the chart's CRDs: schema, defaults and CEL rules. Their namespaces are
// created for real (a dry run needs them) under random names; the objects themselves are never stored.

const suffix = randomSuffix();
const rename = (namespace: string): string => `ex-${namespace}-${suffix}`;
let client: Client;
let customTypes: ResourceType[];
const objects = withNamespaces(readManifests(exampleFiles('kafka')), rename);
const namespaces = objects.filter((object) => object.kind === 'Namespace');

beforeAll(async () => {
  client = await adminClient();
  const crds = chartCrds('kafka');
  for (const crd of crds) {
    await client.patch(coreTypes.customResourceDefinition, { namespace: undefined, name: crd.metadata?.name ?? '' }, { type: 'apply', body: crd, fieldManager: 'examples-validation', force: true });
  }
  customTypes = crds.flatMap(typesOfCrd);
  // A new CRD is served a moment after it is stored: wait until each kind can be listed.
  for (const type of customTypes) {
    await eventually(
      async () => {
        await client.listAll(type, {});
        return true;
      },
      { timeoutMs: 30_000, what: `${type.kind} to be served` },
    );
  }
  for (const namespace of namespaces) await client.create(coreTypes.namespace, namespace);
});

afterAll(async () => {
  for (const namespace of namespaces) await deleteNamespace(namespace.metadata?.name ?? '');
});

describe('examples/kafka against the apiserver', () => {
  it.each(objects.filter((object) => object.kind !== 'Namespace').map((object) => [`${object.kind ?? ''} ${object.metadata?.name ?? ''}`, object] as const))(
    '%s passes a server-side dry run',
    async (_label, object: KubernetesObject) => {
      const type = typeOfExample(object, customTypes);
      const applied = await client.patch(
        type,
        { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' },
        { type: 'apply', body: object, fieldManager: 'examples-validation', force: true },
        { dryRun: true },
      );
      expect(applied).toMatchObject({ kind: object.kind, metadata: { name: object.metadata?.name } });
    },
  );

  it('refuses a broken example with the CRD\'s own message (the dry run really validates)', async () => {
    const topic = objects.find((object) => object.kind === 'KafkaTopic');
    if (topic === undefined) throw new Error('no KafkaTopic example');
    const broken = { ...topic, spec: { ...(topic as { spec: object }).spec, partitions: 0 } };
    await expect(
      client.patch(typeOfExample(broken, customTypes), { namespace: broken.metadata?.namespace, name: broken.metadata?.name ?? '' }, { type: 'apply', body: broken, fieldManager: 'examples-validation', force: true }, { dryRun: true }),
    ).rejects.toThrow(/partitions/);
  });
});
