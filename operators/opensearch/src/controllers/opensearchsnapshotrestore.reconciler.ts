/**
 * `OpenSearchSnapshotRestore` → one restore of one snapshot, once (a Job-like kind: the spec is immutable, and once
 * `Succeeded` or `Failed` nothing more is done; deleting the resource never deletes what it restored).
 *
 * Pending: everything is checked before any write, in this order: the connection (its Ready gate, then the
 * namespace's tenancy on it), the `OpenSearchSnapshotRepository` (it must exist, be on the same connection and admit
 * the namespace by its `tenancy.namespaceSelector`), the snapshot (`spec.snapshot`, or for `latestOf` the newest
 * SUCCESS snapshot named like the policy's, chosen once and kept in `status.snapshot`), the plan (`restore-plan.ts`:
 * patterns and renamed names inside the prefix), that no other restore of the cache is running into the same
 * names (`ResourceConflict`: this one waits), and that no target index exists (`IndexExists`). A refusal is
 * terminal: phase `Failed`, `Ready=False` with its reason, a Warning Event, nothing changed in OpenSearch. A missing
 * or unfinished snapshot keeps the phase `Pending` and is looked at again (`SnapshotNotFound`, `SnapshotInProgress`);
 * a connection, namespace or repository that is not there yet is retried like any dependency.
 *
 * Running: the status is written before the restore call (phase `Running`, `snapshot`, `restoredIndices`,
 * `startTime`: fields alone, with the object's resourceVersion as a precondition so a stale read cannot start a
 * second restore) and after it (`Ready=False RestoreInProgress`, `Synced=True`: the call was accepted). Until that
 * second write, the outcome of the call is unknown, and a reconcile (after a crash, a timeout or a retryable refusal)
 * asks OpenSearch: no target exists → the call is made again (it cannot restore twice: OpenSearch refuses an
 * existing index); every target's primaries recovered from this snapshot → it was ours; a target from elsewhere →
 * `IndexExists`. Once accepted, the call is never repeated: the recovery API and index health are polled until
 * every listed shard is `DONE` and no target is red → `Succeeded`, `Ready=True`. A target that vanishes, or stays red
 * with nothing recovering for `stalledGraceMs`, fails the restore (`RestoreFailed`), as does a 400 to the call.
 *
 * Read your own writes: the apiserver's reply to each status write is used instead of the cached object until the
 * cache shows that resourceVersion (the cache may lag our write-ahead record by a reconcile).
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { Client, Condition, ConditionUpdate, Controller, DesiredStatus, ReconcileContext, Reconciler, Recorder, Request, StoreSource } from '@domain-operators/reconcile';
import {
  annotationsChanged,
  byConnectionRef,
  CONNECTION_INDEX,
  ConnectionReasons,
  ControllerBuilder,
  coreTypes,
  DependencyError,
  errorReason,
  generationChanged,
  getCondition,
  isConflict,
  isTerminalError,
  objectKey,
  or,
  OwnWrites,
  READY_CONDITION,
  Reasons,
  requestFor,
  requestKey,
  Result,
  rfc3339,
  stalled,
  SYNCED_CONDITION,
  watchConnectionDependents,
  writeStatusIfChanged,
} from '@domain-operators/reconcile';
import type { OpenSearchSnapshotRepository, OpenSearchSnapshotRestore } from '../api/v1alpha1/index.ts';
import { openSearchConnections, openSearchSnapshotRepositories, openSearchSnapshotRestores } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import { isOpenSearchError } from '../opensearch/errors.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import type { RestoreTarget } from '../opensearch/restore-plan.ts';
import { planRestore, restoreBody } from '../opensearch/restore-plan.ts';
import type { TargetObservation } from '../opensearch/restore-progress.ts';
import { youngPollDelay } from '../opensearch/poll-delay.ts';
import { progressOf, recognise } from '../opensearch/restore-progress.ts';
import { isPolicySnapshot, policySnapshotPattern, repositoryAdmits, repositoryNameOf } from '../opensearch/snapshot-tenancy.ts';
import { TENANCY_VIOLATION } from '../opensearch/tenancy.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { operatorRateLimiter } from './managed-controller.ts';

/** Writes a restore's status: the change only (none when equal), resolving with the apiserver's reply. */
export interface RestoreStatusWriter {
  write(object: OpenSearchSnapshotRestore, desired: DesiredStatus, options: { readonly now: Date; readonly signal: AbortSignal }): Promise<OpenSearchSnapshotRestore | undefined>;
}

