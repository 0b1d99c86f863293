// Fakes for the snapshot restore's unit tests, behind this operator's own interfaces: an in-memory OpenSearch holding
// snapshots, indices and their shard recoveries (the calls a restore makes, each recorded), a map-backed Store, and
// a status writer that keeps one object per key with resourceVersions and the apiserver's optimistic-lock refusal.
// Not used outside tests.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { DesiredStatus, Store, StoreSource } from '@domain-operators/reconcile';
import { KubeApiError, statusChange } from '@domain-operators/reconcile';
import type { OpenSearchSnapshotRestore } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import { OpenSearchError } from '../opensearch/errors.ts';
import type { ObservedIndex } from '../opensearch/index-plan.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import { compileRename } from '../opensearch/restore-plan.ts';
import type { IndexRecovery, ObservedSnapshot, RestoreBody, ShardRecovery } from '../opensearch/snapshot-types.ts';
import type { RestoreStatusWriter } from './opensearchsnapshotrestore.reconciler.ts';

/** One snapshot call or write the fake saw, in order. */
export interface SnapshotCall {
  readonly op: string;
  readonly name: string;
  readonly body?: unknown;
}

/** An index in the fake, with the recovery of its shards and its health. */
interface FakeIndex {
  readonly index: ObservedIndex;
  shards: ShardRecovery[];
  health: string;
}

/**
 * An in-memory OpenSearch for restores. `restoreSnapshot` creates the renamed indices at once (as OpenSearch does
 * in the cluster state) with their primaries recovering from the snapshot (`INDEX` stage, health red) and refuses,
 * as OpenSearch does with a 500, a target that exists; {@link FakeSnapshotOpenSearch.finishRestores} completes them.
 */
export class FakeSnapshotOpenSearch {
  readonly calls: SnapshotCall[] = [];
  readonly snapshots = new Map<string, ObservedSnapshot[]>();
  readonly indices = new Map<string, FakeIndex>();
  /** When set, the next restore call is answered with this error (after taking effect when `landed`). */
  failNextRestore: { readonly error: Error; readonly landed: boolean } | undefined;

  /** Adds a snapshot (state SUCCESS unless given) to a repository. */
  addSnapshot(repository: string, snapshot: Partial<ObservedSnapshot> & { readonly name: string; readonly indices: readonly string[] }): void {
    const list = this.snapshots.get(repository) ?? [];
    list.push({ uuid: `uuid-${snapshot.name}`, state: 'SUCCESS', shardsTotal: 1, shardsFailed: 0, shardsSuccessful: 1, startTime: '2026-12-01T00:00:00Z', ...snapshot });
    this.snapshots.set(repository, list);
  }

  /** Creates an ordinary index (made by hand: its primary came from an empty store). */
  addIndex(name: string, settings: Readonly<Record<string, string>> = {}): void {
    this.indices.set(name, { index: { name, uuid: `uuid-${name}`, settings, mappings: {}, aliases: {} }, shards: [{ id: 0, primary: true, type: 'EMPTY_STORE', stage: 'DONE' }], health: 'green' });
  }

  /** Every restored shard reaches DONE and the indices turn green (or `health`). */
  finishRestores(health = 'green'): void {
    for (const entry of this.indices.values()) {
      if (entry.shards.some((shard) => shard.type === 'SNAPSHOT')) {
        entry.shards = entry.shards.map((shard) => ({ ...shard, stage: 'DONE' }));
        entry.health = health;
      }
    }
  }

