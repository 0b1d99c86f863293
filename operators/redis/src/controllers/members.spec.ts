import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { AppliedMemory } from './applied-memory.ts';
import { incarnationOf, memberPods, ordinalOf, podsByReplication } from './members.ts';

function pod(name: string, extra: Partial<V1Pod> = {}): V1Pod {
  return { metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: { 'redis.domain-operators.io/replication': 'cache' } }, ...extra };
}

describe('member pods', () => {
  it('orders by ordinal and leaves out Pods being deleted or of another StatefulSet', () => {
    const pods = [pod('cache-10'), pod('cache-2'), pod('cache-x'), pod('other-0'), pod('cache-1', { metadata: { name: 'cache-1', deletionTimestamp: new Date() } })];
    expect(memberPods(pods, 'cache').map((m) => m.ordinal)).toEqual([2, 10]);
    expect(ordinalOf(pod('cache-3'), 'cache')).toBe(3);
    expect(podsByReplication(pod('cache-0'))).toEqual(['ns/cache']);
  });

  it('an incarnation changes when the container restarts', () => {
    const before = pod('cache-0', { status: { containerStatuses: [{ name: 'redis', restartCount: 0, image: 'redis', imageID: '', ready: true }] } });
    const after = pod('cache-0', { status: { containerStatuses: [{ name: 'redis', restartCount: 1, image: 'redis', imageID: '', ready: true }] } });
    expect(incarnationOf(before)).not.toBe(incarnationOf(after));
  });
});

describe('AppliedMemory', () => {
  it('remembers per incarnation and item, forgets items, dead incarnations and owners', () => {
    const memory = new AppliedMemory();
    memory.record('ns/u', 'a/0', 'user', 'h1');
    memory.record('ns/u', 'b/0', 'user', 'h1');
    expect(memory.has('ns/u', 'a/0', 'user', 'h1')).toBe(true);
    expect(memory.has('ns/u', 'a/0', 'user', 'h2')).toBe(false);
    expect(memory.has('ns/u', 'a/1', 'user', 'h1')).toBe(false);
    memory.retain('ns/u', new Set(['b/0']));
    expect(memory.has('ns/u', 'a/0', 'user', 'h1')).toBe(false);
    expect(memory.has('ns/u', 'b/0', 'user', 'h1')).toBe(true);
    memory.forgetItem('ns/u', 'user');
    expect(memory.has('ns/u', 'b/0', 'user', 'h1')).toBe(false);
    memory.record('ns/u', 'b/0', 'user', 'h1');
    memory.forget('ns/u');
    expect(memory.has('ns/u', 'b/0', 'user', 'h1')).toBe(false);
  });
});
