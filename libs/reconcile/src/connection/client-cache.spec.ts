import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ClientCache, connectionVersion } from './client-cache.ts';

function cache(): { cache: ClientCache<{ id: number }>; closed: number[] } {
  const closed: number[] = [];
  return {
    closed,
    cache: new ClientCache<{ id: number }>({
      close: (client) => {
        closed.push(client.id);
        return client.id === 99 ? Promise.reject(new Error('close failed')) : Promise.resolve();
      },
    }),
  };
}

describe('ClientCache', () => {
  it('keeps one client per connection until its version changes, then retires the old one', async () => {
    const fx = cache();
    let built = 0;
    const build = () => ({ id: ++built });
    const first = fx.cache.get('main', 'v1', build);
    expect(fx.cache.get('main', 'v1', build)).toBe(first);
    expect(built).toBe(1);
    const second = fx.cache.get('main', 'v2', build);
    expect(second.id).toBe(2);
    expect(fx.closed).toEqual([1]);
    fx.cache.forget('main');
    fx.cache.forget('main');
    expect(fx.closed).toEqual([1, 2]);
    fx.cache.get('other', 'v1', build);
    await fx.cache.close();
    expect(fx.closed).toEqual([1, 2, 3]);
  });

  it('keeps the previous client when a build throws, and never fails on a failed close', async () => {
    const fx = cache();
    const first = fx.cache.get('main', 'v1', () => ({ id: 99 }));
    expect(() => fx.cache.get('main', 'v2', () => { throw new Error('bad Secret'); })).toThrow('bad Secret');
    expect(fx.cache.get('main', 'v1', () => ({ id: 5 }))).toBe(first);
    fx.cache.forget('main');
    await expect(fx.cache.close()).resolves.toBeUndefined();
  });
});

describe('connectionVersion', () => {
  it('changes with the connection\u2019s generation or a Secret\u2019s resourceVersion', () => {
    const connection = (generation: number): KubernetesObject => ({ metadata: { uid: 'u', generation } });
    const secret = (rv: string): KubernetesObject => ({ metadata: { resourceVersion: rv } });
    expect(connectionVersion(connection(1), [secret('7'), undefined])).toBe('u/1/7/');
    expect(connectionVersion(connection(2), [secret('7')])).not.toBe(connectionVersion(connection(1), [secret('7')]));
    expect(connectionVersion(connection(1), [secret('8')])).not.toBe(connectionVersion(connection(1), [secret('7')]));
  });
});
