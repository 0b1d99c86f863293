import type { KubernetesObject } from '@kubernetes/client-node';
import { coreTypes } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import type { TestEnv } from '@domain-operators/testenv';
import { adminClient, deleteNamespace, eventually, exampleFiles, fillPlaceholders, placeholderValues, randomSuffix, readLocalExamples, readManifests, withNamespaces } from '@domain-operators/e2e-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartCrds, EXAMPLE_SYSTEMS, typeOfExample, typesOfCrd } from './examples.ts';
import { REPO_ROOT } from './repo.ts';

// The examples as a user applies them (`kubectl apply -f examples/<system>`), checked by the real apiserver with
// server-side dry run after installing the chart's CRDs: schema, defaults and CEL rules. Their namespaces are
// created for real (a dry run needs them) under random names; the objects themselves are never stored.

// Also examples/local (what `npm start` applies), with its placeholders filled with stand-ins: the dry run checks
// its shape; the e2e-harness test of the local stack checks that it becomes Ready.

/** Stand-ins for testenv's env.json (the dry run checks shapes, not addresses or logins). */
const STAND_IN_ENV: TestEnv = {
  kafka: { bootstrapServers: ['127.0.0.1:19092'], superUser: { username: 'admin', password: 'stand-in', mechanism: 'SCRAM-SHA-512' }, version: '4' },
  opensearch: { url: 'http://127.0.0.1:19200', adminUser: { username: 'admin', password: 'stand-in' }, version: '2', ism: false, snapshotDir: '/tmp/stand-in-snapshots' },
  node: {
    name: 'testenv-node',
    ip: '10.244.0.1',
    podCidr: '10.244.0.0/24',
    serviceCidr: '10.0.0.0/24',
    clusterDns: '10.0.0.10',
    clusterDomain: 'cluster.local',
    storageClass: 'standard',
    containerdSocket: '/run/containerd.sock',
    redisImage: 'localhost/domain-operators/redis:7.0.15',
  },
};
const suffix = randomSuffix();
const rename = (namespace: string): string => `ex-${namespace}-${suffix}`;
let client: Client;
let customTypes: ResourceType[];
const exampleSets = [
  ...EXAMPLE_SYSTEMS.map((system) => [system, readManifests(exampleFiles(system))] as const),
  ['local', fillPlaceholders(readLocalExamples(REPO_ROOT), placeholderValues(STAND_IN_ENV))] as const,
].map(([name, objects]) => [name, withNamespaces(objects, rename)] as const);
const namespaces = [...new Set(exampleSets.flatMap(([, objects]) => objects.filter((object) => object.kind === 'Namespace').map((object) => object.metadata?.name ?? '')))];

beforeAll(async () => {
  client = await adminClient();
  const crds = EXAMPLE_SYSTEMS.flatMap((system) => chartCrds(system));
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
  for (const namespace of namespaces) await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
});

afterAll(async () => {
  for (const namespace of namespaces) await deleteNamespace(namespace);
});

describe.each(exampleSets)('examples/%s against the apiserver', (_name, objects) => {
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
});

describe('the dry run', () => {
  it("refuses a broken example with the CRD's own message (it really validates)", async () => {
    const topic = exampleSets.flatMap(([, objects]) => objects).find((object) => object.kind === 'KafkaTopic');
    if (topic === undefined) throw new Error('no KafkaTopic example');
    const broken = { ...topic, spec: { ...(topic as { spec: object }).spec, partitions: 0 } };
    await expect(
      client.patch(typeOfExample(broken, customTypes), { namespace: broken.metadata?.namespace, name: broken.metadata?.name ?? '' }, { type: 'apply', body: broken, fieldManager: 'examples-validation', force: true }, { dryRun: true }),
    ).rejects.toThrow(/partitions/);
  });
});