/** The production {@link RestoreStatusWriter}: one merge patch of the status, with the object's resourceVersion as precondition. */
export function restoreStatusWriter(client: Client): RestoreStatusWriter {
  return {
    write: (object, desired, options) => writeStatusIfChanged(client, openSearchSnapshotRestores.type, object, desired, { now: options.now, signal: options.signal, optimisticLock: true }),
  };
}

/** What the reconciler reads and writes. */
export interface SnapshotRestoreDeps {
  readonly connections: Connections;
  readonly repositories: StoreSource<OpenSearchSnapshotRepository>;
  readonly namespaces: StoreSource<V1Namespace>;
  /** This kind's own cache: another restore running into the same names makes this one wait. */
  readonly restores: StoreSource<OpenSearchSnapshotRestore>;
  readonly status: RestoreStatusWriter;
  readonly events: Recorder;
  /** Wall-clock time for status times; default `new Date()`. */
  readonly now?: () => Date;
}

/** Options of the reconciler. */
export interface SnapshotRestoreOptions {
  /**
   * How often a running restore is polled, at most; default 2 s. A young one is polled sooner (a tenth of its age
   * since `status.startTime`, from `firstPollMs`), so a restore is reported within about 10% of its duration after it ends.
   */
  readonly pollIntervalMs?: number;
  /** The shortest poll of a young restore; default 250 ms. */
  readonly firstPollMs?: number;
  /** How often a missing or unfinished snapshot is looked for again; default 30 s. */
  readonly recheckIntervalMs?: number;
  /** How long a target may stay red with nothing recovering before the restore counts as failed; default 60 s. */
  readonly stalledGraceMs?: number;
}

/** The restore, ready to be started: where, what, and the call's body. */
interface Prepared {
  readonly api: OpenSearchApi;
  readonly repository: string;
  readonly snapshot: string;
  readonly targets: readonly RestoreTarget[];
}

/** What preparing found: ready, a terminal refusal, or a reason to look again later. */
type Preparation =
  | ({ readonly kind: 'ready' } & Prepared)
  | { readonly kind: 'refused'; readonly reason: string; readonly message: string; readonly snapshot?: string }
  | { readonly kind: 'wait'; readonly reason: string; readonly message: string };

const ACTION = 'Restore';
/** OpenSearch's refusal of a new index whose name an alias holds (`invalid_index_name_exception`). */
const ALIAS_TAKEN = 'already exists as alias';

/** The reconciler of `OpenSearchSnapshotRestore` (see the module header). Construction does no work. */
export class SnapshotRestoreReconciler implements Reconciler<OpenSearchSnapshotRestore> {
  readonly #deps: SnapshotRestoreDeps;
  readonly #options: Required<SnapshotRestoreOptions>;
  /** Our last status write per object, until the cache shows it (the runtime's read-your-own-writes). */
  readonly #written = new OwnWrites<OpenSearchSnapshotRestore>();
  /** Request key → since when (ms) some target is red with nothing recovering. */
  readonly #stalledSince = new Map<string, number>();

