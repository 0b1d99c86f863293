import { describe, expect, it } from 'vitest';
import { getCondition } from '@domain-operators/reconcile';
import type { OpenSearchSnapshotPolicy } from '../api/v1alpha1/index.ts';
import { SNAPSHOT_NOW_ANNOTATION } from '../api/v1alpha1/index.ts';
import { policyResource, policyWorld, repositoryResource } from './opensearchsnapshotpolicy.test-support.ts';

const UID = 'uid-nightly';
const REPO = 'backups';

function ready(world: ReturnType<typeof policyWorld>) {
  return getCondition(world.status(UID).conditions, 'Ready');
}

function withToken(policy: OpenSearchSnapshotPolicy, token: string): OpenSearchSnapshotPolicy {
  return { ...policy, metadata: Object.assign({}, policy.metadata, { annotations: { ...policy.metadata.annotations, [SNAPSHOT_NOW_ANNOTATION]: token } }) };
}

describe('OpenSearchSnapshotPolicy on its schedule', () => {
  it('takes one snapshot for the slot, waits while it runs, then reports it and waits for the next slot', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource());

    const first = await w.reconcile(UID);
    expect(w.snapshots.creates()).toEqual([
      {
        op: 'create',
        repository: REPO,
        name: 'team-a-nightly-20261201120010',
        body: { indices: ['team-a-logs-*'], include_global_state: false, ignore_unavailable: true, partial: false, metadata: { policy: 'team-a/nightly', slot: '2026-12-01T12:00:00.000Z' } },
      },
    ]);
    // Looked at again soon while it is young: after 100 ms, then a tenth of its age, at most every 5 s.
    expect(first).toEqual({ kind: 'requeueAfter', delayMs: 100 });
    expect(w.status(UID)).toMatchObject({
      lastSnapshot: { name: 'team-a-nightly-20261201120010', state: 'IN_PROGRESS' },
      nextSnapshotTime: '2026-12-01T12:01:00.000Z',
      snapshotCount: 1,
      observedGeneration: 1,
    });
    expect(w.eventReasons()).toEqual(['SnapshotStarted']);

    // Still running: nothing started, nothing written.
    w.clock.advance(4_000);
    const writes = w.objects.statusWrites;
    expect(await w.reconcile(UID)).toEqual({ kind: 'requeueAfter', delayMs: 400 });
    w.clock.advance(40_000);
    expect(await w.reconcile(UID)).toEqual({ kind: 'requeueAfter', delayMs: 4_400 });
    expect(w.snapshots.creates()).toHaveLength(1);
    expect(w.objects.statusWrites).toBe(writes);

    w.snapshots.finish(REPO, 'team-a-nightly-20261201120010');
    const idle = await w.reconcile(UID);
    expect(w.snapshots.creates()).toHaveLength(1);
    expect(w.status(UID)).toMatchObject({ lastSnapshot: { name: 'team-a-nightly-20261201120010', state: 'SUCCESS', shardsTotal: 2, shardsFailed: 0 }, snapshotCount: 1 });
    expect(ready(w)).toMatchObject({ status: 'True', reason: 'Scheduled', observedGeneration: 1 });
    expect(getCondition(w.status(UID).conditions, 'Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess' });
    expect(w.eventReasons()).toEqual(['SnapshotStarted', 'SnapshotTaken']);
    // Until the next slot (12:01:00) from 12:00:54, a little late rather than early.
    expect(idle).toEqual({ kind: 'requeueAfter', delayMs: 6_250 });

    // At the next slot: one more.
    w.clock.set('2026-12-01T12:01:00.300Z');
    await w.reconcile(UID);
    expect(w.snapshots.creates().map((call) => call.name)).toEqual(['team-a-nightly-20261201120010', 'team-a-nightly-20261201120100']);
  });

  it('owes no slot from before its creation', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource('nightly', { schedule: '0 * * * *' }, { creationTimestamp: new Date('2026-12-01T12:00:05Z') }));
    const result = await w.reconcile(UID);
    expect(w.snapshots.creates()).toEqual([]);
    expect(w.status(UID)).toMatchObject({ nextSnapshotTime: '2026-12-01T13:00:00.000Z', snapshotCount: 0 });
    expect(ready(w)).toMatchObject({ status: 'True', reason: 'Scheduled', message: 'no snapshot yet; next at 2026-12-01T13:00:00.000Z ("0 * * * *" in UTC)' });
    expect(result).toEqual({ kind: 'requeueAfter', delayMs: 3_590_250 });
  });

  it('reads the schedule in its time zone', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource('nightly', { schedule: '0 2 * * *', timeZone: 'Europe/Berlin' }));
    await w.reconcile(UID);
    expect(w.status(UID).nextSnapshotTime).toBe('2026-12-02T01:00:00.000Z');
  });

  it('takes one snapshot for many slots missed while the operator was down', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource());
    await w.reconcile(UID);
    w.snapshots.finishAll(REPO);
    // Down from 12:00:20 to 12:07:30.
    w.clock.set('2026-12-01T12:07:30Z');
    await w.reconcile(UID);
    w.snapshots.finishAll(REPO);
    await w.reconcile(UID);
    expect(w.snapshots.creates().map((call) => [call.name, call.body?.metadata?.['slot']])).toEqual([
      ['team-a-nightly-20261201120010', '2026-12-01T12:00:00.000Z'],
      ['team-a-nightly-20261201120730', '2026-12-01T12:07:00.000Z'],
    ]);
  });

  it('never takes a second snapshot for a slot after a crash before its status write, or a lost answer', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource());
    const before = w.objects.current(UID);
    w.control.failStatus = true;
    await expect(w.reconcile(UID)).rejects.toThrow(/apiserver is unreachable/);
    expect(w.snapshots.creates()).toHaveLength(1);
    // A new process (no memory), the status never written: the listing says the slot is taken.
    w.control.failStatus = false;
    const restarted = policyWorld({ now: '2026-12-01T12:00:15Z' });
    restarted.snapshots.add(REPO, { ...w.snapshots.list(REPO)[0]!, state: 'IN_PROGRESS' });
    restarted.objects.put(before);
    await restarted.reconcile(UID);
    restarted.snapshots.finishAll(REPO);
    await restarted.reconcile(UID);
    expect(restarted.snapshots.creates()).toEqual([]);
    expect(restarted.status(UID)).toMatchObject({ lastSnapshot: { name: 'team-a-nightly-20261201120010', state: 'SUCCESS' } });

    // The create went through but its answer was lost: retried with backoff, and the retry finds it.
    const lost = policyWorld({ now: '2026-12-01T12:00:10Z' });
    lost.objects.put(policyResource());
    lost.snapshots.loseAnswers = true;
    await expect(lost.reconcile(UID)).rejects.toMatchObject({ reason: 'OpenSearchUnavailable' });
    expect(getCondition(lost.status(UID).conditions, 'Synced')).toMatchObject({ status: 'False', reason: 'OpenSearchUnavailable' });
    lost.snapshots.loseAnswers = false;
    lost.clock.advance(1_000);
    await lost.reconcile(UID);
    expect(lost.snapshots.creates()).toHaveLength(1);
  });

  it('takes nothing on a stale cached copy that lacks its own last status write', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource('nightly', { repositoryRef: { name: 'ro' } }));
    w.repositories.replace([repositoryResource('backups'), repositoryResource('ro')]);
    w.snapshots.refuse = 'cannot create snapshot in a readonly repository';
    const stale = w.objects.current(UID);
    await w.reconcile(UID);
    expect(w.snapshots.creates()).toHaveLength(1);
    // The cache still shows the version before the refusal was recorded: the memory of the write covers it.
    await w.reconcile(UID, stale);
    expect(w.snapshots.creates()).toHaveLength(1);
  });

  it('waits while OpenSearch is unreachable and takes the slot once it answers', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource());
    w.snapshots.unavailable = true;
    await expect(w.reconcile(UID)).rejects.toMatchObject({ reason: 'OpenSearchUnavailable' });
    // No Ready before: it is written False with the reason; Synced says the same.
    expect(ready(w)).toMatchObject({ status: 'False', reason: 'OpenSearchUnavailable' });
    expect(w.status(UID).observedGeneration).toBe(1);
    w.snapshots.unavailable = false;
    w.clock.set('2026-12-01T12:00:40Z');
    await w.reconcile(UID);
    expect(w.snapshots.creates().map((call) => call.name)).toEqual(['team-a-nightly-20261201120040']);
  });

  it('gives a snapshot its own name when another was taken in the same second', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10.200Z' });
    w.objects.put(withToken(policyResource(), 'a'));
    await w.reconcile(UID);
    w.snapshots.finishAll(REPO);
    w.objects.edit(UID, (p) => withToken(p, 'b'));
    w.clock.advance(300);
    await w.reconcile(UID);
    expect(w.snapshots.creates().map((call) => call.name)).toEqual(['team-a-nightly-20261201120010', 'team-a-nightly-20261201120011']);
  });
});

