// Fakes for the OpenSearchSnapshotPolicy unit tests: an in-memory snapshot API (behind this operator's own
// OpenSearchApi interface), a wall clock the test moves, and the reconciler wired over the runtime's FakeObjects (the
// apiserver's status subresource) and RecordingRecorder. Not used outside tests.
import type { V1Namespace } from '@kubernetes/client-node';
import type { ReconcileContext, Result, StatusWriter } from '@domain-operators/reconcile';
import { Reasons, silentLogger, StoreWriter, TerminalError } from '@domain-operators/reconcile';
import { FakeObjects, RecordingRecorder } from '@domain-operators/reconcile/testing';
import type { OpenSearchSnapshotPolicy, OpenSearchSnapshotRepository } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import { OpenSearchError } from '../opensearch/errors.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import type { CreateSnapshotBody, ObservedSnapshot, SnapshotState } from '../opensearch/snapshot-types.ts';
import { FakeOpenSearch, fakeConnections } from './controller.test-support.ts';
import type { Call } from './controller.test-support.ts';
import type { SnapshotPolicyOptions } from './opensearchsnapshotpolicy.reconciler.ts';
import { SnapshotPolicyReconciler } from './opensearchsnapshotpolicy.reconciler.ts';

/** One snapshot call the fake answered (or refused), in order. */
export interface SnapshotCall {
  readonly op: 'list' | 'create' | 'delete';
  readonly repository: string;
  readonly name: string;
  readonly body?: CreateSnapshotBody;
}

/** A wall clock the test sets and moves. */
export class FakeWallClock {
  #now: number;

  constructor(iso: string) {
    this.#now = Date.parse(iso);
  }

