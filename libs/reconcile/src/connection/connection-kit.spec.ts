import type { V1Namespace, V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { StoreWriter } from '../cache/store.ts';
import { isTerminalError } from '../core/errors.ts';
import type { SecretSource } from '../secret/secret-source.ts';
import { ConnectionKit } from './connection-kit.ts';
import type { ConnectionKitKind } from './connection-kit.ts';
import type { ConnectionObject } from './connection-object.ts';
import { isDependencyError } from './dependency-error.ts';
import type { LabelSelector } from './label-selector.ts';
import { requiredSecretValue } from './required-secret.ts';

interface ThingConnection extends ConnectionObject {
  readonly spec: {
    readonly loginRef?: { readonly namespace: string; readonly name: string };
    readonly selector?: LabelSelector;
    readonly prefix?: string;
    readonly ignoredNames?: readonly string[];
  };
}

/** What the fake system's client holds: the login it was built with and the version it was built at. */
interface Built {
  readonly user: string;
  readonly version: string;
}

const THING: ConnectionKitKind<ThingConnection, Built> = {
  kind: 'ThingConnection',
  blockingReasons: ['ThingUnavailable'],
  namespaceSelector: (c) => c.spec.selector,
  secretsOf: (c) => [c.spec.loginRef],
  client: (_c, [login], version) => ({ user: login === undefined ? '' : requiredSecretValue(login, 'username'), version }),
  // The fake rule: the prefix, then the other admitted namespaces, so a test sees what the kit handed the rule.
  tenancy: (c, namespace, admitted) => `${(c.spec.prefix ?? '').replace('{namespace}', namespace)}|${admitted().filter((n) => n !== namespace).join(',')}`,
  ignoredNames: (c) => c.spec.ignoredNames,
};

function conn(spec: ThingConnection['spec'], generation = 1, down = false): ThingConnection {
  return {
    metadata: { name: 'main', uid: 'c-1', generation },
    spec,
    ...(down && { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ThingUnavailable', message: 'refused', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: generation }] } }),
  };
}

function login(username: string | undefined, resourceVersion: string): V1Secret {
  return { metadata: { namespace: 'ops', name: 'login', resourceVersion }, data: username === undefined ? {} : { username: Buffer.from(username).toString('base64') } };
}

function kit(connections: ThingConnection[], secrets: V1Secret[] = [], namespaces: V1Namespace[] = []) {
  const connectionStore = new StoreWriter<ThingConnection>();
  connectionStore.replace(connections);
  const namespaceStore = new StoreWriter<V1Namespace>();
  namespaceStore.replace(namespaces);
  const reads: string[] = [];
  const source: SecretSource = {
    get: (namespace, name) => {
      reads.push(`${namespace}/${name}`);
      return Promise.resolve(secrets.find((s) => s.metadata?.name === name));
    },
  };
  return { reads, kit: new ConnectionKit<ThingConnection, Built>({ connections: { store: connectionStore }, namespaces: { store: namespaceStore }, secrets: source }, THING) };
}

const REF = { namespace: 'ops', name: 'login' };

describe('ConnectionKit', () => {
  it('finds the cached connection, and a missing one is a retried ConnectionNotFound', () => {
    const { kit: k } = kit([conn({})]);
    expect(k.get('main').metadata.name).toBe('main');
    expect(() => k.get('other')).toThrow(expect.objectContaining({ reason: 'ConnectionNotFound' }));
  });

  it("gates on the connection's own Ready: a blocking reason at its generation fails with that reason", () => {
    const { kit: k } = kit([conn({}, 2, true)]);
    let err: unknown;
    try {
      k.usable('main');
    } catch (e) {
      err = e;
    }
    expect(isTerminalError(err)).toBe(true);
    expect(err).toMatchObject({ reason: 'ThingUnavailable', message: 'ThingConnection "main" is not ready: refused' });
  });

  it('admits namespaces by the selector the kind names, and lists the admitted ones', () => {
    const selector = { matchLabels: { thing: 'yes' } };
    const ns = (name: string, labels: Record<string, string>): V1Namespace => ({ metadata: { name, labels } });
    const { kit: k } = kit([conn({ selector })], [], [ns('team-a', { thing: 'yes' }), ns('team-b', {})]);
    const c = k.get('main');
    expect(() => { k.admit(c, 'team-a'); }).not.toThrow();
    expect(() => { k.admit(c, 'team-b'); }).toThrow(expect.objectContaining({ reason: 'TenancyViolation' }));
    expect(() => { k.admit(c, 'team-c'); }).toThrow(expect.objectContaining({ reason: 'NamespaceNotFound' }));
    expect(k.admitted(c)).toEqual(['team-a']);
  });

  it("applies the kind's tenancy rule only to a namespace the selector admits, with the other admitted namespaces", () => {
    const ns = (name: string, labels: Record<string, string>): V1Namespace => ({ metadata: { name, labels } });
    const c = conn({ selector: { matchLabels: { thing: 'yes' } }, prefix: '{namespace}.' });
    const { kit: k } = kit([c], [], [ns('team-a', { thing: 'yes' }), ns('team-b', {}), ns('team-c', { thing: 'yes' })]);
    expect(k.tenancy(c, 'team-a')).toBe('team-a.|team-c');
    expect(() => k.tenancy(c, 'team-b')).toThrow(expect.objectContaining({ reason: 'TenancyViolation' }));
  });

  it("reads the cached connection's ignored names, none for a connection not cached", () => {
    const { kit: k } = kit([conn({ ignoredNames: ['legacy-*'] })]);
    expect(k.ignoredNames('main')).toEqual(['legacy-*']);
    expect(k.ignoredNames('other')).toEqual([]);
    expect(kit([conn({})]).kit.ignoredNames('main')).toEqual([]);
  });

  it('builds the client from the Secrets the kind names, at a version that moves with the generation and the Secret', async () => {
    const first = await kit([conn({ loginRef: REF })], [login('admin', '7')]).kit.client(conn({ loginRef: REF }));
    expect(first.user).toBe('admin');
    const rotated = await kit([conn({ loginRef: REF })], [login('admin', '8')]).kit.client(conn({ loginRef: REF }));
    const regenerated = await kit([conn({ loginRef: REF }, 2)], [login('admin', '7')]).kit.client(conn({ loginRef: REF }, 2));
    expect(new Set([first.version, rotated.version, regenerated.version]).size).toBe(3);
  });

  it('reads no Secret the connection does not name', async () => {
    const { kit: k, reads } = kit([conn({})]);
    expect((await k.client(conn({}))).user).toBe('');
    expect(reads).toEqual([]);
  });

  it('a missing Secret or key is a retried SecretNotFound naming the connection, never a value', async () => {
    const missing: unknown = await kit([conn({ loginRef: REF })]).kit.client(conn({ loginRef: REF })).catch((e: unknown) => e);
    expect(isDependencyError(missing, 'SecretNotFound')).toBe(true);
    expect((missing as Error).message).toBe('Secret ops/login of ThingConnection "main" does not exist');
    const noKey: unknown = await kit([conn({ loginRef: REF })], [login(undefined, '1')]).kit.client(conn({ loginRef: REF })).catch((e: unknown) => e);
    expect(isDependencyError(noKey, 'SecretNotFound')).toBe(true);
  });

  it('binds the client of an external name to the connection it names, and a gone connection is a retried ConnectionNotFound', async () => {
    const { kit: k } = kit([conn({ loginRef: REF })], [login('admin', '7')]);
    await expect(k.clientOf('main/team-a.orders')).resolves.toEqual({ user: 'admin', version: expect.any(String) as string });
    const gone: unknown = await k.clientOf('other/team-a.orders').catch((e: unknown) => e);
    expect(isDependencyError(gone, 'ConnectionNotFound')).toBe(true);
  });
});