describe('OpenSearchSnapshotPolicy snapshot-now', () => {
  it('takes one snapshot per new token, records the token once OpenSearch accepted it, and none for the same token', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(withToken(policyResource('nightly', { schedule: '0 0 1 1 *' }), 'first'));
    await w.reconcile(UID);
    expect(w.snapshots.creates().map((call) => call.body?.metadata)).toEqual([{ policy: 'team-a/nightly', snapshotNowToken: 'first' }]);
    expect(w.status(UID).lastManualToken).toBe('first');
    w.snapshots.finishAll(REPO);
    await w.reconcile(UID);
    await w.reconcile(UID);
    expect(w.snapshots.creates()).toHaveLength(1);

    w.objects.edit(UID, (p) => withToken(p, 'second'));
    w.clock.advance(2_000);
    await w.reconcile(UID);
    expect(w.snapshots.creates()).toHaveLength(2);
    expect(w.status(UID).lastManualToken).toBe('second');
  });

  it('records a token whose snapshot was started before a crash, without taking another', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(withToken(policyResource('nightly', { schedule: '0 0 1 1 *' }), 'restore-drill'));
    w.control.failStatus = true;
    await expect(w.reconcile(UID)).rejects.toThrow();
    w.control.failStatus = false;
    const restarted = policyWorld({ now: '2026-12-01T12:00:20Z' });
    for (const snapshot of w.snapshots.list(REPO)) restarted.snapshots.add(REPO, { ...snapshot, state: 'SUCCESS' });
    restarted.objects.put(w.objects.current(UID));
    await restarted.reconcile(UID);
    expect(restarted.snapshots.creates()).toEqual([]);
    expect(restarted.status(UID).lastManualToken).toBe('restore-drill');
  });

  it('is one snapshot when a slot and a token are owed together', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(withToken(policyResource(), 't'));
    await w.reconcile(UID);
    w.snapshots.finishAll(REPO);
    await w.reconcile(UID);
    expect(w.snapshots.creates().map((call) => call.body?.metadata)).toEqual([{ policy: 'team-a/nightly', slot: '2026-12-01T12:00:00.000Z', snapshotNowToken: 't' }]);
  });

  it('works while suspended, which takes no scheduled snapshot and shows no next time', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put({ ...policyResource('nightly', { suspend: true }), status: { nextSnapshotTime: '2026-12-01T12:00:00Z' } });
    await w.reconcile(UID);
    expect(w.snapshots.creates()).toEqual([]);
    // Removed (null in a merge patch).
    expect(w.status(UID).nextSnapshotTime ?? undefined).toBeUndefined();
    expect(ready(w)).toMatchObject({ status: 'True', reason: 'Suspended' });
    w.objects.edit(UID, (p) => withToken(p, 'now'));
    await w.reconcile(UID);
    expect(w.snapshots.creates().map((call) => call.body?.metadata)).toEqual([{ policy: 'team-a/nightly', snapshotNowToken: 'now' }]);
  });

  it('keeps a refused token unrecorded and tries it again at the refused-retry pace', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z', refusedRetryMs: 30_000 });
    w.objects.put(withToken(policyResource('nightly', { schedule: '0 0 1 1 *' }), 'x'));
    w.snapshots.refuse = 'cannot create snapshot in a readonly repository';
    expect(await w.reconcile(UID)).toEqual({ kind: 'requeueAfter', delayMs: 30_000 });
    expect(w.status(UID).lastManualToken).toBeUndefined();
    w.snapshots.refuse = undefined;
    w.clock.advance(30_000);
    await w.reconcile(UID);
    expect(w.status(UID).lastManualToken).toBe('x');
    expect(w.snapshots.creates()).toHaveLength(2);
  });
});