  constructor(deps: SnapshotRestoreDeps, options: SnapshotRestoreOptions = {}) {
    this.#deps = deps;
    this.#options = {
      pollIntervalMs: options.pollIntervalMs ?? 2_000,
      firstPollMs: options.firstPollMs ?? 100,
      recheckIntervalMs: options.recheckIntervalMs ?? 30_000,
      stalledGraceMs: options.stalledGraceMs ?? 60_000,
    };
  }

  /** When to look again at a running restore: a tenth of its age (from `status.startTime`), within `firstPollMs` and `pollIntervalMs`. */
  #pollDelay(object: OpenSearchSnapshotRestore): number {
    const ageMs = this.#now().getTime() - Date.parse(object.status?.startTime ?? '');
    return youngPollDelay(ageMs, { firstMs: this.#options.firstPollMs, maxMs: this.#options.pollIntervalMs });
  }

  /** Forgets what this process remembers of the object (the controller calls it on deletion). Cheap, never throws. */
  forget(request: Request): void {
    this.#written.forget(requestKey(request));
    this.#stalledSince.delete(requestKey(request));
  }

  async reconcile(cached: OpenSearchSnapshotRestore, context: ReconcileContext): Promise<Result> {
    const object = this.#written.over(cached);
    const phase = object.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return Result.done();
    try {
      return phase === 'Running' ? await this.#running(object, context) : await this.#start(object, context);
    } catch (err) {
      // A conflict means our read was stale: the next reconcile reads the object afresh.
      if (!isConflict(err)) await this.#writeFailure(this.#written.over(object), err, context);
      throw err;
    }
  }

  /** Pending: check everything, then the write-ahead record, the call, and the record of its acceptance. */
  async #start(object: OpenSearchSnapshotRestore, context: ReconcileContext): Promise<Result> {
    const prepared = await this.#prepare(object, object.status?.snapshot, context);
    if (prepared.kind === 'wait') {
      await this.#write(object, { conditions: both('False', prepared.reason, prepared.message), fields: { phase: 'Pending' } }, context);
      return Result.requeueAfter(this.#options.recheckIntervalMs);
    }
    if (prepared.kind === 'refused') {
      await this.#fail(object, prepared.reason, prepared.message, context, prepared.snapshot === undefined ? {} : { snapshot: prepared.snapshot });
      return Result.done();
    }
    const rival = this.#rival(object, prepared.targets);
    if (rival !== undefined) {
      const message = `OpenSearchSnapshotRestore ${rival.name} is restoring ${rival.indices.join(', ')} on this connection; waiting for it to finish`;
      await this.#write(object, { conditions: both('False', Reasons.resourceConflict, message), fields: { phase: 'Pending' } }, context);
      return Result.requeueAfter(this.#options.pollIntervalMs);
    }
    const existing = await this.#observe(prepared, context);
    const taken = existing.filter((o) => o.exists).map((o) => o.target);
    if (taken.length > 0) {
      const message = `${taken.length === 1 ? 'index' : 'indices'} ${taken.join(', ')} already ${taken.length === 1 ? 'exists' : 'exist'}; a restore never overwrites an index, nothing was changed (delete it or restore under other names with renamePattern)`;
      await this.#fail(object, OpenSearchReasons.indexExists, message, context, { snapshot: prepared.snapshot });
      return Result.done();
    }
    const ahead = await this.#write(
      object,
      { fields: { phase: 'Running', snapshot: prepared.snapshot, restoredIndices: prepared.targets.map((t) => t.target), startTime: rfc3339(this.#now()) } },
      context,
    );
    return this.#call(ahead ?? object, prepared, context);
  }

  /**
   * Running: before the acceptance record, OpenSearch says whether the call took effect (the target indices named
   * in the write-ahead record); only when none exists is everything checked again and the call made. After the
   * record, the progress is polled.
   */
  async #running(object: OpenSearchSnapshotRestore, context: ReconcileContext): Promise<Result> {
    if (accepted(object)) return this.#poll(object, context);
    const connection = object.spec.connectionRef.name;
    this.#deps.connections.usable(connection);
    const resource = this.#repository(object);
    const recorded: Prepared = {
      api: await this.#deps.connections.api(connection),
      repository: repositoryNameOf(resource),
      snapshot: object.status?.snapshot ?? '',
      targets: (object.status?.restoredIndices ?? []).map((target) => ({ source: target, target })),
    };
    return this.#settle(object, recorded, context, async () => {
      const prepared = await this.#prepare(object, object.status?.snapshot, context);
      if (prepared.kind === 'refused') {
        await this.#fail(object, prepared.reason, prepared.message, context);
        return Result.done();
      }
      if (prepared.kind === 'wait') {
        await this.#write(object, { conditions: both('False', prepared.reason, prepared.message) }, context);
        return Result.requeueAfter(this.#options.recheckIntervalMs);
      }
      const targets = prepared.targets.map((t) => t.target);
      const ahead = await this.#write(object, { fields: { restoredIndices: targets } }, context);
      return this.#call(ahead ?? object, prepared, context);
    });
  }

  /**
   * Another cached restore on the same connection that is `Running` into one of `targets` (its own restore would
   * otherwise be taken for ours, since both come from OpenSearch's view of the same indices). Reads the cache only.
   */
  #rival(object: OpenSearchSnapshotRestore, targets: readonly RestoreTarget[]): { readonly name: string; readonly indices: readonly string[] } | undefined {
    const names = new Set(targets.map((t) => t.target));
    for (const other of this.#deps.restores.store.list()) {
      if (other.metadata.uid === object.metadata.uid || other.spec.connectionRef.name !== object.spec.connectionRef.name || other.status?.phase !== 'Running') continue;
      const shared = (other.status.restoredIndices ?? []).filter((index) => names.has(index));
      if (shared.length > 0) return { name: `${other.metadata.namespace ?? ''}/${other.metadata.name ?? ''}`, indices: shared };
    }
    return undefined;
  }

  /** The cached repository resource a restore names; a {@link DependencyError} while it is not there. */
  #repository(object: OpenSearchSnapshotRestore): OpenSearchSnapshotRepository {
    const name = object.spec.repositoryRef.name;
    const resource = this.#deps.repositories.store.get(name);
    if (resource === undefined) throw new DependencyError(OpenSearchReasons.snapshotRepositoryNotFound, `OpenSearchSnapshotRepository ${JSON.stringify(name)} does not exist`);
    return resource;
  }

  /** The restore call, then its acceptance record; a refusal is classified by what OpenSearch now holds. */
  async #call(object: OpenSearchSnapshotRestore, prepared: Prepared, context: ReconcileContext): Promise<Result> {
    try {
      await prepared.api.restoreSnapshot(prepared.repository, prepared.snapshot, restoreBody(prepared.targets, object.spec), { signal: context.signal });
    } catch (err) {
      if (isTerminalError(err)) {
        // A 400 restores nothing. A target that is an alias's name passes the GET-index check and is refused here.
        const reason = err.message.includes(ALIAS_TAKEN) ? OpenSearchReasons.indexExists : OpenSearchReasons.restoreFailed;
        await this.#fail(object, reason, `OpenSearch refused the restore: ${err.message}; nothing was restored`, context);
        return Result.done();
      }
      if (!isOpenSearchError(err)) throw err;
      // A 5xx may be "an index of that name exists" (created since our check) or a restore of ours that went
      // through before the answer was lost: OpenSearch's indices decide.
      return this.#settle(object, prepared, context, () => Promise.reject(err));
    }
    return this.#accept(object, prepared, context);
  }

  /** Decides from OpenSearch whether the restore took effect: ours → accepted; foreign → IndexExists; absent → `otherwise`. */
  async #settle(object: OpenSearchSnapshotRestore, prepared: Prepared, context: ReconcileContext, otherwise: () => Promise<Result>): Promise<Result> {
    const recognition = recognise(await this.#observe(prepared, context), { repository: prepared.repository, snapshot: prepared.snapshot });
    switch (recognition.kind) {
      case 'ours':
        context.log.info({ snapshot: prepared.snapshot }, 'the restore of this resource took effect in OpenSearch');
        return this.#accept(object, prepared, context);
      case 'foreign':
        await this.#fail(object, OpenSearchReasons.indexExists, `indices ${recognition.foreign.join(', ')} exist and were not restored from snapshot ${prepared.snapshot}; nothing was changed`, context);
        return Result.done();
      case 'unsettled':
        context.log.info({ snapshot: prepared.snapshot, detail: recognition.message }, 'waiting to tell whether the restore took effect');
        return Result.requeueAfter(this.#pollDelay(object));
      case 'absent':
        return otherwise();
    }
  }

  /** Records that OpenSearch accepted the restore (the second write), with an Event. */
  async #accept(object: OpenSearchSnapshotRestore, prepared: Prepared, context: ReconcileContext): Promise<Result> {
    const message = `restoring ${prepared.targets.map((t) => (t.source === t.target ? t.target : `${t.source} as ${t.target}`)).join(', ')} from snapshot ${prepared.snapshot} in repository ${prepared.repository}`;
    const written = await this.#write(object, { conditions: [ready('False', OpenSearchReasons.restoreInProgress, message), synced()] }, context);
    this.#deps.events.record(written ?? object, { type: 'Normal', reason: OpenSearchReasons.restoreStarted, action: ACTION, note: message });
    return Result.requeueAfter(this.#pollDelay(written ?? object));
  }

  /** Polls an accepted restore until it succeeds or fails. */
  async #poll(object: OpenSearchSnapshotRestore, context: ReconcileContext): Promise<Result> {
    this.#deps.connections.usable(object.spec.connectionRef.name);
    const api = await this.#deps.connections.api(object.spec.connectionRef.name);
    const targets = (object.status?.restoredIndices ?? []).map((target) => ({ source: target, target }));
    const progress = progressOf(await this.#observe({ api, targets }, context));
    const key = objectKey(object);
    if (progress.kind === 'missing') {
      await this.#fail(object, OpenSearchReasons.restoreFailed, `restored ${progress.indices.length === 1 ? 'index' : 'indices'} ${progress.indices.join(', ')} no longer ${progress.indices.length === 1 ? 'exists' : 'exist'} (deleted during the restore)`, context);
      return Result.done();
    }
    const counts = { shardsTotal: progress.shardsTotal, shardsDone: progress.shardsDone };
    if (progress.done) {
      const message = `restored ${targets.map((t) => t.target).join(', ')} from snapshot ${object.status?.snapshot ?? ''} (${progress.shardsDone} shards)`;
      const written = await this.#write(object, { conditions: [ready('True', OpenSearchReasons.restoreSucceeded, message), synced()], fields: { ...counts, phase: 'Succeeded', completionTime: rfc3339(this.#now()) } }, context);
      this.#deps.events.record(written ?? object, { type: 'Normal', reason: OpenSearchReasons.restoreSucceeded, action: ACTION, note: message });
      this.#stalledSince.delete(key);
      return Result.done();
    }
    if (progress.stalled.length === 0) this.#stalledSince.delete(key);
    else {
      const since = this.#stalledSince.get(key) ?? this.#now().getTime();
      this.#stalledSince.set(key, since);
      if (this.#now().getTime() - since >= this.#options.stalledGraceMs) {
        this.#stalledSince.delete(key);
        const message = `primary shards of ${progress.stalled.join(', ')} are unassigned and nothing recovers them: the restore failed (see GET _cluster/allocation/explain); the indices are left as they are`;
        await this.#fail(object, OpenSearchReasons.restoreFailed, message, context, counts);
        return Result.done();
      }
    }
    const message = `restoring from snapshot ${object.status?.snapshot ?? ''}: ${progress.shardsDone} of ${progress.shardsTotal} shards done`;
    await this.#write(object, { conditions: [ready('False', OpenSearchReasons.restoreInProgress, message), synced()], fields: counts }, context);
    return Result.requeueAfter(this.#pollDelay(object));
  }

  /**
   * Everything checked before a restore call (see the module header). `pinned` is the snapshot already chosen
   * (`status.snapshot`). Throws what is retried (a missing connection, namespace or repository, OpenSearch failures)
   * and the connection gate's `TerminalError` (woken when the connection turns Ready).
   */
  async #prepare(object: OpenSearchSnapshotRestore, pinned: string | undefined, context: ReconcileContext): Promise<Preparation> {
    const namespace = object.metadata.namespace ?? '';
    const connection = object.spec.connectionRef.name;
    this.#deps.connections.usable(connection);
    let tenancy;
    try {
      tenancy = this.#deps.connections.tenancy(connection, namespace);
    } catch (err) {
      if (isTerminalError(err)) return { kind: 'refused', reason: err.reason, message: err.message };
      throw err;
    }
    const repositoryRef = object.spec.repositoryRef.name;
    const resource = this.#repository(object);
    const namespaceObject = this.#deps.namespaces.store.get(namespace);
    if (namespaceObject === undefined) throw new DependencyError(ConnectionReasons.namespaceNotFound, `namespace ${JSON.stringify(namespace)} is not in the cache`);
    if (!repositoryAdmits(resource, namespaceObject.metadata?.labels)) {
      return { kind: 'refused', reason: TENANCY_VIOLATION, message: `namespace ${JSON.stringify(namespace)} is not selected by OpenSearchSnapshotRepository ${JSON.stringify(repositoryRef)} (tenancy.namespaceSelector)` };
    }
    if (resource.spec.connectionRef.name !== connection) {
      return {
        kind: 'refused',
        reason: Reasons.invalidSpec,
        message: `OpenSearchSnapshotRepository ${JSON.stringify(repositoryRef)} is registered through connection ${JSON.stringify(resource.spec.connectionRef.name)}, not ${JSON.stringify(connection)}; use a repository resource of this connection (it may point to the same storage)`,
      };
    }
    const repository = repositoryNameOf(resource);
    const api = await this.#deps.connections.api(connection);
    const signal = context.signal;
    let snapshotName = pinned ?? object.spec.snapshot;
    const policy = object.spec.latestOf?.policyRef.name;
    if (snapshotName === undefined) {
      if (policy === undefined) return { kind: 'refused', reason: Reasons.invalidSpec, message: 'exactly one of snapshot and latestOf must be set' };
      const candidates = (await api.listSnapshots(repository, policySnapshotPattern(namespace, policy), { signal })).filter((s) => s.state === 'SUCCESS' && isPolicySnapshot(s.name, namespace, policy));
      const latest = candidates.sort((a, b) => a.name.localeCompare(b.name)).at(-1);
      if (latest === undefined) return { kind: 'wait', reason: OpenSearchReasons.snapshotNotFound, message: `repository ${repository} has no successful snapshot of policy ${policy} (${policySnapshotPattern(namespace, policy)}) yet` };
      snapshotName = latest.name;
    }
    const snapshot = await api.getSnapshot(repository, snapshotName, { signal });
    if (snapshot === undefined) return { kind: 'wait', reason: OpenSearchReasons.snapshotNotFound, message: `snapshot ${snapshotName} is not in repository ${repository}` };
    if (snapshot.state === 'IN_PROGRESS') return { kind: 'wait', reason: OpenSearchReasons.snapshotInProgress, message: `snapshot ${snapshotName} is still being taken` };
    if (snapshot.state !== 'SUCCESS') {
      return { kind: 'refused', reason: OpenSearchReasons.snapshotNotRestorable, message: `snapshot ${snapshotName} ended ${snapshot.state}${snapshot.reason === undefined ? '' : ` (${snapshot.reason})`} and is not restored`, snapshot: snapshotName };
    }
    const plan = planRestore(tenancy, snapshot, object.spec);
    if (plan.kind === 'refused') return { kind: 'refused', reason: plan.reason, message: `${plan.message}; nothing was changed`, snapshot: snapshotName };
    return { kind: 'ready', api, repository, snapshot: snapshotName, targets: plan.targets };
  }

  /**
   * Reads every target at once: whether it exists and its health (the cluster health API at index level, from the
   * cluster state, so it answers while the targets are red), then its shards' recovery: two requests per poll
   * however many targets (more only when their names exceed one request line).
   */
  async #observe(prepared: Pick<Prepared, 'api' | 'targets'>, context: ReconcileContext): Promise<TargetObservation[]> {
    const { api, targets } = prepared;
    const signal = context.signal;
    const health = await api.indicesHealth(targets.map((t) => t.target), { signal });
    const present = targets.map((t) => t.target).filter((target) => health.has(target));
    const recoveries = present.length === 0 ? [] : await api.recovery(present, { signal });
    const byIndex = new Map(recoveries.map((r) => [r.index, r]));
    return targets.map(({ target }) => {
      const status = health.get(target);
      return status === undefined ? { target, exists: false } : { target, exists: true, health: status, recovery: byIndex.get(target) };
    });
  }

  /** Terminal: phase Failed, Ready and Synced False with the reason, Stalled (kstatus Failed), completionTime, a Warning Event. */
  async #fail(object: OpenSearchSnapshotRestore, reason: string, message: string, context: ReconcileContext, fields: Readonly<Record<string, unknown>> = {}): Promise<void> {
    const desired: DesiredStatus = { conditions: both('False', reason, message), fields: { ...fields, phase: 'Failed', completionTime: rfc3339(this.#now()) }, progress: stalled(reason, message) };
    const written = await this.#write(object, desired, context);
    this.#deps.events.record(written ?? object, { type: 'Warning', reason, action: ACTION, note: message });
    context.log.info({ reason }, 'restore refused or failed');
  }

  /** A failure that is retried: Synced=False with its reason; Ready False (never True before Succeeded). */
  async #writeFailure(object: OpenSearchSnapshotRestore, err: unknown, context: ReconcileContext): Promise<void> {
    const reason = errorReason(err) ?? Reasons.reconcileError;
    const message = err instanceof Error ? err.message : String(err);
    const conditions: ConditionUpdate[] = [{ type: SYNCED_CONDITION, status: 'False', reason, message }];
    // An accepted restore keeps its Ready (RestoreInProgress, the acceptance record); before that, Ready says why it waits.
    if (!accepted(object)) conditions.push(ready('False', reason, message));
    try {
      await this.#write(object, { conditions, fields: object.status?.phase === undefined ? { phase: 'Pending' } : {} }, context);
    } catch (writeErr) {
      context.log.warn({ err: writeErr instanceof Error ? writeErr.message : String(writeErr) }, 'could not record the failure in the status');
    }
  }

  /** One status write; the reply is remembered until the cache shows it. */
  async #write(object: OpenSearchSnapshotRestore, desired: DesiredStatus, context: ReconcileContext): Promise<OpenSearchSnapshotRestore | undefined> {
    const reply = await this.#deps.status.write(object, desired, { now: this.#now(), signal: context.signal });
    if (reply !== undefined) this.#written.remember(reply);
    return reply;
  }

  #now(): Date {
    return this.#deps.now?.() ?? new Date();
  }
}

