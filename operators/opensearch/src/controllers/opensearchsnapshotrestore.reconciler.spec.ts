import type { V1Namespace } from '@kubernetes/client-node';
import { getCondition, silentLogger, TerminalError } from '@domain-operators/reconcile';
import type { ReconcileContext } from '@domain-operators/reconcile';
import { RecordingRecorder } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { OpenSearchSnapshotRepository, OpenSearchSnapshotRestore } from '../api/v1alpha1/index.ts';
import { OpenSearchError } from '../opensearch/errors.ts';
import type { Call } from './controller.test-support.ts';
import { fakeConnections, recordingClient } from './controller.test-support.ts';
import { restoreStatusWriter, SnapshotRestoreReconciler } from './opensearchsnapshotrestore.reconciler.ts';
import type { SnapshotRestoreOptions } from './opensearchsnapshotrestore.reconciler.ts';
import { FakeRestoreObjects, FakeSnapshotOpenSearch, mapStore } from './snapshot.test-support.ts';

const repository = (labels: Record<string, string>, connection = 'main'): OpenSearchSnapshotRepository => ({
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchSnapshotRepository',
  metadata: { name: 'backups', uid: 'repo-uid', generation: 1 },
  spec: { connectionRef: { name: connection }, repositoryName: 'backups', type: 'fs', settings: { location: '/snapshots/backups' }, tenancy: { namespaceSelector: { matchLabels: labels } }, deletionPolicy: 'Retain' },
});

const namespace: V1Namespace = { metadata: { name: 'team-a', labels: { tenant: 'yes' } } };

function restoreOf(spec: Partial<OpenSearchSnapshotRestore['spec']>, status?: OpenSearchSnapshotRestore['status']): OpenSearchSnapshotRestore {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchSnapshotRestore',
    metadata: { namespace: 'team-a', name: 'back', uid: 'restore-uid', generation: 1 },
    spec: { connectionRef: { name: 'main' }, repositoryRef: { name: 'backups' }, ...(spec.latestOf === undefined ? { snapshot: 'nightly' } : {}), indices: ['team-a-logs'], ...spec },
    ...(status === undefined ? {} : { status }),
  };
}

const context: ReconcileContext = { request: { namespace: 'team-a', name: 'back' }, reconcileId: 'test', log: silentLogger, signal: new AbortController().signal };

/** A reconciler over the fakes; `clock.ms` is its wall clock. */
function setup(object: OpenSearchSnapshotRestore, options: { readonly repository?: OpenSearchSnapshotRepository; readonly reconciler?: SnapshotRestoreOptions; readonly others?: readonly OpenSearchSnapshotRestore[] } = {}) {
  const openSearch = new FakeSnapshotOpenSearch();
  openSearch.addSnapshot('backups', { name: 'nightly', indices: ['team-a-logs', 'team-a-metrics', 'team-b-logs'] });
  const objects = new FakeRestoreObjects(object);
  const events = new RecordingRecorder();
  const clock = { ms: Date.parse('2026-12-01T12:00:00Z') };
  const make = () =>
    new SnapshotRestoreReconciler(
      {
        connections: fakeConnections(openSearch.api(), ['team-a', 'team-b']),
        repositories: mapStore(new Map([['backups', options.repository ?? repository({ tenant: 'yes' })]])),
        namespaces: mapStore(new Map([['team-a', namespace]])),
        restores: mapStore(new Map((options.others ?? []).map((other) => [`${other.metadata.namespace ?? ''}/${other.metadata.name ?? ''}`, other]))),
        status: objects,
        events,
        now: () => new Date(clock.ms),
      },
      { pollIntervalMs: 1_000, firstPollMs: 1_000, recheckIntervalMs: 30_000, stalledGraceMs: 10_000, ...options.reconciler },
    );
  const reconciler = make();
  return {
    openSearch,
    objects,
    events,
    clock,
    /** A second process (no memory of this one's writes). */
    restarted: make,
    reconcile: (cached = objects.current, over = reconciler) => over.reconcile(cached, context),
    ready: () => getCondition(objects.current.status?.conditions, 'Ready'),
    restores: () => openSearch.calls.filter((call) => call.op === 'restoreSnapshot'),
  };
}

