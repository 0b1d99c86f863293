import { describe, expect, it } from 'vitest';
import { parseSchedule } from '@domain-operators/reconcile';
import type { ObservedSnapshot, SnapshotState } from '../opensearch/snapshot-types.ts';
import type { PolicyInput } from './opensearchsnapshotpolicy.plan.ts';
import { parseRetentionAge, planPolicy, retentionVictims, snapshotStamp, tokenKey } from './opensearchsnapshotpolicy.plan.ts';

/** A snapshot of policy team-a/p; `metadata: null` for one without (made by hand). */
function snapshot(stamp: string, state: SnapshotState = 'SUCCESS', metadata: Record<string, string> | null = { policy: 'team-a/p' }): ObservedSnapshot {
  return { name: `team-a-p-${stamp}`, uuid: stamp, state, indices: [], shardsTotal: 1, shardsFailed: 0, shardsSuccessful: 1, ...(metadata === null ? {} : { metadata }) };
}

function input(overrides: Partial<PolicyInput> = {}): PolicyInput {
  const parsed = parseSchedule('0 * * * *');
  if (!parsed.ok) throw new Error(parsed.message);
  return { namespace: 'team-a', policy: 'p', now: new Date('2026-12-01T12:30:00Z'), schedule: parsed.schedule, suspend: false, snapshots: [], ...overrides };
}

const names = (snapshots: readonly ObservedSnapshot[]): string[] => snapshots.map((s) => s.name);
const stampOf = (s: ObservedSnapshot): number => snapshotStamp(s.name, 'team-a', 'p') ?? 0;

describe('planPolicy', () => {
  it('owes the latest slot when no snapshot was started at or after it', () => {
    expect(planPolicy(input({ snapshots: [snapshot('20261201110000')] })).action).toEqual({
      kind: 'take',
      snapshot: { name: 'team-a-p-20261201123000', slot: new Date('2026-12-01T12:00:00Z') },
    });
    expect(planPolicy(input({ snapshots: [snapshot('20261201120000')] })).action.kind).toBe('prune');
    // A failed one covers its slot too; so does an attempt only the status records.
    expect(planPolicy(input({ snapshots: [snapshot('20261201120001', 'FAILED')] })).action.kind).toBe('prune');
    expect(planPolicy(input({ recordedName: 'team-a-p-20261201120002' })).action.kind).toBe('prune');
    expect(planPolicy(input({ notBefore: new Date('2026-12-01T12:10:00Z') })).action.kind).toBe('prune');
  });

  it('counts a look-alike without metadata for slots (never a second snapshot) but not for retention', () => {
    const plan = planPolicy(input({ snapshots: [snapshot('20261201120500', 'SUCCESS', null)], retention: { maxCount: 1 } }));
    expect(plan.action).toEqual({ kind: 'prune', victims: [] });
    expect(plan.owned).toEqual([]);
    expect(names(plan.own)).toEqual(['team-a-p-20261201120500']);
  });

  it('waits for one in progress, whatever is owed', () => {
    const running = snapshot('20261201110000', 'IN_PROGRESS');
    const plan = planPolicy(input({ snapshots: [running], manualToken: 'x' }));
    expect(plan.action).toEqual({ kind: 'wait', inProgress: running });
  });

  it('ignores other policies and hand-made names', () => {
    const other: ObservedSnapshot = { ...snapshot('20261201120000'), name: 'team-a-p-x-20261201120000' };
    const handMade: ObservedSnapshot = { ...snapshot('20261201120000', 'IN_PROGRESS'), name: 'team-a-p-keep' };
    expect(planPolicy(input({ snapshots: [other, handMade] })).action.kind).toBe('take');
  });

  it('owes a new token a snapshot unless a listed one carries it', () => {
    const covered = [snapshot('20261201120000')];
    expect(planPolicy(input({ snapshots: covered, manualToken: 'drill' })).action).toEqual({ kind: 'take', snapshot: { name: 'team-a-p-20261201123000', token: 'drill' } });
    expect(planPolicy(input({ snapshots: covered, manualToken: 'drill', lastManualToken: 'drill' })).action.kind).toBe('prune');
    expect(planPolicy(input({ snapshots: covered, manualToken: '' })).action.kind).toBe('prune');
    const carried = planPolicy(input({ snapshots: [snapshot('20261201120000', 'SUCCESS', { policy: 'team-a/p', snapshotNowToken: 'drill' })], manualToken: 'drill' }));
    expect(carried.action.kind).toBe('prune');
    expect(carried.tokenTaken).toBe('drill');
  });

  it('shows no next slot and owes none while suspended', () => {
    const plan = planPolicy(input({ suspend: true }));
    expect(plan.next).toBeUndefined();
    expect(plan.action.kind).toBe('prune');
    expect(planPolicy(input()).next).toEqual(new Date('2026-12-01T13:00:00Z'));
  });
});

