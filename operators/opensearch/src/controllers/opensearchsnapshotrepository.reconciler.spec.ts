import { boundAdapter } from '@domain-operators/reconcile/testing';
import { isTerminalError } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { OpenSearchSnapshotRepository } from '../api/v1alpha1/index.ts';
import type { Call } from './controller.test-support.ts';
import { adapterContext, callNames, reconcilerOver, statusChanges } from './controller.test-support.ts';
import { FAKE_PATH_REPO, FakeRepositories } from './repository.test-support.ts';
import { RepositoryAdapter, repositoryDesired, repositoryExternalName } from './opensearchsnapshotrepository.reconciler.ts';

const location = `${FAKE_PATH_REPO}/backups`;

const repository: OpenSearchSnapshotRepository = {
  apiVersion: 'opensearch.domain-operators.io/v1alpha1',
  kind: 'OpenSearchSnapshotRepository',
  metadata: { name: 'backups', uid: 'backups-uid', generation: 1 },
  spec: { connectionRef: { name: 'main' }, type: 'fs', settings: { location, compress: true, max_snapshot_bytes_per_sec: '40mb' }, deletionPolicy: 'Retain' },
};

function setup(object: OpenSearchSnapshotRepository = repository) {
  const calls: Call[] = [];
  const openSearch = new FakeRepositories(calls);
  const adapter = boundAdapter(new RepositoryAdapter(), openSearch.api());
  const r = reconcilerOver(calls, adapter, { externalName: repositoryExternalName, desired: repositoryDesired });
  r.objects.put(object);
  return { calls, openSearch, adapter, r };
}

/** The condition of `type` in a stored status. */
function condition(status: Readonly<Record<string, unknown>>, type: string): Record<string, unknown> | undefined {
  return (status['conditions'] as Record<string, unknown>[] | undefined)?.find((c) => c['type'] === type);
}

