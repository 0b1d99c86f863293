import { describe, expect, it } from 'vitest';
import { StoreWriter } from '../cache/store.ts';
import { isTerminalError } from '../core/errors.ts';
import type { ConnectionObject } from './connection-object.ts';
import { ConnectionLookup } from './connection-lookup.ts';
import { isDependencyError } from './dependency-error.ts';

function connection(generation: number, ready?: { reason: string; observedGeneration?: number; status?: 'True' | 'False' }): ConnectionObject {
  return {
    metadata: { name: 'main', uid: 'c-1', generation },
    ...(ready !== undefined && {
      status: { conditions: [{ type: 'Ready', status: ready.status ?? 'False', reason: ready.reason, message: 'down', lastTransitionTime: '2026-01-01T00:00:00Z', ...(ready.observedGeneration !== undefined && { observedGeneration: ready.observedGeneration }) }] },
    }),
  };
}

function lookup(objects: ConnectionObject[] = []): ConnectionLookup<ConnectionObject> {
  const store = new StoreWriter<ConnectionObject>();
  store.replace(objects);
  return new ConnectionLookup({ connections: { store } }, { kind: 'ThingConnection', blockingReasons: ['ThingUnavailable'] });
}

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('ConnectionLookup', () => {
  it('finds a cached connection; a missing one is a retryable ConnectionNotFound, not terminal', () => {
    expect(lookup([connection(1)]).get('main').metadata.uid).toBe('c-1');
    const err = thrown(() => lookup().get('main'));
    expect(isDependencyError(err, 'ConnectionNotFound')).toBe(true);
    expect(isTerminalError(err)).toBe(false);
    expect(err).toMatchObject({ message: 'ThingConnection "main" does not exist' });
  });

  it('passes the connection\u2019s blocking failure on to dependents only while it describes the current generation', () => {
    const l = lookup();
    const err = thrown(() => { l.assertUsable(connection(1, { reason: 'ThingUnavailable', observedGeneration: 1 })); });
    expect(isTerminalError(err) && err.reason).toBe('ThingUnavailable');
    expect(err).toMatchObject({ message: 'ThingConnection "main" is not ready: down' });
    expect(() => { l.assertUsable(connection(2, { reason: 'ThingUnavailable', observedGeneration: 1 })); }).not.toThrow();
    expect(() => { l.assertUsable(connection(1, { reason: 'NotAuthorized', observedGeneration: 1 })); }).not.toThrow();
    expect(() => { l.assertUsable(connection(1, { reason: 'Connected', status: 'True' })); }).not.toThrow();
    expect(() => { l.assertUsable(connection(1)); }).not.toThrow();
  });

  it('usable() is get() then assertUsable()', () => {
    expect(isTerminalError(thrown(() => lookup([connection(1, { reason: 'ThingUnavailable', observedGeneration: 1 })]).usable('main')))).toBe(true);
    expect(lookup([connection(1)]).usable('main').metadata.name).toBe('main');
  });
});
