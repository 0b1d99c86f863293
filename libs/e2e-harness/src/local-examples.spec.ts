import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { resolvePaths } from '@domain-operators/testenv';
import type { TestEnv } from '@domain-operators/testenv';
import {
  describeObject,
  fillPlaceholders,
  forInstance,
  instanceName,
  isCustomResource,
  localReleaseNamespace,
  placeholderValues,
  readLocalExamples,
  systemOf,
  typeOfExample,
  typesOfCrds,
} from './local-examples.ts';

const kafka: NonNullable<TestEnv['kafka']> = { bootstrapServers: ['10.244.0.1:19092'], superUser: { username: 'admin', password: 'k-secret', mechanism: 'SCRAM-SHA-512' }, version: '4' };
const env: TestEnv = {
  kafka,
  opensearch: { url: 'http://10.244.0.1:19200', adminUser: { username: 'admin', password: 'o-secret' }, version: '2', ism: false, snapshotDir: '/tmp/snapshots' },
  node: {
    name: 'testenv-node',
    ip: '10.244.0.1',
    podCidr: '10.244.0.0/24',
    serviceCidr: '10.0.0.0/24',
    clusterDns: '10.0.0.10',
    clusterDomain: 'cluster.local',
    storageClass: 'standard',
    containerdSocket: '/run/containerd.sock',
    redisImage: 'localhost/domain-operators/redis:7.0.15-1_deb12u10',
  },
};

describe('placeholderValues', () => {
  it('takes the addresses, the logins and the node\'s Redis image from env.json', () => {
    expect(placeholderValues(env)).toEqual({
      REDIS_IMAGE: 'localhost/domain-operators/redis:7.0.15-1_deb12u10',
      KAFKA_BOOTSTRAP_SERVER: '10.244.0.1:19092',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_USERNAME: 'admin',
      KAFKA_PASSWORD: 'k-secret',
      OPENSEARCH_URL: 'http://10.244.0.1:19200',
      OPENSEARCH_USERNAME: 'admin',
      OPENSEARCH_PASSWORD: 'o-secret',
    });
  });

  it('gives what there is, so that a stack without OpenSearch still fills its Kafka examples', () => {
    expect(Object.keys(placeholderValues({ kafka }))).toEqual(['KAFKA_BOOTSTRAP_SERVER', 'KAFKA_SASL_MECHANISM', 'KAFKA_USERNAME', 'KAFKA_PASSWORD']);
  });
});

describe('fillPlaceholders', () => {
  it('fills every ${NAME} in nested strings and leaves other values and the input alone', () => {
    const input = { a: ['${X}:9092', 3, true, null], b: { c: 'x-${X}-${Y}', d: '{namespace}.' } };
    expect(fillPlaceholders(input, { X: 'one', Y: 'two' })).toEqual({ a: ['one:9092', 3, true, null], b: { c: 'x-one-two', d: '{namespace}.' } });
    expect(input.a[0]).toBe('${X}:9092');
  });

  it('names a placeholder without a value, and never a value', () => {
    expect(() => fillPlaceholders({ p: '${SECRET} ${MISSING}' }, { SECRET: 'hunter2' })).toThrow(/\$\{MISSING\}/);
    expect(() => fillPlaceholders({ p: '${SECRET} ${MISSING}' }, { SECRET: 'hunter2' })).not.toThrow(/hunter2/);
  });
});