describe('OpenSearchSnapshotRestore', () => {
  it('polls a young restore sooner: a tenth of its age, from firstPollMs up to pollIntervalMs', async () => {
    const t = setup(restoreOf({ indices: ['team-a-logs'] }), { reconciler: { firstPollMs: 100 } });
    expect(await t.reconcile()).toEqual({ kind: 'requeueAfter', delayMs: 100 });
    t.clock.ms += 6_000;
    expect(await t.reconcile()).toEqual({ kind: 'requeueAfter', delayMs: 600 });
    t.clock.ms += 10_000;
    expect(await t.reconcile()).toEqual({ kind: 'requeueAfter', delayMs: 1_000 });
  });

  it('restores with a rename: the write-ahead record, the call, its acceptance, then polls to Succeeded and does nothing more', async () => {
    const t = setup(restoreOf({ indices: ['team-a-logs', 'team-a-metrics'], renamePattern: 'team-a-(.+)', renameReplacement: 'team-a-restored-$1', indexSettings: { 'index.number_of_replicas': 0 } }));
    expect(await t.reconcile()).toEqual({ kind: 'requeueAfter', delayMs: 1_000 });
    expect(t.objects.writes[0]).toEqual({ phase: 'Running', snapshot: 'nightly', restoredIndices: ['team-a-restored-logs', 'team-a-restored-metrics'], startTime: '2026-12-01T12:00:00Z' });
    expect(t.restores()).toEqual([
      {
        op: 'restoreSnapshot',
        name: 'nightly',
        body: {
          indices: ['team-a-logs', 'team-a-metrics'],
          include_global_state: false,
          include_aliases: false,
          rename_pattern: 'team-a-(.+)',
          rename_replacement: 'team-a-restored-$1',
          index_settings: { 'index.number_of_replicas': 0 },
        },
      },
    ]);
    expect(t.ready()).toMatchObject({ status: 'False', reason: 'RestoreInProgress' });
    expect(t.objects.current.status?.observedGeneration).toBe(1);
    expect(t.events.events.map((e) => e.reason)).toEqual(['RestoreStarted']);

    await t.reconcile();
    expect(t.objects.current.status).toMatchObject({ phase: 'Running', shardsTotal: 2, shardsDone: 0 });
    t.openSearch.finishRestores();
    expect(await t.reconcile()).toEqual({ kind: 'done' });
    expect(t.objects.current.status).toMatchObject({ phase: 'Succeeded', shardsTotal: 2, shardsDone: 2, completionTime: '2026-12-01T12:00:00Z' });
    expect(t.ready()).toMatchObject({ status: 'True', reason: 'RestoreSucceeded' });
    expect(t.events.events.map((e) => e.reason)).toEqual(['RestoreStarted', 'RestoreSucceeded']);

    t.openSearch.calls.length = 0;
    const writes = t.objects.writes.length;
    expect(await t.reconcile()).toEqual({ kind: 'done' });
    expect(t.openSearch.calls).toEqual([]);
    expect(t.objects.writes.length).toBe(writes);
  });

  it('refuses onto an existing index with IndexExists: Failed, nothing restored, and stays so', async () => {
    const t = setup(restoreOf({}));
    t.openSearch.addIndex('team-a-logs', { 'index.number_of_replicas': '1' });
    expect(await t.reconcile()).toEqual({ kind: 'done' });
    expect(t.restores()).toEqual([]);
    expect(t.objects.current.status).toMatchObject({ phase: 'Failed', snapshot: 'nightly' });
    expect(t.objects.current.status?.restoredIndices).toBeUndefined();
    expect(t.ready()).toMatchObject({ status: 'False', reason: 'IndexExists', message: expect.stringContaining('index team-a-logs already exists') as string });
    expect(t.events.events).toMatchObject([{ type: 'Warning', reason: 'IndexExists' }]);
    expect(t.openSearch.indices.get('team-a-logs')?.index.settings).toEqual({ 'index.number_of_replicas': '1' });
    t.openSearch.indices.delete('team-a-logs');
    t.openSearch.calls.length = 0;
    await t.reconcile();
    expect(t.openSearch.calls).toEqual([]);
  });

  it('refuses a repository that does not admit the namespace before any OpenSearch call', async () => {
    const t = setup(restoreOf({}), { repository: repository({ tenant: 'other' }) });
    await t.reconcile();
    expect(t.openSearch.calls).toEqual([]);
    expect(t.objects.current.status?.phase).toBe('Failed');
    expect(t.ready()).toMatchObject({ reason: 'TenancyViolation', message: 'namespace "team-a" is not selected by OpenSearchSnapshotRepository "backups" (tenancy.namespaceSelector)' });
  });

  it('refuses a repository resource of another connection', async () => {
    const t = setup(restoreOf({}), { repository: repository({ tenant: 'yes' }, 'elsewhere') });
    await t.reconcile();
    expect(t.openSearch.calls).toEqual([]);
    expect(t.ready()).toMatchObject({ reason: 'InvalidSpec', message: expect.stringContaining('registered through connection "elsewhere"') as string });
  });

  it('refuses index patterns outside the prefix and renames that leave it, with no write to OpenSearch', async () => {
    const foreign = setup(restoreOf({ indices: ['team-b-logs'] }));
    await foreign.reconcile();
    expect(foreign.restores()).toEqual([]);
    expect(foreign.ready()).toMatchObject({ reason: 'TenancyViolation', message: expect.stringContaining('indices[0] "team-b-logs" is outside the prefix "team-a-"') as string });
    expect(foreign.objects.current.status?.phase).toBe('Failed');

    const leaving = setup(restoreOf({ renamePattern: 'team-a-(.+)', renameReplacement: 'team-b-$1' }));
    await leaving.reconcile();
    expect(leaving.restores()).toEqual([]);
    expect(leaving.ready()).toMatchObject({ reason: 'TenancyViolation', message: expect.stringContaining('restoring "team-a-logs" as "team-b-logs"') as string });
  });

  it('chooses the newest successful snapshot of a policy once for latestOf, and keeps it', async () => {
    const t = setup(restoreOf({ latestOf: { policyRef: { name: 'nightly' } } }));
    t.openSearch.addSnapshot('backups', { name: 'team-a-nightly-20261201000000', indices: ['team-a-logs'] });
    t.openSearch.addSnapshot('backups', { name: 'team-a-nightly-20261202000000', indices: ['team-a-logs'] });
    t.openSearch.addSnapshot('backups', { name: 'team-a-nightly-20261203000000', indices: ['team-a-logs'], state: 'FAILED' });
    t.openSearch.addSnapshot('backups', { name: 'team-a-nightly-x-20261204000000', indices: ['team-a-logs'] });
    await t.reconcile();
    expect(t.objects.current.status?.snapshot).toBe('team-a-nightly-20261202000000');
    expect(t.restores().map((c) => c.name)).toEqual(['team-a-nightly-20261202000000']);
  });

  it('waits, Pending, while the snapshot is missing, and looks again', async () => {
    const t = setup(restoreOf({ snapshot: 'later' }));
    expect(await t.reconcile()).toEqual({ kind: 'requeueAfter', delayMs: 30_000 });
    expect(t.objects.current.status?.phase).toBe('Pending');
    expect(t.ready()).toMatchObject({ status: 'False', reason: 'SnapshotNotFound' });
    t.openSearch.addSnapshot('backups', { name: 'later', indices: ['team-a-logs'] });
    await t.reconcile();
    expect(t.restores()).toHaveLength(1);
  });

  it('waits while another restore of the connection runs into the same names, and then sees the index as existing', async () => {
    const other = { ...restoreOf({}, { phase: 'Running', restoredIndices: ['team-a-logs'] }), metadata: { namespace: 'team-a', name: 'first', uid: 'first-uid', generation: 1 } };
    const t = setup(restoreOf({}), { others: [other] });
    expect(await t.reconcile()).toEqual({ kind: 'requeueAfter', delayMs: 1_000 });
    expect(t.restores()).toEqual([]);
    expect(t.objects.current.status?.phase).toBe('Pending');
    expect(t.ready()).toMatchObject({ reason: 'ResourceConflict', message: 'OpenSearchSnapshotRestore team-a/first is restoring team-a-logs on this connection; waiting for it to finish' });
  });

  it('fails with RestoreFailed when OpenSearch refuses the call with a 400', async () => {
    const t = setup(restoreOf({}));
    t.openSearch.failNextRestore = { error: new TerminalError('restore snapshot nightly: illegal_argument_exception: cannot modify setting [index.number_of_shards]', 'InvalidSpec'), landed: false };
    expect(await t.reconcile()).toEqual({ kind: 'done' });
    expect(t.objects.current.status?.phase).toBe('Failed');
    expect(t.ready()).toMatchObject({ reason: 'RestoreFailed', message: expect.stringContaining('number_of_shards') as string });
  });

  it('takes OpenSearch\u2019s refusal of a target that is an alias name as IndexExists', async () => {
    const t = setup(restoreOf({}));
    t.openSearch.failNextRestore = { error: new TerminalError('restore snapshot nightly: invalid_index_name_exception: Invalid index name [team-a-logs], already exists as alias', 'InvalidSpec'), landed: false };
    await t.reconcile();
    expect(t.objects.current.status?.phase).toBe('Failed');
    expect(t.ready()).toMatchObject({ reason: 'IndexExists', message: expect.stringContaining('already exists as alias') as string });
  });

  it('writes its status with the resourceVersion it read, so a stale read fails with a conflict instead of overwriting', async () => {
    const calls: Call[] = [];
    await restoreStatusWriter(recordingClient(calls)).write(
      { ...restoreOf({}), metadata: { namespace: 'team-a', name: 'back', uid: 'restore-uid', generation: 1, resourceVersion: '41' } },
      { fields: { phase: 'Pending' } },
      { now: new Date('2026-12-01T12:00:00Z'), signal: new AbortController().signal },
    );
    expect(calls).toMatchObject([{ to: 'kube', method: 'PATCH', body: { metadata: { resourceVersion: '41' }, status: { phase: 'Pending' } } }]);
  });

  describe('crash safety', () => {
    it('recognises its restore when the answer to the call was lost, without a second call', async () => {
      const t = setup(restoreOf({}));
      t.openSearch.failNextRestore = { error: new OpenSearchError('OpenSearchUnavailable', 'restore snapshot nightly: OpenSearch is unreachable (socket hang up)'), landed: true };
      expect(await t.reconcile()).toEqual({ kind: 'requeueAfter', delayMs: 1_000 });
      expect(t.restores()).toHaveLength(1);
      expect(t.ready()).toMatchObject({ reason: 'RestoreInProgress' });
    });

    it('retries a call that did not go through, and then makes it once', async () => {
      const t = setup(restoreOf({}));
      t.openSearch.failNextRestore = { error: new OpenSearchError('OpenSearchUnavailable', 'restore snapshot nightly: OpenSearch is unreachable (connect ECONNREFUSED)'), landed: false };
      await expect(t.reconcile()).rejects.toThrow('ECONNREFUSED');
      expect(t.objects.current.status?.phase).toBe('Running');
      expect(t.ready()).toMatchObject({ status: 'False', reason: 'OpenSearchUnavailable' });
      await t.reconcile();
      expect(t.restores()).toHaveLength(2);
      expect(t.openSearch.indices.has('team-a-logs')).toBe(true);
      expect(t.ready()).toMatchObject({ reason: 'RestoreInProgress' });
    });

    it('after a crash between the call and its acceptance record, takes the restored indices as its own, not as IndexExists', async () => {
      const written = restoreOf({}, { phase: 'Running', snapshot: 'nightly', restoredIndices: ['team-a-logs'], startTime: '2026-12-01T11:59:00Z' });
      const t = setup(written);
      await t.openSearch.api().restoreSnapshot('backups', 'nightly', { indices: ['team-a-logs'], include_global_state: false, include_aliases: false });
      await t.reconcile(t.objects.current, t.restarted());
      expect(t.restores()).toHaveLength(1);
      expect(t.ready()).toMatchObject({ reason: 'RestoreInProgress' });
      expect(t.objects.current.status?.phase).toBe('Running');
    });

    it('after a crash between the write-ahead record and the call, makes the call', async () => {
      const t = setup(restoreOf({}, { phase: 'Running', snapshot: 'nightly', restoredIndices: ['team-a-logs'], startTime: '2026-12-01T11:59:00Z' }));
      await t.reconcile(t.objects.current, t.restarted());
      expect(t.restores()).toHaveLength(1);
      expect(t.ready()).toMatchObject({ reason: 'RestoreInProgress' });
    });

    it('an index of the target name that another made meanwhile is IndexExists, and no call is made', async () => {
      const t = setup(restoreOf({}, { phase: 'Running', snapshot: 'nightly', restoredIndices: ['team-a-logs'], startTime: '2026-12-01T11:59:00Z' }));
      t.openSearch.addIndex('team-a-logs');
      await t.reconcile(t.objects.current, t.restarted());
      expect(t.restores()).toEqual([]);
      expect(t.objects.current.status?.phase).toBe('Failed');
      expect(t.ready()).toMatchObject({ reason: 'IndexExists' });
    });

    it('a stale cache never restores twice nor refuses its own indices: own writes in memory, and a precondition for another process', async () => {
      const t = setup(restoreOf({}));
      const stale = t.objects.current;
      await t.reconcile();
      expect(t.restores()).toHaveLength(1);
      // The same process, handed the version before its writes: it remembers them.
      await t.reconcile(stale);
      expect(t.restores()).toHaveLength(1);
      expect(t.objects.current.status?.phase).toBe('Running');
      // Another process with the stale version: the refusal it would write is refused by the apiserver (409).
      await expect(t.reconcile(stale, t.restarted())).rejects.toThrow('modified');
      expect(t.restores()).toHaveLength(1);
      expect(t.objects.current.status?.phase).toBe('Running');
      expect(t.ready()).toMatchObject({ reason: 'RestoreInProgress' });
    });
  });

  it('fails a restore whose index stays red with nothing recovering, after the grace period', async () => {
    const t = setup(restoreOf({}));
    await t.reconcile();
    t.openSearch.finishRestores('red');
    await t.reconcile();
    expect(t.objects.current.status?.phase).toBe('Running');
    t.clock.ms += 10_000;
    expect(await t.reconcile()).toEqual({ kind: 'done' });
    expect(t.objects.current.status?.phase).toBe('Failed');
    expect(t.ready()).toMatchObject({ reason: 'RestoreFailed', message: expect.stringContaining('team-a-logs are unassigned') as string });
    expect(t.events.events.map((e) => e.reason)).toEqual(['RestoreStarted', 'RestoreFailed']);
  });

  it('fails when a restored index is deleted while it runs', async () => {
    const t = setup(restoreOf({}));
    await t.reconcile();
    t.openSearch.indices.delete('team-a-logs');
    await t.reconcile();
    expect(t.objects.current.status?.phase).toBe('Failed');
    expect(t.ready()).toMatchObject({ reason: 'RestoreFailed', message: expect.stringContaining('no longer exists') as string });
  });
});
