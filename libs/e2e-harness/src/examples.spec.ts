import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleFiles, forTestRun, readManifests, withNamespaces } from './examples.ts';

const root = mkdtempSync(join(tmpdir(), 'examples-spec-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('exampleFiles and readManifests', () => {
  it('read the YAML files of examples/<system> in file-name order, every document of each', () => {
    const dir = join(root, 'examples', 'kafka');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '20-b.yaml'), 'apiVersion: v1\nkind: Secret\nmetadata: {name: b, namespace: n}\n');
    writeFileSync(join(dir, '00-a.yml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: m}\n');
    writeFileSync(join(dir, 'README.md'), '# not an example\n');
    const files = exampleFiles('kafka', root);
    expect(files).toEqual([join(dir, '00-a.yml'), join(dir, '20-b.yaml')]);
    expect(readManifests(files).map((object) => `${object.kind ?? ''}/${object.metadata?.name ?? ''}`)).toEqual(['Namespace/n', 'Namespace/m', 'Secret/b']);
  });

  it('find the checkout by default: its examples/redis holds a RedisReplication', () => {
    expect(readManifests(exampleFiles('redis')).map((object) => object.kind)).toContain('RedisReplication');
  });

  it('refuse a document without a name', () => {
    const dir = join(root, 'examples', 'opensearch');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '00-bad.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {}\n');
    expect(() => readManifests(exampleFiles('opensearch', root))).toThrow(/metadata\.name/);
  });
});

describe('withNamespaces', () => {
  it('renames namespaces, namespaced objects and Secret references, and leaves the input alone', () => {
    const input = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kafka' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'kafka' } },
      { apiVersion: 'x/v1', kind: 'KafkaConnection', metadata: { name: 'c' }, spec: { sasl: { secretRef: { namespace: 'kafka', name: 's' } }, tls: { caSecretRef: { namespace: 'kafka', name: 'ca' } } } },
    ];
    const renamed = withNamespaces(input, (ns) => `t-${ns}`);
    expect(renamed.map((o) => o.metadata?.name ?? '')).toEqual(['t-kafka', 's', 'c']);
    expect(renamed[1]?.metadata?.namespace).toBe('t-kafka');
    expect(renamed[2]).toMatchObject({ spec: { sasl: { secretRef: { namespace: 't-kafka' } }, tls: { caSecretRef: { namespace: 't-kafka' } } } });
    expect(input[0]?.metadata.name).toBe('kafka');
  });
});

