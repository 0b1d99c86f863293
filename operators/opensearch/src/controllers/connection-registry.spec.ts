import type { V1Namespace, V1Secret } from '@kubernetes/client-node';
import { DependencyError, isTerminalError, storeSecrets, StoreWriter } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi, OpenSearchConnectOptions } from '../opensearch/client.ts';
import { ConnectionRegistry } from './connection-registry.ts';

function connection(generation: number, tenancy?: OpenSearchConnection['spec']['tenancy']): OpenSearchConnection {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchConnection',
    metadata: { name: 'main', uid: 'uid-main', generation, resourceVersion: String(generation) },
    spec: {
      urls: ['http://127.0.0.1:19200'],
      credentialsSecretRef: { namespace: 'ops', name: 'admin', usernameKey: 'username', passwordKey: 'password' },
      ...(tenancy === undefined ? {} : { tenancy }),
    },
  };
}

function secret(resourceVersion: string, password: string): V1Secret {
  return {
    metadata: { namespace: 'ops', name: 'admin', resourceVersion },
    data: { username: Buffer.from('admin').toString('base64'), password: Buffer.from(password).toString('base64') },
  };
}

function namespace(name: string, labels: Record<string, string> = {}): V1Namespace {
  return { metadata: { name, labels, resourceVersion: '1' } };
}

function setup(): {
  registry: ConnectionRegistry;
  connections: StoreWriter<OpenSearchConnection>;
  secrets: StoreWriter<V1Secret>;
  namespaces: StoreWriter<V1Namespace>;
  made: OpenSearchConnectOptions[];
  closed: number[];
} {
  const connections = new StoreWriter<OpenSearchConnection>();
  const secrets = new StoreWriter<V1Secret>();
  const namespaces = new StoreWriter<V1Namespace>();
  const made: OpenSearchConnectOptions[] = [];
  const closed: number[] = [];
  const connect = (options: OpenSearchConnectOptions): OpenSearchApi => {
    const id = made.push(options);
    return {
      close: () => {
        closed.push(id);
        return Promise.resolve();
      },
    } as unknown as OpenSearchApi;
  };
  const registry = new ConnectionRegistry({ connections: { store: connections.reader() }, secrets: storeSecrets({ store: secrets.reader() }), namespaces: { store: namespaces.reader() }, connect }, { requestTimeoutMs: 5_000 });
  return { registry, connections, secrets, namespaces, made, closed };
}

describe('ConnectionRegistry.api', () => {
  it('keeps one client per connection until its generation or its Secret changes', async () => {
    const fx = setup();
    fx.connections.replace([connection(1)]);
    fx.secrets.replace([secret('10', 'first')]);
    const first = await fx.registry.api('main');
    expect(await fx.registry.api('main')).toBe(first);
    expect(fx.made).toEqual([{ urls: ['http://127.0.0.1:19200'], username: 'admin', password: 'first', requestTimeoutMs: 5_000 }]);

    fx.secrets.apply(secret('11', 'second'));
    const second = await fx.registry.api('main');
    expect(second).not.toBe(first);
    expect(fx.made[1]?.password).toBe('second');
    expect(fx.closed).toEqual([1]);

    fx.connections.apply(connection(2));
    expect(await fx.registry.api('main')).not.toBe(second);
    expect(fx.closed).toEqual([1, 2]);
  });

  it('names a missing connection, Secret or key without revealing values', async () => {
    const fx = setup();
    await expect(fx.registry.api('main')).rejects.toThrow(DependencyError);
    fx.connections.replace([connection(1)]);
    await expect(fx.registry.api('main')).rejects.toThrow('Secret ops/admin of OpenSearchConnection "main" does not exist');
    fx.secrets.replace([{ metadata: { namespace: 'ops', name: 'admin', resourceVersion: '1' }, data: { username: Buffer.from('admin').toString('base64') } }]);
    await expect(fx.registry.api('main')).rejects.toThrow(/has no key "password"/);
  });
});

describe('ConnectionRegistry.tenancy', () => {
  it('renders the prefix and keeps out of the prefixes of other admitted namespaces', () => {
    const fx = setup();
    fx.connections.replace([connection(1, { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { search: 'yes' } } })]);
    fx.namespaces.replace([namespace('team-a', { search: 'yes' }), namespace('team-a-b', { search: 'yes' }), namespace('team-a-c')]);
    const tenancy = fx.registry.tenancy('main', 'team-a');
    expect(tenancy.prefix).toBe('team-a-');
    expect(tenancy.foreignPrefixes).toEqual([{ namespace: 'team-a-b', prefix: 'team-a-b-' }]);
  });

  it('refuses a namespace the selector does not admit as a terminal TenancyViolation', () => {
    const fx = setup();
    fx.connections.replace([connection(1, { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { search: 'yes' } } })]);
    fx.namespaces.replace([namespace('team-c')]);
    let error: unknown;
    try {
      fx.registry.tenancy('main', 'team-c');
    } catch (err) {
      error = err;
    }
    expect(isTerminalError(error) && error.reason).toBe('TenancyViolation');
  });

  it('waits (retryable) for a namespace the cache does not hold yet when a selector must be checked; without one it needs none', () => {
    const fx = setup();
    fx.connections.replace([connection(1, { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { search: 'yes' } } })]);
    expect(() => fx.registry.tenancy('main', 'new')).toThrow(expect.objectContaining({ reason: 'NamespaceNotFound' }) as Error);
    fx.connections.replace([connection(2, { indexPrefix: '{namespace}-' })]);
    expect(fx.registry.tenancy('main', 'new').prefix).toBe('new-');
  });
});
