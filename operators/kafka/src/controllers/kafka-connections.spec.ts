import type { V1Namespace, V1Secret } from '@kubernetes/client-node';
import { StoreWriter, VirtualClock } from '@domain-operators/reconcile';
import type { SecretSource } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import type { KafkaAdmin } from '../kafka/admin.ts';
import type { KafkaConnectionOptions } from '../kafka/connection.ts';
import { kafkaConnectionKit } from './kafka-connections.ts';
import { KafkaClientPool } from './kafka-client-pool.ts';

function connection(spec: Partial<KafkaConnection['spec']> = {}, status?: KafkaConnection['status'], generation = 1): KafkaConnection {
  return {
    apiVersion: 'kafka.domain-operators.io/v1alpha1',
    kind: 'KafkaConnection',
    metadata: { name: 'main', uid: 'c-1', generation },
    spec: { bootstrapServers: ['127.0.0.1:9092'], ...spec },
    ...(status !== undefined && { status }),
  };
}

function secret(name: string, data: Record<string, string>, resourceVersion = '1'): V1Secret {
  return { metadata: { name, namespace: 'ops', resourceVersion }, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])) };
}

function setup(objects: { connections?: KafkaConnection[]; namespaces?: V1Namespace[]; secrets?: V1Secret[] } = {}) {
  const connections = new StoreWriter<KafkaConnection>();
  connections.replace(objects.connections ?? []);
  const namespaces = new StoreWriter<V1Namespace>();
  namespaces.replace(objects.namespaces ?? []);
  const secrets: SecretSource = { get: (namespace, name) => Promise.resolve((objects.secrets ?? []).find((s) => s.metadata?.namespace === namespace && s.metadata.name === name)) };
  const built: KafkaConnectionOptions[] = [];
  const pool = new KafkaClientPool({
    clock: new VirtualClock(),
    createAdmin: (options) => {
      built.push(options);
      return { close: () => Promise.resolve() } as unknown as KafkaAdmin;
    },
  });
  return { kit: kafkaConnectionKit({ connections: { store: connections }, namespaces: { store: namespaces }, secrets, pool }), built };
}

describe('kafkaConnectionKit', () => {
  it('refuses a missing connection with ConnectionNotFound', () => {
    expect(() => setup().kit.get('main')).toThrow(expect.objectContaining({ reason: 'ConnectionNotFound' }));
  });

  it('renders the prefix of a namespace and refuses a namespace the selector does not select', () => {
    const conn = connection({ tenancy: { namePrefix: '{namespace}.', namespaceSelector: { matchLabels: { kafka: 'yes' } } } });
    const { kit } = setup({
      connections: [conn],
      namespaces: [
        { metadata: { name: 'team-a', labels: { kafka: 'yes' } } },
        { metadata: { name: 'team-b', labels: {} } },
      ],
    });
    expect(kit.tenancy(conn, 'team-a')).toBe('team-a.');
    expect(() => kit.tenancy(conn, 'team-b')).toThrow(expect.objectContaining({ reason: 'TenancyViolation' }));
    expect(() => kit.tenancy(conn, 'unknown')).toThrow(/not in the cache/);
    expect(kit.tenancy(connection(), 'anything')).toBe('');
  });

  it('passes its failure on to dependents only while it describes the current generation', () => {
    const failing = {
      conditions: [{ type: 'Ready', status: 'False' as const, reason: 'KafkaUnavailable', message: 'down', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1 }],
    };
    const { kit } = setup();
    expect(() => { kit.assertUsable(connection({}, failing)); }).toThrow(expect.objectContaining({ reason: 'KafkaUnavailable', message: 'KafkaConnection "main" is not ready: down' }));
    expect(() => { kit.assertUsable(connection({}, failing, 2)); }).not.toThrow();
    expect(() => { kit.assertUsable(connection()); }).not.toThrow();
  });

  it('shares one admin per connection; a missing Secret or key is refused without the password in the message', async () => {
    const sasl = { mechanism: 'SCRAM-SHA-512' as const, secretRef: { namespace: 'ops', name: 'login', usernameKey: 'username', passwordKey: 'password' } };
    const conn = connection({ sasl });
    const first = setup({ connections: [conn], secrets: [secret('login', { username: 'admin', password: 'one' })] });
    const a = await first.kit.client(conn);
    expect(await first.kit.client(conn)).toBe(a);
    expect(first.built).toHaveLength(1);
    expect(first.built[0]?.sasl).toEqual({ mechanism: 'SCRAM-SHA-512', username: 'admin', password: 'one' });

    const missing = setup({ connections: [conn] });
    // Retried with backoff (a DependencyError, never terminal): the Secret may be created a moment later.
    await expect(missing.kit.client(conn)).rejects.toMatchObject({ name: 'DependencyError', reason: 'SecretNotFound', message: 'Secret ops/login of KafkaConnection "main" does not exist' });
    const noKey = setup({ connections: [conn], secrets: [secret('login', { username: 'admin' })] });
    await expect(noKey.kit.client(conn)).rejects.toMatchObject({ name: 'DependencyError', reason: 'SecretNotFound', message: expect.not.stringContaining('one') as unknown });
  });
});