describe('forTestRun', () => {
  const KAFKA = 'kafka.domain-operators.io/v1alpha1';
  const OPENSEARCH = 'opensearch.domain-operators.io/v1alpha1';
  const renames = { namespace: (ns: string) => `x-${ns}-1`, clusterScoped: (name: string) => `${name}-2` };

  it('renames the connection and every reference to it, and the tenant names of a namespace with it', () => {
    const input: KubernetesObject[] = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { 'kafka.domain-operators.io/tenant': 'true' } } },
      {
        apiVersion: KAFKA,
        kind: 'KafkaConnection',
        metadata: { name: 'main' },
        spec: { bootstrapServers: ['kafka.kafka.svc:9092'], sasl: { secretRef: { namespace: 'kafka', name: 'login' } }, tenancy: { namePrefix: '{namespace}.' } },
      } as KubernetesObject,
      {
        apiVersion: KAFKA,
        kind: 'KafkaUser',
        metadata: { name: 'app', namespace: 'team-a' },
        spec: { connectionRef: { name: 'main' }, acls: [{ resource: { type: 'topic', name: 'team-a.orders' } }, { resource: { type: 'group', name: 'team-a-other.x' } }] },
      } as KubernetesObject,
    ];
    const [namespace, connection, user] = forTestRun(input, renames);
    expect(namespace?.metadata).toEqual({ name: 'x-team-a-1', labels: { 'kafka.domain-operators.io/tenant': 'true' } });
    expect(connection).toMatchObject({ metadata: { name: 'main-2' }, spec: { bootstrapServers: ['kafka.kafka.svc:9092'], sasl: { secretRef: { namespace: 'x-kafka-1', name: 'login' } }, tenancy: { namePrefix: '{namespace}.' } } });
    expect(user).toMatchObject({
      metadata: { name: 'app', namespace: 'x-team-a-1' },
      // Only names in the namespace's own prefix move: "team-a-other." is another namespace's.
      spec: { connectionRef: { name: 'main-2' }, acls: [{ resource: { type: 'topic', name: 'x-team-a-1.orders' } }, { resource: { type: 'group', name: 'team-a-other.x' } }] },
    });
    expect((input[2] as { spec: { acls: { resource: { name: string } }[] } }).spec.acls[0]?.resource.name).toBe('team-a.orders');
  });

  it('renames object keys in the prefix too (aliases) and leaves other keys and values as they are', () => {
    const input: KubernetesObject[] = [
      { apiVersion: OPENSEARCH, kind: 'OpenSearchConnection', metadata: { name: 'main' }, spec: { urls: ['https://o:9200'], tenancy: { indexPrefix: '{namespace}-', bindableRoles: ['readall'] } } } as KubernetesObject,
      {
        apiVersion: OPENSEARCH,
        kind: 'OpenSearchIndexTemplate',
        metadata: { name: 'logs', namespace: 'team-a' },
        spec: { connectionRef: { name: 'main' }, indexPatterns: ['team-a-logs-*'], composedOf: ['team-a-timestamps'], template: { aliases: { 'team-a-logs': {} }, settings: { refreshInterval: '30s' } } },
      } as KubernetesObject,
      { apiVersion: OPENSEARCH, kind: 'OpenSearchUser', metadata: { name: 'u', namespace: 'team-a' }, spec: { connectionRef: { name: 'main' }, attributes: { team: 'team-a' } } } as KubernetesObject,
    ];
    const [, template, user] = forTestRun(input, renames);
    expect(template).toMatchObject({
      spec: { connectionRef: { name: 'main-2' }, indexPatterns: ['x-team-a-1-logs-*'], composedOf: ['x-team-a-1-timestamps'], template: { aliases: { 'x-team-a-1-logs': {} }, settings: { refreshInterval: '30s' } } },
    });
    expect(user).toMatchObject({ spec: { attributes: { team: 'team-a' } } });
  });

  it('renames the repository a snapshot policy names, and the index patterns and rename of a restore in the prefix', () => {
    const input: KubernetesObject[] = [
      { apiVersion: OPENSEARCH, kind: 'OpenSearchConnection', metadata: { name: 'main' }, spec: { urls: ['https://o:9200'], tenancy: { indexPrefix: '{namespace}-' } } } as KubernetesObject,
      { apiVersion: OPENSEARCH, kind: 'OpenSearchSnapshotRepository', metadata: { name: 'backups' }, spec: { connectionRef: { name: 'main' }, type: 'fs' } } as KubernetesObject,
      {
        apiVersion: OPENSEARCH,
        kind: 'OpenSearchSnapshotRestore',
        metadata: { name: 'r', namespace: 'team-a' },
        spec: { connectionRef: { name: 'main' }, repositoryRef: { name: 'backups' }, indices: ['team-a-orders'], renamePattern: 'team-a-(.+)', renameReplacement: 'team-a-restored-$1' },
      } as KubernetesObject,
    ];
    const [, repository, restore] = forTestRun(input, renames);
    expect(repository).toMatchObject({ metadata: { name: 'backups-2' }, spec: { connectionRef: { name: 'main-2' } } });
    expect(restore).toMatchObject({
      spec: { connectionRef: { name: 'main-2' }, repositoryRef: { name: 'backups-2' }, indices: ['x-team-a-1-orders'], renamePattern: 'x-team-a-1-(.+)', renameReplacement: 'x-team-a-1-restored-$1' },
    });
  });

  it('renames no tenant names without tenancy, nor references to a connection the examples do not define', () => {
    const input: KubernetesObject[] = [
      { apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisUser', metadata: { name: 'u', namespace: 'team-a' }, spec: { replicationRef: { name: 'cache' }, username: 'team-a-app', rules: ['~team-a-*'] } } as KubernetesObject,
      { apiVersion: KAFKA, kind: 'KafkaTopic', metadata: { name: 't', namespace: 'team-a' }, spec: { connectionRef: { name: 'elsewhere' }, topicName: 'team-a.t' } } as KubernetesObject,
    ];
    const [user, topic] = forTestRun(input, renames);
    expect(user).toMatchObject({ metadata: { namespace: 'x-team-a-1' }, spec: { replicationRef: { name: 'cache' }, username: 'team-a-app', rules: ['~team-a-*'] } });
    expect(topic).toMatchObject({ metadata: { namespace: 'x-team-a-1' }, spec: { connectionRef: { name: 'elsewhere' }, topicName: 'team-a.t' } });
  });
});
