import { describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { exampleFiles, readManifests } from '@domain-operators/e2e-harness';
import { chartCrds, EXAMPLE_SYSTEMS, referencesOf } from './examples.ts';

describe.each(EXAMPLE_SYSTEMS)('examples/%s', (system) => {
  const objects = readManifests(exampleFiles(system));

  it(`has a ready example of every kind the ${system} chart installs`, () => {
    const kinds = new Set(objects.map((object) => object.kind));
    for (const crd of chartCrds(system)) expect(kinds, crd.spec.names.kind).toContain(crd.spec.names.kind);
  });

  it('references only Secrets, connections, replications and roles that the examples define', () => {
    const defined = new Set(objects.map((object) => `${object.kind ?? ''}/${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`));
    for (const object of objects) for (const reference of referencesOf(object)) expect(defined).toContain(reference);
  });
});

describe('referencesOf', () => {
  it('finds the Secrets, the connection, the replication and the role an object names', () => {
    expect(
      referencesOf({
        apiVersion: 'opensearch.domain-operators.io/v1alpha1',
        kind: 'OpenSearchConnection',
        metadata: { name: 'c' },
        spec: { credentialsSecretRef: { namespace: 'os', name: 'login' }, tls: { caSecretRef: { namespace: 'os', name: 'ca' } } },
      } as KubernetesObject),
    ).toEqual(['Secret/os/login', 'Secret/os/ca']);
    expect(
      referencesOf({ apiVersion: 'opensearch.domain-operators.io/v1alpha1', kind: 'OpenSearchRoleBinding', metadata: { name: 'b', namespace: 't' }, spec: { connectionRef: { name: 'main' }, roleRef: { name: 'r' } } } as KubernetesObject),
    ).toEqual(['OpenSearchConnection//main', 'OpenSearchRole/t/r']);
    expect(referencesOf({ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisUser', metadata: { name: 'u', namespace: 't' }, spec: { replicationRef: { name: 'cache' } } } as KubernetesObject)).toEqual([
      'RedisReplication/t/cache',
    ]);
    expect(
      referencesOf({
        apiVersion: 'redis.domain-operators.io/v1alpha1',
        kind: 'RedisBackup',
        metadata: { name: 'b', namespace: 't' },
        spec: { replicationRef: { name: 'cache' }, destination: { s3: { bucket: 'x', credentialsSecretRef: { name: 's3' } } } },
      } as KubernetesObject),
    ).toEqual(['Secret/t/s3', 'RedisReplication/t/cache']);
    expect(
      referencesOf({
        apiVersion: 'redis.domain-operators.io/v1alpha1',
        kind: 'RedisBackup',
        metadata: { name: 'v', namespace: 't' },
        spec: { replicationRef: { name: 'cache' }, destination: { volume: { claimName: 'backups', path: 'redis' } } },
      } as KubernetesObject),
    ).toEqual(['RedisReplication/t/cache', 'PersistentVolumeClaim/t/backups']);
    const restored = (restore: unknown): KubernetesObject => ({ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', metadata: { name: 'r', namespace: 't' }, spec: { replicas: 1, restore } }) as KubernetesObject;
    expect(referencesOf(restored({ backupRef: { name: 'snap' } }))).toEqual(['RedisBackup/t/snap']);
    expect(referencesOf(restored({ s3: { bucket: 'x', key: 'k', sha256: 'a', credentialsSecretRef: { name: 's3' } } }))).toEqual(['Secret/t/s3']);
  });
});