/** Whether the restore call was accepted: the second write (Ready=False RestoreInProgress) is in the status. */
function accepted(object: OpenSearchSnapshotRestore): boolean {
  const condition: Condition | undefined = getCondition(object.status?.conditions, READY_CONDITION);
  return condition?.reason === OpenSearchReasons.restoreInProgress || condition?.reason === OpenSearchReasons.restoreSucceeded;
}

function ready(status: 'True' | 'False', reason: string, message: string): ConditionUpdate {
  return { type: READY_CONDITION, status, reason, message };
}

function synced(): ConditionUpdate {
  return { type: SYNCED_CONDITION, status: 'True', reason: Reasons.reconcileSuccess, message: '' };
}

function both(status: 'True' | 'False', reason: string, message: string): ConditionUpdate[] {
  return [ready(status, reason, message), { type: SYNCED_CONDITION, status, reason, message }];
}

/** Index of restores by the OpenSearchSnapshotRepository they name. */
export const BY_REPOSITORY = 'repository';

/**
 * Builds the `OpenSearchSnapshotRestore` controller: woken by its own objects (created, deleted, spec or
 * annotations changed: not by status writes, its own included, which would poll OpenSearch once more per progress
 * write; a running restore is polled on its own schedule), its connection (Ready flips), its namespace's labels and
 * its repository resource (tenancy). No finalizer: deleting a restore leaves its indices.
 */