describe('OpenSearchSnapshotPolicy failures', () => {
  it('shows LastSnapshotFailed with OpenSearch’s reason for a refused start, and does not retry the slot before the next one', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource());
    w.snapshots.refuse = 'cannot create snapshot in a readonly repository';
    const result = await w.reconcile(UID);
    expect(ready(w)).toMatchObject({
      status: 'False',
      reason: 'LastSnapshotFailed',
      message: 'OpenSearch refused to start snapshot team-a-nightly-20261201120010: start snapshot team-a-nightly-20261201120010 in repository backups: repository_exception: [backups] cannot create snapshot in a readonly repository',
    });
    expect(w.status(UID)).toMatchObject({ lastSnapshot: { name: 'team-a-nightly-20261201120010', state: 'FAILED' }, observedGeneration: 1 });
    expect(w.events.events.map((e) => [e.type, e.reason])).toEqual([['Warning', 'SnapshotFailed']]);
    expect(result).toEqual({ kind: 'requeueAfter', delayMs: 50_250 });
    // Looked at again within the slot: no new attempt, the message stays.
    w.clock.advance(20_000);
    await w.reconcile(UID);
    expect(w.snapshots.creates()).toHaveLength(1);
    expect(ready(w)?.message).toMatch(/readonly repository/);
    // The next slot tries again; a success clears it.
    w.snapshots.refuse = undefined;
    w.clock.set('2026-12-01T12:01:00.500Z');
    await w.reconcile(UID);
    expect(ready(w)).toMatchObject({ status: 'False', reason: 'LastSnapshotFailed' });
    w.snapshots.finishAll(REPO);
    await w.reconcile(UID);
    expect(ready(w)).toMatchObject({ status: 'True', reason: 'Scheduled' });
  });

  it('shows LastSnapshotFailed with OpenSearch’s reason for a snapshot that ended FAILED or PARTIAL', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:10Z' });
    w.objects.put(policyResource());
    await w.reconcile(UID);
    w.snapshots.finish(REPO, 'team-a-nightly-20261201120010', 'PARTIAL', 'IndexShardSnapshotFailedException[disk full]');
    await w.reconcile(UID);
    expect(ready(w)).toMatchObject({
      status: 'False',
      reason: 'LastSnapshotFailed',
      message: 'snapshot team-a-nightly-20261201120010 ended PARTIAL (1 of 2 shards failed): IndexShardSnapshotFailedException[disk full]',
    });
    expect(w.status(UID)).toMatchObject({ lastSnapshot: { state: 'PARTIAL', shardsFailed: 1 } });
    expect(w.events.events.at(-1)).toMatchObject({ type: 'Warning', reason: 'SnapshotFailed' });
    // A failed snapshot covers its slot: nothing more until the next one.
    await w.reconcile(UID);
    expect(w.snapshots.creates()).toHaveLength(1);
  });
});

