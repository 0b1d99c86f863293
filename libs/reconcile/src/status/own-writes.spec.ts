import type { KubernetesObject, V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { OwnWrites } from './own-writes.ts';

function object(resourceVersion: string, phase: string, uid = 'u-1'): V1ConfigMap {
  return { metadata: { namespace: 'team-a', name: 'nightly', uid, resourceVersion }, data: { phase } };
}

/** A plain object with a status, as the runtime's kinds are. */
interface Phased extends KubernetesObject {
  readonly data?: Readonly<Record<string, string>>;
  readonly status?: { readonly phase?: string; readonly observedGeneration?: number };
}

describe('OwnWrites', () => {
  it('serves the reply while the cache is older, then forgets it once the cache shows it', () => {
    const own = new OwnWrites<V1ConfigMap>();
    const reply = object('12', 'Running');
    own.remember(reply);
    expect(own.over(object('10', 'Pending'))).toBe(reply);
    expect(own.size).toBe(1);
    const caughtUp = object('12', 'Running');
    expect(own.over(caughtUp)).toBe(caughtUp);
    expect(own.size).toBe(0);
  });

  it('lets a newer cache win, compares resourceVersions as numbers, and never guesses a non-numeric one', () => {
    const own = new OwnWrites<V1ConfigMap>();
    own.remember(object('9', 'Running'));
    const newer = object('10', 'Changed');
    expect(own.over(newer)).toBe(newer);
    own.remember(object('abc', 'Running'));
    const odd = object('5', 'Pending');
    expect(own.over(odd)).toBe(odd);
    expect(own.size).toBe(0);
  });

  it('drops the reply of an object deleted and created again (another UID), and on forget', () => {
    const own = new OwnWrites<V1ConfigMap>();
    own.remember(object('12', 'Running', 'old'));
    const recreated = object('3', 'Pending', 'new');
    expect(own.over(recreated)).toBe(recreated);
    own.remember(object('12', 'Running'));
    own.forget('team-a/nightly');
    expect(own.size).toBe(0);
  });

  it('a write whose reply is unknown: the written status over the cached object until the cache shows the changed fields', () => {
    const own = new OwnWrites<Phased>();
    const cached: Phased = { metadata: { namespace: 'team-a', name: 'nightly', uid: 'u-1', resourceVersion: '7' }, data: { spec: 'a' }, status: { phase: 'Pending' } };
    own.remember({ ...cached, status: { phase: 'Running', observedGeneration: 2 } }, { phase: 'Running' });
    // The cache cannot tell by resourceVersion (the same one), and a spec edit in it must show through.
    const edited: Phased = { ...cached, data: { spec: 'b' } };
    expect(own.over(edited)).toEqual({ ...edited, status: { phase: 'Running', observedGeneration: 2 } });
    expect(own.size).toBe(1);
    const shows: Phased = { ...cached, status: { phase: 'Running' } };
    expect(own.over(shows)).toBe(shows);
    expect(own.size).toBe(0);
  });
});