export function snapshotRestoreController(deps: ManagedControllerDeps & { readonly connections: Connections }, options: SnapshotRestoreOptions = {}): Controller<OpenSearchSnapshotRestore> {
  const indexers = { [CONNECTION_INDEX]: byConnectionRef, [BY_REPOSITORY]: (object: OpenSearchSnapshotRestore) => [object.spec.repositoryRef.name] };
  const informer = deps.informers.informerFor(openSearchSnapshotRestores.type, { indexers });
  const reconciler = new SnapshotRestoreReconciler(
    {
      connections: deps.connections,
      repositories: deps.informers.informerFor(openSearchSnapshotRepositories.type),
      namespaces: deps.informers.informerFor(coreTypes.namespace),
      restores: informer,
      status: restoreStatusWriter(deps.client),
      events: deps.events,
    },
    options,
  );
  return watchConnectionDependents(new ControllerBuilder({ informers: deps.informers }, 'opensearchsnapshotrestore').for(openSearchSnapshotRestores.type, or(generationChanged, annotationsChanged)), informer, openSearchConnections.type)
    .watches(openSearchSnapshotRepositories.type, (repository: OpenSearchSnapshotRepository) => informer.store.byIndex(BY_REPOSITORY, repository.metadata.name ?? '').map(requestFor))
    .withOptions({ ...deps.controllerOptions, rateLimiter: operatorRateLimiter(deps.clock) })
    .complete(reconciler, { indexers });
}

