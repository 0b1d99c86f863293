import { describe, expect, it } from 'vitest';
import { chooseSwitchover, fencedLag, parseSwitchoverRequest, SWITCHOVER_REASONS } from './switchover-request.ts';
import type { SwitchoverMember, SwitchoverSituation } from './switchover-request.ts';

const primary: SwitchoverMember = { pod: 'cache-0', role: 'primary', linkUp: true, holdsData: true };
const linked: SwitchoverMember = { pod: 'cache-1', role: 'replica', linkUp: true, holdsData: true };
const other: SwitchoverMember = { pod: 'cache-2', role: 'replica', linkUp: true, holdsData: true };

function situation(members: readonly SwitchoverMember[], converged = true): SwitchoverSituation {
  return { primary: 'cache-0', members, converged, notConvergedWhy: 'not answering: cache-2' };
}

describe('parseSwitchoverRequest', () => {
  it('reads a Pod name or best, spaces ignored, and refuses anything else with the reason and the value', () => {
    expect(parseSwitchoverRequest('cache-1')).toEqual({ to: 'member', pod: 'cache-1' });
    expect(parseSwitchoverRequest(' best ')).toEqual({ to: 'best' });
    for (const bad of ['', 'Cache-1', 'cache-1|best', 'cache_1']) {
      expect(parseSwitchoverRequest(bad)).toMatchObject({ status: 'False', reason: SWITCHOVER_REASONS.invalid, message: expect.stringContaining(JSON.stringify(bad)) as unknown });
    }
  });
});

describe('chooseSwitchover to a named member', () => {
  it('goes to that member alone when it is a linked replica with data', () => {
    expect(chooseSwitchover({ to: 'member', pod: 'cache-2' }, situation([primary, linked, other]))).toEqual({ candidates: ['cache-2'] });
  });

  it('refuses a member that is not linked, one that is not a replica, and one that is unknown, each by its own reason', () => {
    const down = { ...other, linkUp: false };
    expect(chooseSwitchover({ to: 'member', pod: 'cache-2' }, situation([primary, linked, down], false))).toMatchObject({ status: 'False', reason: SWITCHOVER_REASONS.memberNotLinked });
    const unknown: SwitchoverMember = { pod: 'cache-2', role: 'unknown', linkUp: false, holdsData: false };
    expect(chooseSwitchover({ to: 'member', pod: 'cache-2' }, situation([primary, linked, unknown], false))).toMatchObject({ reason: SWITCHOVER_REASONS.memberNotLinked });
    expect(chooseSwitchover({ to: 'member', pod: 'cache-7' }, situation([primary, linked]))).toMatchObject({ status: 'False', reason: SWITCHOVER_REASONS.memberNotFound });
  });

  it('refuses a linked member without data while the primary has data: the failover would not choose it either', () => {
    const empty = { ...other, holdsData: false };
    expect(chooseSwitchover({ to: 'member', pod: 'cache-2' }, situation([primary, linked, empty]))).toMatchObject({ status: 'False', reason: SWITCHOVER_REASONS.memberLagging });
  });

  it('needs nothing when the member is the primary already, and waits for nothing: True, AlreadyPrimary', () => {
    expect(chooseSwitchover({ to: 'member', pod: 'cache-0' }, situation([primary, linked], false))).toMatchObject({ status: 'True', reason: SWITCHOVER_REASONS.alreadyPrimary });
  });

  it('refuses a linked member while another member does not answer (the topology is not converged), saying why', () => {
    expect(chooseSwitchover({ to: 'member', pod: 'cache-1' }, situation([primary, linked, other], false))).toEqual({
      status: 'False',
      reason: SWITCHOVER_REASONS.notConverged,
      message: 'the topology is not converged: not answering: cache-2',
    });
  });
});

describe('chooseSwitchover to the best member', () => {
  it('offers every linked replica with data, never an unlinked or an empty one (the best of them is chosen after writes are held)', () => {
    const down = { ...other, pod: 'cache-3', linkUp: false };
    const empty = { ...other, pod: 'cache-4', holdsData: false };
    expect(chooseSwitchover({ to: 'best' }, situation([primary, linked, other, down, empty]))).toEqual({ candidates: ['cache-1', 'cache-2'] });
  });

  it('offers empty replicas when the primary is empty too (a fresh replication)', () => {
    const fresh = [{ ...primary, holdsData: false }, { ...linked, holdsData: false }];
    expect(chooseSwitchover({ to: 'best' }, situation(fresh))).toEqual({ candidates: ['cache-1'] });
  });

  it('refuses with NoLinkedReplica when no replica qualifies, and while the topology is not converged', () => {
    expect(chooseSwitchover({ to: 'best' }, situation([primary, { ...linked, holdsData: false }]))).toMatchObject({ status: 'False', reason: SWITCHOVER_REASONS.noLinkedReplica });
    expect(chooseSwitchover({ to: 'best' }, situation([primary, linked], false))).toMatchObject({ reason: SWITCHOVER_REASONS.notConverged });
    expect(chooseSwitchover({ to: 'best' }, { ...situation([linked]), primary: undefined })).toMatchObject({ reason: SWITCHOVER_REASONS.notConverged });
  });
});

describe('fencedLag', () => {
  it('lets a member promote only at or past the offset the primary held its writes at', () => {
    expect(fencedLag('cache-1', 1200, 1200)).toBeUndefined();
    expect(fencedLag('cache-1', 1237, 1200)).toBeUndefined();
    expect(fencedLag('cache-1', 1199, 1200)).toMatchObject({ status: 'False', reason: SWITCHOVER_REASONS.memberLagging, message: expect.stringContaining('offset 1199 of 1200') as unknown });
    expect(fencedLag('cache-1', undefined, 1200)).toMatchObject({ reason: SWITCHOVER_REASONS.memberLagging });
    expect(fencedLag('cache-1', 1200, undefined)).toMatchObject({ reason: SWITCHOVER_REASONS.memberLagging });
  });
});
