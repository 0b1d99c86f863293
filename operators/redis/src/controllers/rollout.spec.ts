import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { MemberPod } from './members.ts';
import { outdatedMembers, rolloutPlan } from './rollout.ts';

function member(ordinal: number, revision: string): MemberPod {
  const name = `c-${ordinal}`;
  const pod: V1Pod = { metadata: { name, labels: { 'controller-revision-hash': revision } } };
  return { pod, name, ordinal };
}

describe('rolloutPlan', () => {
  it('lets the StatefulSet replace only Pods above an outdated primary, then switches over to one of them', () => {
    const members = [member(0, 'old'), member(1, 'old'), member(2, 'old')];
    expect(rolloutPlan({ updateRevision: 'new', members, primary: 'c-0', converged: true })).toEqual({ partition: 1 });
    const aboveDone = [member(0, 'old'), member(1, 'new'), member(2, 'new')];
    expect(rolloutPlan({ updateRevision: 'new', members: aboveDone, primary: 'c-0', converged: false })).toEqual({ partition: 1 });
    expect(rolloutPlan({ updateRevision: 'new', members: aboveDone, primary: 'c-0', converged: true })).toEqual({ partition: 1, switchoverTo: ['c-1', 'c-2'] });
    expect(rolloutPlan({ updateRevision: 'new', members: aboveDone, primary: 'c-1', converged: true })).toEqual({ partition: 0 });
  });

  it('with the primary at the highest ordinal, hands the role down first', () => {
    const members = [member(0, 'old'), member(1, 'old'), member(2, 'old')];
    expect(rolloutPlan({ updateRevision: 'new', members, primary: 'c-2', converged: true })).toEqual({ partition: 3, switchoverTo: ['c-0', 'c-1'] });
  });

  it('protects the primary while the revision is unknown, and does not protect a lone or current primary', () => {
    const members = [member(0, 'old'), member(1, 'old')];
    expect(rolloutPlan({ updateRevision: undefined, members, primary: 'c-0', converged: true })).toEqual({ partition: 1 });
    expect(rolloutPlan({ updateRevision: 'new', members: [member(0, 'old')], primary: 'c-0', converged: true })).toEqual({ partition: 0 });
    expect(rolloutPlan({ updateRevision: 'new', members: [member(0, 'new'), member(1, 'old')], primary: 'c-0', converged: true })).toEqual({ partition: 0 });
    expect(rolloutPlan({ updateRevision: 'new', members, primary: undefined, converged: true })).toEqual({ partition: 0 });
  });
});

describe('outdatedMembers', () => {
  it('names the members not on the update revision, and every member while the revision is unknown', () => {
    const members = [member(0, 'new'), member(1, 'old'), member(2, 'new')];
    expect(outdatedMembers('new', members)).toEqual(['c-1']);
    expect(outdatedMembers('old', members)).toEqual(['c-0', 'c-2']);
    expect(outdatedMembers(undefined, members)).toEqual(['c-0', 'c-1', 'c-2']);
    expect(outdatedMembers('new', [])).toEqual([]);
  });
});