describe('OpenSearchSnapshotPolicy retention', () => {
  it('keeps maxCount of its own successful snapshots, deletes superseded failed ones, and never another policy’s or a hand-made one', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:30Z' });
    w.objects.put(policyResource('nightly', { schedule: '0 0 1 1 *', retention: { maxCount: 2 } }));
    const mine = { metadata: { policy: 'team-a/nightly' } };
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201100000', ...mine });
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201100500', state: 'FAILED', ...mine });
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201101000', ...mine });
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201101500', ...mine });
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201102000', ...mine });
    // Another policy whose name extends this one, a look-alike made by hand, and something else entirely.
    w.snapshots.add(REPO, { name: 'team-a-nightly-x-20261201090000', metadata: { policy: 'team-a/nightly-x' } });
    w.snapshots.add(REPO, { name: 'team-a-nightly-20200101000000' });
    w.snapshots.add(REPO, { name: 'team-a-nightly-before-upgrade' });
    await w.reconcile(UID);
    expect(w.snapshots.calls.filter((c) => c.op === 'delete').map((c) => c.name)).toEqual(['team-a-nightly-20261201100000', 'team-a-nightly-20261201100500', 'team-a-nightly-20261201101000']);
    expect(w.snapshots.names(REPO)).toEqual(['team-a-nightly-20200101000000', 'team-a-nightly-20261201101500', 'team-a-nightly-20261201102000', 'team-a-nightly-before-upgrade', 'team-a-nightly-x-20261201090000']);
    expect(w.status(UID)).toMatchObject({ snapshotCount: 2, lastSnapshot: { name: 'team-a-nightly-20261201102000', state: 'SUCCESS' } });
    expect(w.eventReasons()).toEqual(['SnapshotTaken', 'SnapshotDeleted', 'SnapshotDeleted', 'SnapshotDeleted']);
  });

  it('deletes by maxAge down to minCount, never one in progress, and comes back when the next one expires', async () => {
    const w = policyWorld({ now: '2026-12-08T12:00:30Z' });
    w.objects.put(policyResource('nightly', { schedule: '0 0 1 1 *', retention: { maxAge: '7d', minCount: 2 } }));
    const mine = { metadata: { policy: 'team-a/nightly' } };
    for (const day of ['20261130', '20261201', '20261202', '20261203']) w.snapshots.add(REPO, { name: `team-a-nightly-${day}120000`, ...mine });
    // In progress: nothing is deleted while it runs.
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261208120000', state: 'IN_PROGRESS', ...mine });
    await w.reconcile(UID);
    expect(w.snapshots.calls.filter((c) => c.op === 'delete')).toEqual([]);
    w.snapshots.finishAll(REPO);
    const result = await w.reconcile(UID);
    // 30 Nov and 1 Dec are older than 7 days; 2 and 3 Dec are younger (and minCount 2 would keep two anyway).
    expect(w.snapshots.calls.filter((c) => c.op === 'delete').map((c) => c.name)).toEqual(['team-a-nightly-20261130120000', 'team-a-nightly-20261201120000']);
    // The 2 December one expires on 9 December 12:00:01.
    expect(result).toEqual({ kind: 'requeueAfter', delayMs: 3_600_000 });

    const floor = policyWorld({ now: '2026-12-31T00:00:00Z' });
    floor.objects.put(policyResource('nightly', { schedule: '0 0 1 1 *', retention: { maxAge: '7d', minCount: 2 } }));
    for (const day of ['20261130', '20261201', '20261202']) floor.snapshots.add(REPO, { name: `team-a-nightly-${day}120000`, ...mine });
    await floor.reconcile(UID);
    expect(floor.snapshots.names(REPO)).toEqual(['team-a-nightly-20261201120000', 'team-a-nightly-20261202120000']);
  });

  it('waits with its deletes while any snapshot runs in the repository (OpenSearch would hold them until it ends)', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:30Z', busyRetryMs: 20_000 });
    w.objects.put(policyResource('nightly', { schedule: '0 0 1 1 *', retention: { maxCount: 1 } }));
    const mine = { metadata: { policy: 'team-a/nightly' } };
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201100000', ...mine });
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201110000', ...mine });
    w.snapshots.add(REPO, { name: 'team-b-weekly-20261201120000', state: 'IN_PROGRESS', metadata: { policy: 'team-b/weekly' } });
    expect(await w.reconcile(UID)).toEqual({ kind: 'requeueAfter', delayMs: 20_000 });
    expect(w.snapshots.calls.filter((c) => c.op === 'delete')).toEqual([]);
    w.snapshots.finishAll(REPO);
    await w.reconcile(UID);
    expect(w.snapshots.calls.filter((c) => c.op === 'delete').map((c) => c.name)).toEqual(['team-a-nightly-20261201100000']);
  });

  it('retries a delete OpenSearch refuses, without stopping the schedule', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:30Z' });
    w.objects.put(policyResource('nightly', { schedule: '0 0 1 1 *', retention: { maxCount: 1 } }));
    const mine = { metadata: { policy: 'team-a/nightly' } };
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201100000', ...mine });
    w.snapshots.add(REPO, { name: 'team-a-nightly-20261201110000', ...mine });
    w.snapshots.refuseDeletes = 'concurrent_snapshot_execution_exception: cannot delete snapshot during a restore';
    await expect(w.reconcile(UID)).rejects.toMatchObject({ name: 'OpenSearchError', reason: 'OpenSearchError' });
    expect(getCondition(w.status(UID).conditions, 'Synced')).toMatchObject({ status: 'False', reason: 'OpenSearchError', message: expect.stringContaining('during a restore') as string });
  });

  it('deletes nothing without retention', async () => {
    const w = policyWorld({ now: '2026-12-01T12:00:30Z' });
    w.objects.put(policyResource('nightly', { schedule: '0 0 1 1 *' }));
    for (const name of ['team-a-nightly-20261101000000', 'team-a-nightly-20261102000000']) w.snapshots.add(REPO, { name, state: 'FAILED', metadata: { policy: 'team-a/nightly' } });
    await w.reconcile(UID);
    expect(w.snapshots.calls.filter((c) => c.op === 'delete')).toEqual([]);
  });
});