  /** The current time (a fresh Date). */
  readonly now = (): Date => new Date(this.#now);

  set(iso: string): void {
    this.#now = Date.parse(iso);
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}

/**
 * Snapshots of repositories in memory. `create` starts a snapshot `IN_PROGRESS` (start time from the clock), which
 * stays so until {@link FakeSnapshots.finish}. `refuse` makes every create fail as OpenSearch refuses one (a 500
 * `repository_exception`); `unavailable` makes every call fail as with no answer; `loseAnswers` makes creates go
 * through and then fail as a timed-out answer would.
 */
export class FakeSnapshots {
  readonly calls: SnapshotCall[] = [];
  readonly #repositories = new Map<string, Map<string, ObservedSnapshot>>();
  readonly #clock: FakeWallClock;
  refuse: string | undefined;
  /** Every delete fails as OpenSearch refuses one (a 400). */
  refuseDeletes: string | undefined;
  unavailable = false;
  loseAnswers = false;

  constructor(clock: FakeWallClock) {
    this.#clock = clock;
  }

  /** Puts a snapshot as if made earlier (by hand, another policy, or this one). */
  add(repository: string, snapshot: Partial<ObservedSnapshot> & { readonly name: string }): void {
    this.#repo(repository).set(snapshot.name, { uuid: `uuid-${snapshot.name}`, state: 'SUCCESS', indices: [], shardsTotal: 1, shardsFailed: 0, shardsSuccessful: 1, ...snapshot });
  }

  /** Ends a snapshot with `state` (and OpenSearch's `reason`). */
  finish(repository: string, name: string, state: SnapshotState = 'SUCCESS', reason?: string): void {
    const snapshot = this.#repo(repository).get(name);
    if (snapshot === undefined) throw new Error(`no snapshot ${name}`);
    const failed = state === 'SUCCESS' ? 0 : 1;
    this.#repo(repository).set(name, { ...snapshot, state, endTime: this.#clock.now().toISOString(), shardsTotal: 2, shardsFailed: failed, shardsSuccessful: 2 - failed, ...(reason === undefined ? {} : { reason }) });
  }

  /** Ends every snapshot in progress with SUCCESS. */
  finishAll(repository: string): void {
    for (const snapshot of this.list(repository)) if (snapshot.state === 'IN_PROGRESS') this.finish(repository, snapshot.name);
  }

  /** The snapshots of a repository, oldest name first. */
  list(repository: string): ObservedSnapshot[] {
    return [...this.#repo(repository).values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The names of a repository's snapshots, sorted. */
  names(repository: string): string[] {
    return this.list(repository).map((snapshot) => snapshot.name);
  }

  /** The creates among the calls. */
  creates(): SnapshotCall[] {
    return this.calls.filter((call) => call.op === 'create');
  }

  /** An {@link OpenSearchApi} whose snapshot calls are these (the others as {@link FakeOpenSearch} answers them). */
  api(): OpenSearchApi {
    const unrelated: Call[] = [];
    return {
      ...new FakeOpenSearch(unrelated).api(),
      listSnapshots: (repository, pattern) => {
        this.calls.push({ op: 'list', repository, name: pattern });
        if (this.unavailable) return Promise.reject(unavailable('list snapshots'));
        // `_current`: what runs in the repository, as OpenSearch answers it.
        if (pattern === '_current') return Promise.resolve(this.list(repository).filter((snapshot) => snapshot.state === 'IN_PROGRESS'));
        const regex = new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`);
        return Promise.resolve(this.list(repository).filter((snapshot) => regex.test(snapshot.name)));
      },
      createSnapshot: (repository, name, body) => {
        this.calls.push({ op: 'create', repository, name, body });
        if (this.unavailable) return Promise.reject(unavailable(`start snapshot ${name}`));
        if (this.refuse !== undefined) return Promise.reject(new OpenSearchError(OpenSearchReasons.unavailable, `start snapshot ${name} in repository ${repository}: repository_exception: [${repository}] ${this.refuse}`, 500));
        if (this.#repo(repository).has(name)) {
          return Promise.reject(new OpenSearchError(OpenSearchReasons.error, `invalid_snapshot_name_exception: [${repository}:${name}] Invalid snapshot name [${name}], snapshot with the same name already exists`, 400));
        }
        this.#repo(repository).set(name, {
          name,
          uuid: `uuid-${name}`,
          state: 'IN_PROGRESS',
          indices: [...body.indices],
          startTime: this.#clock.now().toISOString(),
          shardsTotal: 0,
          shardsFailed: 0,
          shardsSuccessful: 0,
          ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
        });
        return this.loseAnswers ? Promise.reject(unavailable(`start snapshot ${name}`)) : Promise.resolve();
      },
      deleteSnapshot: (repository, name) => {
        this.calls.push({ op: 'delete', repository, name });
        if (this.unavailable) return Promise.reject(unavailable(`delete snapshot ${name}`));
        if (this.refuseDeletes !== undefined) return Promise.reject(new TerminalError(`delete snapshot ${name} in repository ${repository}: ${this.refuseDeletes}`, Reasons.invalidSpec));
        this.#repo(repository).delete(name);
        return Promise.resolve();
      },
    };
  }

  #repo(name: string): Map<string, ObservedSnapshot> {
    let repository = this.#repositories.get(name);
    if (repository === undefined) {
      repository = new Map();
      this.#repositories.set(name, repository);
    }
    return repository;
  }
}

function unavailable(operation: string): OpenSearchError {
  return new OpenSearchError(OpenSearchReasons.unavailable, `${operation}: OpenSearch is unreachable (connect ECONNREFUSED)`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A repository resource `name` on connection `main` admitting namespaces labelled `snapshots: allowed`. */
export function repositoryResource(name: string, spec: Partial<OpenSearchSnapshotRepository['spec']> = {}): OpenSearchSnapshotRepository {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchSnapshotRepository',
    metadata: { name, uid: `uid-${name}`, generation: 1 },
    spec: { connectionRef: { name: 'main' }, type: 'fs', deletionPolicy: 'Retain', settings: { location: `/snapshots/${name}` }, tenancy: { namespaceSelector: { matchLabels: { snapshots: 'allowed' } } }, ...spec },
  };
}

/** The world of one test: OpenSearch's snapshots, the clock, the policy objects, the Events and the reconciler. */
export function policyWorld(options: SnapshotPolicyOptions & { readonly now?: string } = {}) {
  const clock = new FakeWallClock(options.now ?? '2026-12-01T12:00:10Z');
  const snapshots = new FakeSnapshots(clock);
  const repositories = new StoreWriter<OpenSearchSnapshotRepository>();
  repositories.replace([repositoryResource('backups')]);
  const namespaces = new StoreWriter<V1Namespace>();
  namespaces.replace([
    { metadata: { name: 'team-a', labels: { snapshots: 'allowed' } } },
    { metadata: { name: 'team-b' } },
  ]);
  const objects = new FakeObjects<OpenSearchSnapshotPolicy>('unused');
  const events = new RecordingRecorder();
  /** A status writer that fails while `failStatus` is set (the apiserver unreachable), else the objects' own. */
  const control = { failStatus: false };
  const status: StatusWriter<OpenSearchSnapshotPolicy> = {
    patchStatus: (object, desired, now) => (control.failStatus ? Promise.reject(new Error('the apiserver is unreachable')) : objects.statusWriter.patchStatus(object, desired, now)),
  };
  const reconciler = new SnapshotPolicyReconciler(
    { connections: fakeConnections(snapshots.api()), repositories: { store: repositories.reader() }, namespaces: { store: namespaces.reader() }, status, events, now: clock.now },
    options,
  );
  const context = (policy: OpenSearchSnapshotPolicy): ReconcileContext => ({
    request: { namespace: policy.metadata.namespace, name: policy.metadata.name ?? '' },
    reconcileId: 'test',
    log: silentLogger,
    signal: new AbortController().signal,
  });
  return {
    clock,
    snapshots,
    repositories,
    namespaces,
    objects,
    events,
    control,
    reconciler,
    /** Reconciles the stored policy `uid` (or the given copy: a stale cache). */
    reconcile: (uid: string, stale?: OpenSearchSnapshotPolicy): Promise<Result> => {
      const policy = stale ?? objects.current(uid);
      return reconciler.reconcile(policy, context(policy));
    },
    /** The stored status. */
    status: (uid: string) => objects.current(uid).status ?? {},
    /** The reasons of the Events recorded so far. */
    eventReasons: (): string[] => events.events.map((event) => event.reason),
  };
}

/** A policy `name` in `team-a` on repository `backups`, created 11:59:30 on 1 December 2026, every minute by default. */
export function policyResource(name = 'nightly', spec: Partial<OpenSearchSnapshotPolicy['spec']> = {}, metadata: Partial<OpenSearchSnapshotPolicy['metadata']> = {}): OpenSearchSnapshotPolicy {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchSnapshotPolicy',
    metadata: { namespace: 'team-a', name, uid: `uid-${name}`, generation: 1, creationTimestamp: new Date('2026-12-01T11:59:30Z'), ...metadata },
    spec: { connectionRef: { name: 'main' }, repositoryRef: { name: 'backups' }, indices: ['team-a-logs-*'], schedule: '* * * * *', ...spec },
  };
}