  /** The {@link OpenSearchApi} view; methods a restore never calls reject. */
  api(): OpenSearchApi {
    const unused = (): Promise<never> => Promise.reject(new Error('not used by a restore'));
    return {
      clusterInfo: unused,
      getIndex: (name) => Promise.resolve(this.#read('getIndex', name, this.indices.get(name)?.index)),
      indexHealth: (name) => Promise.resolve(this.#read('indexHealth', name, this.indices.get(name)?.health)),
      indicesHealth: (names) =>
        Promise.resolve(
          this.#read('indicesHealth', names.join(','), new Map(names.flatMap((name) => {
            const health = this.indices.get(name)?.health;
            return health === undefined ? [] : [[name, health] as const];
          }))),
        ),
      createIndex: unused,
      putIndexSettings: unused,
      putMapping: unused,
      updateAliases: unused,
      deleteIndex: unused,
      getIndexTemplate: unused,
      putIndexTemplate: unused,
      deleteIndexTemplate: unused,
      getComponentTemplate: unused,
      putComponentTemplate: unused,
      deleteComponentTemplate: unused,
      getRole: unused,
      putRole: unused,
      deleteRole: unused,
      getRoleMapping: unused,
      putRoleMapping: unused,
      deleteRoleMapping: unused,
      getUser: unused,
      putUser: unused,
      deleteUser: unused,
      getDataStream: unused,
      createDataStream: unused,
      deleteDataStream: unused,
      getActionGroup: unused,
      putActionGroup: unused,
      deleteActionGroup: unused,
      getTenant: unused,
      putTenant: unused,
      deleteTenant: unused,
      getRepository: unused,
      putRepository: unused,
      verifyRepository: unused,
      deleteRepository: unused,
      listSnapshots: (repository, pattern) => {
        const matcher = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
        return Promise.resolve(this.#read('listSnapshots', pattern, (this.snapshots.get(repository) ?? []).filter((s) => matcher.test(s.name))));
      },
      getSnapshot: (repository, name) => Promise.resolve(this.#read('getSnapshot', name, this.snapshots.get(repository)?.find((s) => s.name === name))),
      createSnapshot: unused,
      deleteSnapshot: unused,
      restoreSnapshot: (repository, snapshot, body) => this.#restore(repository, snapshot, body),
      recovery: (indices) => Promise.resolve(this.#read('recovery', indices.join(','), indices.flatMap((name) => recoveryOf(name, this.indices.get(name))))),
      close: () => Promise.resolve(),
    };
  }

  #restore(repository: string, snapshot: string, body: RestoreBody): Promise<void> {
    this.calls.push({ op: 'restoreSnapshot', name: snapshot, body });
    const failure = this.failNextRestore;
    this.failNextRestore = undefined;
    if (failure !== undefined && !failure.landed) return Promise.reject(failure.error);
    const rename = body.rename_pattern === undefined || body.rename_replacement === undefined ? undefined : compileRename(body.rename_pattern, body.rename_replacement);
    if (rename !== undefined && !rename.ok) return Promise.reject(new Error(rename.problem));
    const targets = body.indices.map((source) => ({ source, target: rename?.ok === true ? rename.rename(source) : source }));
    const taken = targets.find((t) => this.indices.has(t.target));
    if (taken !== undefined) {
      return Promise.reject(new OpenSearchError(OpenSearchReasons.unavailable, `restore: snapshot_restore_exception: [${repository}:${snapshot}] cannot restore index [${taken.target}] because an open index with same name already exists in the cluster`, 500));
    }
    for (const { source, target } of targets) {
      const settings: Record<string, string> = {};
      for (const [key, value] of Object.entries(body.index_settings ?? {})) settings[key] = typeof value === 'string' ? value : JSON.stringify(value);
      this.indices.set(target, {
        index: { name: target, uuid: `uuid-${target}`, settings, mappings: {}, aliases: {} },
        shards: [{ id: 0, primary: true, type: 'SNAPSHOT', stage: 'INDEX', snapshot: { repository, snapshot, index: source } }],
        health: 'red',
      });
    }
    return failure === undefined ? Promise.resolve() : Promise.reject(failure.error);
  }

  #read<T>(op: string, name: string, value: T): T {
    this.calls.push({ op, name });
    return value;
  }
}

function recoveryOf(name: string, entry: FakeIndex | undefined): IndexRecovery[] {
  if (entry === undefined) return [];
  return [{ index: name, shardsTotal: entry.shards.length, shardsDone: entry.shards.filter((s) => s.stage === 'DONE').length, shards: entry.shards }];
}

/** A read-only {@link Store} over a map keyed as the cache keys objects (`namespace/name`, or `name`). */
export function mapStore<T extends KubernetesObject>(objects: Map<string, T>): StoreSource<T> {
  const store: Store<T> = {
    get: (key) => objects.get(key),
    list: () => [...objects.values()],
    byIndex: () => {
      throw new Error('no indexes in this fake');
    },
    keys: () => [...objects.keys()],
    size: () => objects.size,
    hasSynced: () => true,
  };
  return { store };
}

/**
 * Restores held as the apiserver would: each write of a status checks the resourceVersion it was given (409 when
 * stale), applies the change, bumps the version and answers the new object. `cached` is what a lagging cache would
 * hand the reconciler (set it to an older copy to simulate lag). `writes` are the changes, in order.
 */
export class FakeRestoreObjects implements RestoreStatusWriter {
  readonly writes: Readonly<Record<string, unknown>>[] = [];
  #current: OpenSearchSnapshotRestore;
  #version = 1;

  constructor(object: OpenSearchSnapshotRestore) {
    this.#current = { ...object, metadata: Object.assign({}, object.metadata, { resourceVersion: String(this.#version) }) };
  }

  /** The object as the apiserver has it. */
  get current(): OpenSearchSnapshotRestore {
    return this.#current;
  }

  write(object: OpenSearchSnapshotRestore, desired: DesiredStatus, options: { readonly now: Date }): Promise<OpenSearchSnapshotRestore | undefined> {
    const change = statusChange(object, desired, options.now);
    if (change === undefined) return Promise.resolve(undefined);
    if (object.metadata.resourceVersion !== this.#current.metadata.resourceVersion) {
      return Promise.reject(new KubeApiError('the object has been modified; please apply your changes to the latest version and try again', 409, 'Conflict'));
    }
    this.writes.push(change);
    this.#version++;
    this.#current = { ...this.#current, metadata: Object.assign({}, this.#current.metadata, { resourceVersion: String(this.#version) }), status: { ...this.#current.status, ...change } };
    return Promise.resolve(this.#current);
  }
}