describe('OpenSearchSnapshotPolicy tenancy', () => {
  async function refusal(policy: OpenSearchSnapshotPolicy, setup?: (w: ReturnType<typeof policyWorld>) => void) {
    const w = policyWorld();
    setup?.(w);
    w.objects.put(policy);
    const error = await w.reconcile(policy.metadata.uid ?? '').then(
      () => undefined,
      (err: unknown) => err,
    );
    return { w, error: error as { name?: string; reason?: string; message?: string } | undefined };
  }

  it('refuses a repository whose selector does not admit the namespace, before any request', async () => {
    const { w, error } = await refusal(policyResource('nightly', { indices: ['team-b-logs-*'] }, { namespace: 'team-b', uid: UID }));
    expect(error).toMatchObject({ name: 'TerminalError', reason: 'TenancyViolation', message: 'namespace "team-b" is not selected by OpenSearchSnapshotRepository "backups" (tenancy.namespaceSelector)' });
    expect(w.snapshots.calls).toEqual([]);
    expect(ready(w)).toMatchObject({ status: 'False', reason: 'TenancyViolation' });
    expect(getCondition(w.status(UID).conditions, 'Synced')).toMatchObject({ status: 'False', reason: 'TenancyViolation' });
  });

  it('refuses a repository without a selector, or on another connection', async () => {
    const none = await refusal(policyResource(), (w) => w.repositories.replace([repositoryResource('backups', { tenancy: {} })]));
    expect(none.error).toMatchObject({ reason: 'TenancyViolation' });
    const other = await refusal(policyResource(), (w) => w.repositories.replace([repositoryResource('backups', { connectionRef: { name: 'other' } })]));
    expect(other.error).toMatchObject({ reason: 'TenancyViolation', message: 'OpenSearchSnapshotRepository "backups" is on connection "other", this policy on "main"' });
    expect(other.w.snapshots.calls).toEqual([]);
  });

  it('refuses index patterns outside the prefix and includeGlobalState, naming each', async () => {
    const { w, error } = await refusal(policyResource('nightly', { indices: ['team-a-ok-*', '*', 'team-b-logs', 'team-a-x,team-b-y'], includeGlobalState: true }));
    expect(error).toMatchObject({ reason: 'TenancyViolation' });
    expect(error?.message).toContain('indices[1] "*" is outside the prefix "team-a-"');
    expect(error?.message).toContain('indices[2] "team-b-logs" is outside the prefix "team-a-"');
    expect(error?.message).toContain('indices[3] "team-a-x,team-b-y" is a list');
    expect(error?.message).toContain('includeGlobalState must be false');
    expect(w.snapshots.calls).toEqual([]);
    expect(w.status(UID).nextSnapshotTime ?? undefined).toBeUndefined();
  });

  it('refuses an invalid schedule or zone with InvalidSpec and its message', async () => {
    const bad = await refusal(policyResource('nightly', { schedule: '61 * * * *' }));
    expect(bad.error).toMatchObject({ name: 'TerminalError', reason: 'InvalidSpec', message: 'schedule "61 * * * *": minute field "61" has 61, outside 0-59' });
    const zone = await refusal(policyResource('nightly', { timeZone: 'Europe/Atlantis' }));
    expect(zone.error).toMatchObject({ reason: 'InvalidSpec', message: expect.stringContaining('timeZone "Europe/Atlantis"') as string });
    expect(getCondition(zone.w.status(UID).conditions, 'Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
  });

  it('waits (retried) for a repository that is not cached yet', async () => {
    const { w, error } = await refusal(policyResource('nightly', { repositoryRef: { name: 'later' } }));
    expect(error).toMatchObject({ name: 'DependencyError', reason: 'SnapshotRepositoryNotFound' });
    expect(w.snapshots.calls).toEqual([]);
  });
});
