import type { V1Pod } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MemberInfo } from '../redis/info.ts';
import type { MemberAddress } from '../redis/topology.ts';
import { addressesOf, observeMembers } from './observe.ts';

const info: MemberInfo = { replication: { role: 'primary', offset: 10, replid: 'r', replicas: [] }, keys: 1 };

function member(name: string, ordinal: number, ip?: string, role?: string): { pod: V1Pod; name: string; ordinal: number } {
  return {
    name,
    ordinal,
    pod: { metadata: { name, labels: role === undefined ? {} : { 'redis.domain-operators.io/role': role } }, status: ip === undefined ? {} : { podIP: ip } },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('observeMembers', () => {
  it('reports answers, missing IPs, errors and members that never answer within the deadline', async () => {
    vi.useFakeTimers();
    const client = {
      info: (address: MemberAddress): Promise<MemberInfo> => {
        if (address.host === '10.0.0.1') return Promise.resolve(info);
        if (address.host === '10.0.0.2') return Promise.reject(new Error('MemberUnreachable: refused'));
        return new Promise<MemberInfo>(() => undefined); // frozen process
      },
    };
    const observing = observeMembers([member('c-0', 0, '10.0.0.1', 'primary'), member('c-1', 1, '10.0.0.2', 'bogus'), member('c-2', 2), member('c-3', 3, '10.0.0.3')], client, 500);
    await vi.advanceTimersByTimeAsync(500);
    const observed = await observing;
    expect(observed.map((m) => [m.pod, m.label, m.info === undefined ? m.error : 'info'])).toEqual([
      ['c-0', 'primary', 'info'],
      ['c-1', undefined, 'MemberUnreachable: refused'],
      ['c-2', undefined, 'the Pod has no IP yet'],
      ['c-3', undefined, 'INFO on 10.0.0.3:6379: no answer within 500 ms'],
    ]);
    expect([...addressesOf(observed).keys()]).toEqual(['c-0', 'c-1', 'c-3']);
    // How long each unanswered member was waited for: the deadline for the frozen one, nothing for the refusal.
    expect(observed.map((m) => m.unansweredForMs)).toEqual([undefined, 0, undefined, 500]);
  });
});