describe('retentionVictims', () => {
  const now = new Date('2026-12-10T00:00:00Z');
  const newestFirst = (list: ObservedSnapshot[]): ObservedSnapshot[] => [...list].sort((a, b) => stampOf(b) - stampOf(a));

  it('keeps maxCount successful ones; failed and partial ones go once a newer success exists', () => {
    const own = newestFirst([snapshot('20261201000000', 'FAILED'), snapshot('20261202000000'), snapshot('20261203000000', 'PARTIAL'), snapshot('20261204000000'), snapshot('20261205000000')]);
    expect(names(retentionVictims(own, { maxCount: 2 }, now, stampOf))).toEqual(['team-a-p-20261201000000', 'team-a-p-20261202000000', 'team-a-p-20261203000000']);
    // The newest failed one stays while no success is newer.
    const failing = newestFirst([snapshot('20261204000000'), snapshot('20261205000000', 'FAILED')]);
    expect(names(retentionVictims(failing, { maxCount: 5 }, now, stampOf))).toEqual([]);
  });

  it('deletes by maxAge down to minCount, and never one in progress', () => {
    const own = newestFirst([snapshot('20261201000000'), snapshot('20261202000000'), snapshot('20261203000000'), snapshot('20261209000000', 'IN_PROGRESS')]);
    const week = 7 * 86_400_000;
    expect(names(retentionVictims(own, { maxAgeMs: week }, now, stampOf))).toEqual(['team-a-p-20261201000000', 'team-a-p-20261202000000']);
    expect(names(retentionVictims(own, { maxAgeMs: week, minCount: 2 }, now, stampOf))).toEqual(['team-a-p-20261201000000']);
    expect(names(retentionVictims(own, { maxAgeMs: 86_400_000, minCount: 3 }, now, stampOf))).toEqual([]);
  });
});

describe('names, tokens and ages', () => {
  it('read the stamp of a policy snapshot only', () => {
    expect(snapshotStamp('team-a-p-20261201123456', 'team-a', 'p')).toBe(Date.parse('2026-12-01T12:34:56Z'));
    expect(snapshotStamp('team-a-p-x-20261201123456', 'team-a', 'p')).toBeUndefined();
    expect(snapshotStamp('team-a-p-2026120112345', 'team-a', 'p')).toBeUndefined();
  });

  it('store short tokens as they are and long ones hashed', () => {
    expect(tokenKey('2026-12-01-drill')).toBe('2026-12-01-drill');
    expect(tokenKey('x'.repeat(200))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('parse retention ages', () => {
    expect([parseRetentionAge('90m'), parseRetentionAge('12h'), parseRetentionAge('7d'), parseRetentionAge('2w')]).toEqual([5_400_000, 43_200_000, 604_800_000, 1_209_600_000]);
    expect([parseRetentionAge('7'), parseRetentionAge('0d'), parseRetentionAge('1y'), parseRetentionAge('')]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