/** Reconciles and returns what it threw (`undefined` when it resolved). */
async function failure(r: ReturnType<typeof setup>['r'], uid: string): Promise<unknown> {
  return r.reconcile(uid).then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('snapshot repositories', () => {
  it('are named <connection>/<repositoryName>, metadata.name by default, with no namespace prefix', () => {
    expect(repositoryExternalName(repository)).toBe('main/backups');
    expect(repositoryExternalName({ ...repository, spec: { ...repository.spec, repositoryName: 'nightly' } })).toBe('main/nightly');
    expect(repositoryDesired(repository)).toEqual({ connection: 'main', name: 'backups', body: { type: 'fs', settings: repository.spec.settings }, verify: true });
  });

  it('are registered with verification off, then verified; Ready with the nodes that verified them, in the patch of the conditions', async () => {
    const fx = setup();
    fx.openSearch.nodes = ['node-b', 'node-a'];

    await fx.r.reconcile('backups-uid');

    expect(callNames(fx.calls)).toEqual(['status', 'putRepository', 'verifyRepository', 'status']);
    expect(fx.calls[1]).toMatchObject({ name: 'backups', body: { type: 'fs', settings: { location, compress: true, max_snapshot_bytes_per_sec: '40mb' } } });
    expect(statusChanges(fx.calls)[0]).toEqual({ externalName: 'main/backups', ownership: 'CreatePending' });
    const final = statusChanges(fx.calls)[1];
    expect(final).toMatchObject({ repositoryName: 'backups', verifiedNodes: ['node-b', 'node-a'], ownership: 'Created', observedGeneration: 1 });
    expect(condition(fx.r.status('backups-uid'), 'Ready')).toMatchObject({ status: 'True', observedGeneration: 1 });
  });

  it('are verified again at every drift check and write nothing while they match', async () => {
    const fx = setup();
    await fx.r.reconcile('backups-uid');
    fx.calls.length = 0;

    const result = await fx.r.reconcile('backups-uid');

    expect(callNames(fx.calls)).toEqual(['verifyRepository']);
    expect(result).toMatchObject({ kind: 'requeueAfter', driftCheck: true });
  });

  it('with verify false are registered without a verification and report no verified nodes', async () => {
    const fx = setup();
    await fx.r.reconcile('backups-uid');
    fx.r.objects.edit('backups-uid', (o) => ({ ...o, spec: { ...o.spec, verify: false } }));
    fx.calls.length = 0;

    await fx.r.reconcile('backups-uid');

    expect(callNames(fx.calls)).toEqual(['status']);
    // null in a merge patch removes the field.
    expect(statusChanges(fx.calls)[0]).toMatchObject({ verifiedNodes: null, observedGeneration: 2 });
    expect(condition(fx.r.status('backups-uid'), 'Ready')).toMatchObject({ status: 'True', observedGeneration: 2 });
  });

  it('that fail their verification are Ready=False RepositoryVerificationFailed with OpenSearch message, retried, and Ready once the storage works', async () => {
    const fx = setup();
    fx.openSearch.verificationProblem = '[[node-1, store location [/var/snapshots/backups] is not accessible on the node]]';

    const err = await failure(fx.r, 'backups-uid');

    expect(err).toMatchObject({ reason: 'RepositoryVerificationFailed' });
    expect(isTerminalError(err)).toBe(false);
    const ready = condition(fx.r.status('backups-uid'), 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'RepositoryVerificationFailed' });
    expect(ready?.['message']).toContain('is not accessible on the node');

    fx.openSearch.verificationProblem = undefined;
    fx.calls.length = 0;
    await fx.r.reconcile('backups-uid');

    // Registered by the first attempt (its CreatePending record makes it ours): verified, not registered again.
    expect(callNames(fx.calls)).toEqual(['verifyRepository', 'status']);
    expect(fx.r.status('backups-uid')).toMatchObject({ ownership: 'Created', verifiedNodes: ['node-1'], observedGeneration: 1 });
    expect(condition(fx.r.status('backups-uid'), 'Ready')).toMatchObject({ status: 'True' });
  });

  it('that OpenSearch refuses to register (an fs location outside path.repo) are Ready=False RepositoryRefused with its message, retried, nothing registered', async () => {
    const fx = setup({ ...repository, spec: { ...repository.spec, settings: { location: '/elsewhere' } } });

    const err = await failure(fx.r, 'backups-uid');

    expect(err).toMatchObject({ reason: 'RepositoryRefused' });
    expect(isTerminalError(err)).toBe(false);
    expect(callNames(fx.calls)).toEqual(['status', 'putRepository', 'status']);
    const ready = condition(fx.r.status('backups-uid'), 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'RepositoryRefused' });
    expect(ready?.['message']).toContain("location [/elsewhere] doesn't match any of the locations specified by path.repo");
    expect(fx.openSearch.repositories.size).toBe(0);
  });

  it('unregistered by hand are registered again at the next check', async () => {
    const fx = setup();
    await fx.r.reconcile('backups-uid');
    fx.openSearch.repositories.delete('backups');
    fx.calls.length = 0;

    await fx.r.reconcile('backups-uid');

    expect(callNames(fx.calls)).toEqual(['putRepository', 'verifyRepository']);
    expect(fx.openSearch.repositories.get('backups')).toEqual({ type: 'fs', settings: { location, compress: 'true', max_snapshot_bytes_per_sec: '40mb' } });
  });

  it('changed by hand are registered whole again, a setting added by hand dropped', async () => {
    const fx = setup();
    await fx.r.reconcile('backups-uid');
    fx.openSearch.registerByHand('backups', { type: 'fs', settings: { location, compress: false, max_snapshot_bytes_per_sec: '40mb', readonly: true } });
    fx.calls.length = 0;

    const observation = await fx.adapter.observe(repositoryDesired(repository), adapterContext(fx.r.objects.current('backups-uid'), 'main/backups'));
    expect(observation).toMatchObject({ exists: true, upToDate: false, diff: ['settings.compress: want true, have false', 'settings.readonly: not in the spec (registered: true)'] });
    await fx.r.reconcile('backups-uid');

    expect(callNames(fx.calls)).toEqual(['putRepository', 'verifyRepository']);
    expect(fx.openSearch.repositories.get('backups')?.settings).toEqual({ location, compress: 'true', max_snapshot_bytes_per_sec: '40mb' });
  });

  it('registered before with other settings are AlreadyExists with the differences and left alone; adopted with the annotation', async () => {
    const fx = setup();
    fx.openSearch.registerByHand('backups', { type: 'fs', settings: { location: `${FAKE_PATH_REPO}/other` } });

    await fx.r.reconcile('backups-uid');

    expect(callNames(fx.calls)).toEqual(['status']);
    const ready = condition(fx.r.status('backups-uid'), 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'AlreadyExists' });
    expect(ready?.['message']).toContain(`settings.location: want ${location}, have ${FAKE_PATH_REPO}/other`);
    expect(fx.openSearch.repositories.get('backups')?.settings).toEqual({ location: `${FAKE_PATH_REPO}/other` });

    fx.r.objects.edit('backups-uid', (o) => ({ ...o, metadata: Object.assign({}, o.metadata, { annotations: { 'opensearch.domain-operators.io/adopt': 'true' } }) }));
    fx.calls.length = 0;
    await fx.r.reconcile('backups-uid');

    expect(callNames(fx.calls)).toEqual(['putRepository', 'verifyRepository', 'status']);
    expect(fx.r.status('backups-uid')).toMatchObject({ ownership: 'Adopted', verifiedNodes: ['node-1'] });
  });

  it('deleted (deletionPolicy Delete) are unregistered, and only that: the adapter has no call that touches a snapshot', async () => {
    const fx = setup({ ...repository, spec: { ...repository.spec, deletionPolicy: 'Delete' } });
    await fx.r.reconcile('backups-uid');
    fx.calls.length = 0;

    fx.r.objects.delete('backups-uid');
    await fx.r.reconcile('backups-uid');

    expect(callNames(fx.calls)).toEqual(['deleteRepository']);
    expect(fx.openSearch.repositories.has('backups')).toBe(false);
    expect(fx.r.objects.has('backups-uid')).toBe(false);
  });
});
