import { describe, expect, it } from 'vitest';
import { chooseSource } from './source-member.ts';
import type { CandidateMember } from './source-member.ts';

function primary(pod: string, offset: number): CandidateMember {
  return { pod, address: { host: pod, port: 6379 }, info: { replication: { role: 'primary', offset, replid: 'r', replicas: [] }, keys: 1 } };
}

function replica(pod: string, offset: number, linkUp = true, syncInProgress = false): CandidateMember {
  return { pod, address: { host: pod, port: 6379 }, info: { replication: { role: 'replica', primaryHost: 'p', primaryPort: 6379, linkUp, syncInProgress, offset, replid: 'r' }, keys: 1 } };
}

describe('chooseSource', () => {
  it('prefers the linked replica with the highest offset', () => {
    const choice = chooseSource('PreferReplica', [primary('c-0', 900), replica('c-1', 800), replica('c-2', 850), replica('c-3', 999, false)]);
    expect(choice.ok && choice.member.pod).toBe('c-2');
  });

  it('takes the primary when no replica is linked, or when asked to', () => {
    expect(chooseSource('PreferReplica', [primary('c-0', 9), replica('c-1', 9, false), replica('c-2', 9, true, true)])).toMatchObject({ ok: true, member: { pod: 'c-0' } });
    expect(chooseSource('Primary', [primary('c-0', 9), replica('c-1', 9)])).toMatchObject({ ok: true, member: { pod: 'c-0' } });
  });

  it('refuses to choose while two members claim to be primary, or none is ready', () => {
    expect(chooseSource('Primary', [primary('c-0', 1), primary('c-1', 2)])).toEqual({ ok: false, message: '2 members report role primary (c-0, c-1): waiting for the topology to settle' });
    expect(chooseSource('PreferReplica', [])).toEqual({ ok: false, message: 'no member is ready' });
  });
});