describe('forInstance', () => {
  const objects: KubernetesObject[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kafka-operator-system' } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'kafka-admin', namespace: 'kafka-operator-system' } },
    {
      apiVersion: 'kafka.domain-operators.io/v1alpha1',
      kind: 'KafkaConnection',
      metadata: { name: 'local' },
      spec: { sasl: { secretRef: { namespace: 'kafka-operator-system', name: 'kafka-admin' } }, tenancy: { namePrefix: '{namespace}.' } },
    } as KubernetesObject,
    {
      apiVersion: 'kafka.domain-operators.io/v1alpha1',
      kind: 'KafkaUser',
      metadata: { name: 'local', namespace: 'team-a' },
      spec: { connectionRef: { name: 'local' }, acls: [{ resource: { name: 'team-a.orders' } }, { resource: { name: 'team-ab' } }], users: ['team-a-app'] },
    } as KubernetesObject,
  ];

  it('suffixes namespaces, cluster-scoped custom resources and every reference to them', () => {
    const renamed = forInstance(objects, 'x1');
    expect(renamed.map(describeObject)).toEqual([
      'Namespace team-a-x1',
      'Namespace kafka-operator-system-x1',
      'Secret kafka-operator-system-x1/kafka-admin',
      'KafkaConnection local-x1',
      'KafkaUser team-a-x1/local',
    ]);
    expect(renamed[3]).toMatchObject({ spec: { sasl: { secretRef: { namespace: 'kafka-operator-system-x1', name: 'kafka-admin' } }, tenancy: { namePrefix: '{namespace}.' } } });
    expect(renamed[4]).toMatchObject({
      spec: { connectionRef: { name: 'local-x1' }, acls: [{ resource: { name: 'team-a-x1.orders' } }, { resource: { name: 'team-ab' } }], users: ['team-a-x1-app'] },
    });
    expect(objects[0]?.metadata?.name).toBe('team-a');
  });

  it('copies the objects unchanged for the default instance', () => {
    const copies = forInstance(objects, undefined);
    expect(copies).toEqual(objects);
    expect(copies[0]).not.toBe(objects[0]);
  });
});

describe('names and kinds', () => {
  it('builds instance and release namespace names', () => {
    expect(instanceName('team-a', undefined)).toBe('team-a');
    expect(localReleaseNamespace('redis', 'x1')).toBe('redis-operator-system-x1');
  });

  it('tells custom resources and their system from their API group', () => {
    expect(systemOf({ apiVersion: 'opensearch.domain-operators.io/v1alpha1', kind: 'OpenSearchIndex' })).toBe('opensearch');
    expect(isCustomResource({ apiVersion: 'v1', kind: 'Secret' })).toBe(false);
    expect(systemOf({ apiVersion: 'apps/v1', kind: 'Deployment' })).toBeUndefined();
  });

  it('maps objects to resource types from the CRDs', () => {
    const types = typesOfCrds([
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'redisreplications.redis.domain-operators.io' },
        spec: { group: 'redis.domain-operators.io', names: { kind: 'RedisReplication', plural: 'redisreplications' }, scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true }] },
      } as KubernetesObject,
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ignored' } },
    ]);
    expect(types).toEqual([{ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisReplication', plural: 'redisreplications', namespaced: true }]);
    expect(typeOfExample({ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication' }, types).plural).toBe('redisreplications');
    expect(typeOfExample({ apiVersion: 'v1', kind: 'Secret' }, types).plural).toBe('secrets');
    expect(typeOfExample({ apiVersion: 'v1', kind: 'PersistentVolumeClaim' }, types).plural).toBe('persistentvolumeclaims');
    expect(() => typeOfExample({ apiVersion: 'v1', kind: 'Pod' }, types)).toThrow(/v1 Pod/);
  });
});

describe('examples/local', () => {
  const objects = readLocalExamples(resolvePaths().root);

  it('has a connection and resources for each operator, namespaces first', () => {
    const kinds = objects.map((object) => object.kind);
    expect(kinds.slice(0, 4)).toEqual(['Namespace', 'Namespace', 'Namespace', 'Namespace']);
    for (const kind of ['KafkaConnection', 'KafkaTopic', 'KafkaUser', 'OpenSearchConnection', 'OpenSearchIndex', 'RedisReplication']) expect(kinds).toContain(kind);
  });

  it('fills completely from env.json, and its Secrets carry the logins only after filling', () => {
    const filled = fillPlaceholders(objects, placeholderValues(env));
    expect(JSON.stringify(filled)).not.toMatch(/\$\{/);
    expect(JSON.stringify(objects)).not.toMatch(/k-secret|o-secret/);
    expect(filled.find((object) => object.kind === 'Secret' && object.metadata?.name === 'kafka-admin')).toMatchObject({ stringData: { username: 'admin', password: 'k-secret' } });
  });
});
