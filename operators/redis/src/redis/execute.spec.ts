import { describe, expect, it } from 'vitest';
import { executePlan } from './execute.ts';
import type { MemberAddress, TopologyAction } from './topology.ts';

const a0 = { host: '10.0.0.10', port: 6379 };
const a1 = { host: '10.0.0.11', port: 6379 };
const addresses = new Map([
  ['cache-0', a0],
  ['cache-1', a1],
]);

function recorder(failOn?: string): { calls: string[]; deps: Parameters<typeof executePlan>[2] } {
  const calls: string[] = [];
  const record = (call: string): Promise<void> => {
    calls.push(call);
    return call === failOn ? Promise.reject(new Error(`failed: ${call}`)) : Promise.resolve();
  };
  return {
    calls,
    deps: {
      client: {
        replicaOf: (m: MemberAddress, p: MemberAddress) => record(`replicaOf ${m.host} ${p.host}`),
        replicaOfNoOne: (m: MemberAddress) => record(`promote ${m.host}`),
      },
      labeler: { setRole: (pod, role) => record(`label ${pod} ${role}`) },
    },
  };
}

const plan: TopologyAction[] = [
  { kind: 'setRole', pod: 'cache-0', role: 'replica' },
  { kind: 'promote', pod: 'cache-1' },
  { kind: 'setRole', pod: 'cache-1', role: 'primary' },
  { kind: 'replicaOf', pod: 'cache-0', primary: 'cache-1', address: a1 },
];

describe('executePlan', () => {
  it('runs the actions in order', async () => {
    const { calls, deps } = recorder();
    await executePlan(plan, addresses, deps);
    expect(calls).toEqual(['label cache-0 replica', 'promote 10.0.0.11', 'label cache-1 primary', 'replicaOf 10.0.0.10 10.0.0.11']);
  });

  it('stops at the first failure and rethrows it', async () => {
    const { calls, deps } = recorder('promote 10.0.0.11');
    await expect(executePlan(plan, addresses, deps)).rejects.toThrow('failed: promote 10.0.0.11');
    expect(calls).toEqual(['label cache-0 replica', 'promote 10.0.0.11']);
  });

  it('does nothing when a member has no address', async () => {
    const { calls, deps } = recorder();
    await expect(executePlan(plan, new Map([['cache-0', a0]]), deps)).rejects.toThrow('no address for cache-1');
    expect(calls).toEqual([]);
  });
});
