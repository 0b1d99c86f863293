/**
 * `OpenSearchSnapshotPolicy`: a scheduler, not one external object, so a plain reconciler rather than the
 * external-resource one. Each reconcile:
 *
 * 1. Tenancy first, from the caches, before any request: the namespace on the connection (its selector and prefix),
 *    the `OpenSearchSnapshotRepository` (cluster-scoped) admitting the namespace by its `tenancy.namespaceSelector`
 *    and using the same connection, every index pattern inside the prefix, `includeGlobalState` false; the schedule,
 *    its zone and the retention age must parse (`InvalidSpec`). A refusal is terminal (`TenancyViolation`,
 *    `InvalidSpec`): nothing is asked of OpenSearch until the policy, its repository or its namespace changes.
 * 2. Lists the policy's own snapshots (`<namespace>-<policy>-<stamp>`) and decides from that listing
 *    (`opensearchsnapshotpolicy.plan.ts`): wait for one in progress, or start exactly one that a schedule slot or a
 *    new `snapshot-now` token is owed, or apply retention. A crash at any point leaves OpenSearch's listing, which the
 *    next reconcile reads, so no slot and no token gets two snapshots.
 *    Retention deletes nothing while any snapshot runs in the repository (OpenSearch would hold the delete until
 *    it finished).
 * 3. Writes the status once (Ready, Synced, lastSnapshot, nextSnapshotTime, snapshotCount, lastManualToken) and
 *    requeues: every second or few while a snapshot runs (sooner while it is young), otherwise at the next slot (or the next retention expiry,
 *    at most an hour away).
 *
 * `Ready` tells the outcome of the newest finished snapshot: `LastSnapshotFailed` (with OpenSearch's reason) when it
 * ended FAILED, PARTIAL or INCOMPATIBLE or OpenSearch refused to start it; `Scheduled` (or `Suspended`) otherwise.
 * A refused start is not retried before the next slot; a refused `snapshot-now` keeps its token unrecorded and is
 * tried again at `refusedRetryMs`. Events: `SnapshotStarted`, `SnapshotTaken`, `SnapshotFailed` (Warning),
 * `SnapshotDeleted`. The policy has no finalizer: deleting it deletes no snapshot.
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { ConditionUpdate, Controller, CronSchedule, DesiredStatus, ReconcileContext, Reconciler, Recorder, Request, StatusWriter, StoreSource } from '@domain-operators/reconcile';
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
  isTerminalError,
  or,
  OwnWrites,
  parseSchedule,
  READY_CONDITION,
  Reasons,
  reconciling,
  requestFor,
  requestKey,
  Result,
  stalled,
  statusWriterFor,
  SYNCED_CONDITION,
  TerminalError,
  watchConnectionDependents,
  workersFor,
} from '@domain-operators/reconcile';
import type { OpenSearchSnapshotPolicy, OpenSearchSnapshotPolicyStatus, OpenSearchSnapshotRepository } from '../api/v1alpha1/index.ts';
import { openSearchConnections, openSearchSnapshotPolicies, openSearchSnapshotRepositories, SNAPSHOT_NOW_ANNOTATION } from '../api/v1alpha1/index.ts';
import { youngPollDelay } from '../opensearch/poll-delay.ts';
import { isOpenSearchError, OpenSearchError } from '../opensearch/errors.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import type { ObservedSnapshot } from '../opensearch/snapshot-types.ts';
import { policySnapshotPattern, repositoryAdmits, repositoryNameOf } from '../opensearch/snapshot-tenancy.ts';
import { indexPatternProblems, tenancyError, violation } from '../opensearch/tenancy.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { operatorRateLimiter } from './managed-controller.ts';
import type { PolicyPlan, Retention, SnapshotToTake } from './opensearchsnapshotpolicy.plan.ts';
import { isFailedState, nextExpiry, parseRetentionAge, planPolicy, SNAPSHOT_METADATA, snapshotStamp, tokenKey } from './opensearchsnapshotpolicy.plan.ts';

/**
 * Workers for policies at least: their calls are independent per policy (each touches only its own snapshots), and
 * policies sharing a slot (`0 2 * * *` across namespaces) should start together, not one after another behind a
 * slow answer.
 */
const POLICY_WORKERS = 4;

/** Index of policies by the `OpenSearchSnapshotRepository` they name. */
export const BY_REPOSITORY = 'snapshotRepository';

/** The longest snapshot name OpenSearch takes (bytes, as for index names). */
const MAX_SNAPSHOT_NAME = 255;

/** `status.lastSnapshot`. */
type SnapshotSummary = NonNullable<OpenSearchSnapshotPolicyStatus['lastSnapshot']>;

/** What {@link SnapshotPolicyReconciler} reads and writes through. */
export interface SnapshotPolicyDeps {
  readonly connections: Pick<Connections, 'usable' | 'api' | 'tenancy'>;
  /** The cached repositories (cluster-scoped, by name). */
  readonly repositories: StoreSource<OpenSearchSnapshotRepository>;
  /** The cached namespaces (for the repository's namespaceSelector). */
  readonly namespaces: StoreSource<V1Namespace>;
  readonly status: StatusWriter<OpenSearchSnapshotPolicy>;
  readonly events: Recorder;
  /** Wall-clock time (slots, snapshot names, retention ages); default `new Date()`. */
  readonly now?: () => Date;
}

/** Options of {@link SnapshotPolicyReconciler}. */
export interface SnapshotPolicyOptions {
  /**
   * How often a snapshot in progress is looked at again, at most; default 5 s. A young one is looked at sooner (a
   * tenth of its age, from `firstPollMs`), so a snapshot is reported within about 10% of its duration after it ends.
   */
  readonly pollMs?: number;
  /** The first look at a snapshot just started; default 1 s. */
  readonly firstPollMs?: number;
  /** When a `snapshot-now` OpenSearch refused is tried again; default 60 s. */
  readonly refusedRetryMs?: number;
  /** The longest wait between two reconciles of a policy; default 1 h. */
  readonly maxWaitMs?: number;
  /** When retention that waited for a running snapshot in its repository looks again; default 30 s. */
  readonly busyRetryMs?: number;
}

/** What the spec resolves to once tenancy and syntax passed. */
interface PolicyTarget {
  readonly namespace: string;
  readonly policy: string;
  readonly connection: string;
  readonly repository: string;
  readonly indices: readonly string[];
  readonly schedule: CronSchedule;
  readonly retention: Retention | undefined;
}

/** One reconcile's result (its Events are recorded as things happen): the Ready condition and fields to write, and when to come back. */
interface Outcome {
  readonly ready: ConditionUpdate;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly result: Result;
}

/** See the module comment. Keeps in memory only its own last status write per policy, until the cache shows it. */
export class SnapshotPolicyReconciler implements Reconciler<OpenSearchSnapshotPolicy> {
  readonly #deps: SnapshotPolicyDeps;
  readonly #options: Required<SnapshotPolicyOptions>;
  readonly #written = new OwnWrites<OpenSearchSnapshotPolicy>();

  /** Does no work. */
  constructor(deps: SnapshotPolicyDeps, options: SnapshotPolicyOptions = {}) {
    this.#deps = deps;
    this.#options = {
      pollMs: options.pollMs ?? 5_000,
      firstPollMs: options.firstPollMs ?? 100,
      refusedRetryMs: options.refusedRetryMs ?? 60_000,
      maxWaitMs: options.maxWaitMs ?? 3_600_000,
      busyRetryMs: options.busyRetryMs ?? 30_000,
    };
  }

  /** Forgets the remembered status write of a deleted policy. Cheap, never throws. */
  forget(request: Request): void {
    this.#written.forget(requestKey(request));
  }

  /**
   * See the module comment. Throws (after writing `Synced=False` with the reason) what the loop should retry, and a
   * `TerminalError` for a refusal that waits for a change.
   */
  async reconcile(cached: OpenSearchSnapshotPolicy, context: ReconcileContext): Promise<Result> {
    const policy = this.#written.over(cached);
    const now = this.#now();
    let outcome: Outcome;
    try {
      const target = this.#target(policy);
      outcome = await this.#run(policy, target, now, context);
    } catch (err) {
      if (context.signal.aborted) throw err;
      await this.#writeFailure(policy, err, now);
      throw err;
    }
    await this.#write(policy, { conditions: [outcome.ready, { type: SYNCED_CONDITION, status: 'True', reason: Reasons.reconcileSuccess, message: '' }], fields: outcome.fields }, now);
    return outcome.result;
  }

  /** The policy's target, checked from the caches alone; throws the refusal. */
  #target(policy: OpenSearchSnapshotPolicy): PolicyTarget {
    const namespace = policy.metadata.namespace ?? '';
    const name = policy.metadata.name ?? '';
    if (namespace === '') throw new TerminalError('OpenSearchSnapshotPolicy resources must be namespaced', Reasons.invalidSpec);
    const { spec } = policy;
    const connection = spec.connectionRef.name;
    const tenancy = this.#deps.connections.tenancy(connection, namespace);
    const repository = this.#deps.repositories.store.get(spec.repositoryRef.name);
    if (repository === undefined) throw new DependencyError(OpenSearchReasons.snapshotRepositoryNotFound, `OpenSearchSnapshotRepository "${spec.repositoryRef.name}" does not exist`);
    const problems: string[] = [];
    const ns = this.#deps.namespaces.store.get(namespace);
    if (ns === undefined) throw new DependencyError(ConnectionReasons.namespaceNotFound, `namespace "${namespace}" is not in the cache yet`);
    if (!repositoryAdmits(repository, ns.metadata?.labels)) problems.push(`namespace "${namespace}" is not selected by OpenSearchSnapshotRepository "${spec.repositoryRef.name}" (tenancy.namespaceSelector)`);
    if (repository.spec.connectionRef.name !== connection) {
      problems.push(`OpenSearchSnapshotRepository "${spec.repositoryRef.name}" is on connection "${repository.spec.connectionRef.name}", this policy on "${connection}"`);
    }
    problems.push(...indexPatternProblems(tenancy, 'indices', spec.indices));
    if (spec.includeGlobalState === true) problems.push('includeGlobalState must be false: a namespace may not snapshot the cluster state');
    if (problems.length > 0) throw tenancyError(violation(problems));

    const parsed = parseSchedule(spec.schedule, spec.timeZone ?? 'UTC');
    if (!parsed.ok) throw new TerminalError(parsed.message, Reasons.invalidSpec);
    let retention: Retention | undefined;
    if (spec.retention !== undefined) {
      const maxAgeMs = spec.retention.maxAge === undefined ? undefined : parseRetentionAge(spec.retention.maxAge);
      if (spec.retention.maxAge !== undefined && maxAgeMs === undefined) throw new TerminalError(`retention.maxAge "${spec.retention.maxAge}" is not a duration such as 90m, 12h, 7d or 2w`, Reasons.invalidSpec);
      retention = {
        ...(spec.retention.maxCount === undefined ? {} : { maxCount: spec.retention.maxCount }),
        ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
        ...(spec.retention.minCount === undefined ? {} : { minCount: spec.retention.minCount }),
      };
    }
    const longest = `${namespace}-${name}-yyyymmddhhmmss`;
    if (Buffer.byteLength(longest) > MAX_SNAPSHOT_NAME) {
      throw new TerminalError(`snapshot names ${namespace}-${name}-<stamp> would be longer than ${MAX_SNAPSHOT_NAME} bytes: use a shorter policy name`, Reasons.invalidSpec);
    }
    return { namespace, policy: name, connection, repository: repositoryNameOf(repository), indices: spec.indices, schedule: parsed.schedule, retention };
  }

  async #run(policy: OpenSearchSnapshotPolicy, target: PolicyTarget, now: Date, context: ReconcileContext): Promise<Outcome> {
    this.#deps.connections.usable(target.connection);
    const api = await this.#deps.connections.api(target.connection);
    const options = { signal: context.signal };
    const listed = await api.listSnapshots(target.repository, policySnapshotPattern(target.namespace, target.policy), options);
    const recorded = policy.status?.lastSnapshot;
    const token = policy.metadata.annotations?.[SNAPSHOT_NOW_ANNOTATION];
    const plan = planPolicy({
      namespace: target.namespace,
      policy: target.policy,
      now,
      schedule: target.schedule,
      suspend: policy.spec.suspend === true,
      ...(policy.metadata.creationTimestamp === undefined ? {} : { notBefore: new Date(policy.metadata.creationTimestamp) }),
      snapshots: listed,
      ...(recorded === undefined ? {} : { recordedName: recorded.name }),
      ...(token === undefined ? {} : { manualToken: token }),
      ...(policy.status?.lastManualToken === undefined ? {} : { lastManualToken: policy.status.lastManualToken }),
      ...(target.retention === undefined ? {} : { retention: target.retention }),
    });
    const stampOf = (snapshot: ObservedSnapshot): number => snapshotStamp(snapshot.name, target.namespace, target.policy) ?? 0;
    const base = {
      nextSnapshotTime: plan.next?.toISOString() ?? null,
      ...(plan.tokenTaken === undefined ? {} : { lastManualToken: plan.tokenTaken }),
    };
    const action = plan.action;

    if (action.kind === 'take') {
      const taken = await this.#take(policy, target, action.snapshot, now, context);
      if (taken.refused !== undefined) {
        const summary: SnapshotSummary = { name: action.snapshot.name, state: 'FAILED', startTime: now.toISOString() };
        const message = `OpenSearch refused to start snapshot ${action.snapshot.name}: ${taken.refused}`;
        this.#deps.events.record(policy, { type: 'Warning', reason: OpenSearchReasons.snapshotFailed, action: 'CreateSnapshot', note: message });
        // The slot counts as attempted (lastSnapshot); a snapshot-now token stays unrecorded and is tried again.
        const retryMs = action.snapshot.token === undefined ? this.#idleWait(plan, [], target, now, stampOf) : Math.min(this.#options.refusedRetryMs, this.#idleWait(plan, [], target, now, stampOf));
        return {
          ready: { type: READY_CONDITION, status: 'False', reason: OpenSearchReasons.lastSnapshotFailed, message },
          fields: { ...base, lastSnapshot: summary, snapshotCount: plan.owned.length },
          result: Result.requeueAfter(retryMs),
        };
      }
      const summary: SnapshotSummary = { name: action.snapshot.name, state: 'IN_PROGRESS', startTime: now.toISOString() };
      return {
        ready: this.#ready(policy, plan, plan.owned, recorded, target, summary),
        fields: { ...base, ...(action.snapshot.token === undefined ? {} : { lastManualToken: action.snapshot.token }), lastSnapshot: summary, snapshotCount: plan.owned.length + 1 },
        result: Result.requeueAfter(this.#pollDelay(0)),
      };
    }

    const newest = plan.owned[0];
    // The newest listed snapshot, unless the status records a later attempt (refused, or deleted since).
    const summary: SnapshotSummary | undefined =
      newest !== undefined && (recorded === undefined || stampOf(newest) >= (snapshotStamp(recorded.name, target.namespace, target.policy) ?? 0)) ? summaryOf(newest) : recorded;
    if (newest !== undefined && summary?.name === newest.name) this.#recordTransition(policy, newest, recorded);
    let victims = action.kind === 'prune' ? action.victims : [];
    // OpenSearch holds a delete until every snapshot running in the repository (any policy's, or one by hand) has
    // finished, longer than a request may wait: retention waits for a quiet repository instead.
    const busy = victims.length > 0 && (await api.listSnapshots(target.repository, '_current', options)).length > 0;
    if (busy) {
      context.log.info({ repository: target.repository, due: victims.length }, 'retention waits: a snapshot is running in the repository');
      victims = [];
    }
    for (const victim of victims) {
      try {
        await api.deleteSnapshot(target.repository, victim.name, options);
      } catch (err) {
        // A refusal (the snapshot is being restored, or another delete runs) is retried, never a reason to stop the schedule.
        if (context.signal.aborted || !isTerminalError(err)) throw err;
        throw new OpenSearchError(OpenSearchReasons.error, err.message, undefined, { cause: err });
      }
      this.#deps.events.record(policy, {
        type: 'Normal',
        reason: OpenSearchReasons.snapshotDeleted,
        action: 'DeleteSnapshot',
        note: `retention deleted snapshot ${victim.name} (${victim.state}) from repository ${target.repository}`,
      });
      context.log.info({ snapshot: victim.name, repository: target.repository }, 'retention deleted a snapshot');
    }
    const gone = new Set(victims.map((victim) => victim.name));
    const remaining = plan.owned.filter((snapshot) => !gone.has(snapshot.name));
    return {
      ready: this.#ready(policy, plan, remaining, recorded, target, summary),
      fields: { ...base, ...(summary === undefined ? {} : { lastSnapshot: summary }), snapshotCount: remaining.length },
      result: Result.requeueAfter(action.kind === 'wait' ? this.#pollDelay(now.getTime() - stampOf(action.inProgress)) : busy ? Math.min(this.#options.busyRetryMs, this.#idleWait(plan, [], target, now, stampOf)) : this.#idleWait(plan, victims, target, now, stampOf)),
    };
  }

  /** Starts one snapshot. Resolves `{}` once OpenSearch accepted it, `{ refused }` with OpenSearch's reason when it refused it; throws a retryable failure. */
  async #take(policy: OpenSearchSnapshotPolicy, target: PolicyTarget, snapshot: SnapshotToTake, now: Date, context: ReconcileContext): Promise<{ readonly refused?: string }> {
    const api = await this.#deps.connections.api(target.connection);
    const metadata: Record<string, string> = { [SNAPSHOT_METADATA.policy]: `${target.namespace}/${target.policy}` };
    if (snapshot.slot !== undefined) metadata[SNAPSHOT_METADATA.slot] = snapshot.slot.toISOString();
    if (snapshot.token !== undefined) metadata[SNAPSHOT_METADATA.token] = tokenKey(snapshot.token);
    try {
      await api.createSnapshot(target.repository, snapshot.name, { indices: target.indices, include_global_state: false, ignore_unavailable: true, partial: false, metadata }, { signal: context.signal });
    } catch (err) {
      if (context.signal.aborted) throw err;
      // The name is taken: by this policy's own earlier request whose answer was lost. Retried: the next listing shows it.
      if (err instanceof Error && /same name (already exists|is already in-progress)/.test(err.message)) {
        throw new OpenSearchError(Reasons.alreadyExists, `${err.message}; listing the policy's snapshots again`, 400, { cause: err });
      }
      const refused = refusal(err);
      if (refused === undefined) throw err;
      context.log.info({ snapshot: snapshot.name, repository: target.repository, reason: refused }, 'OpenSearch refused to start a snapshot');
      return { refused };
    }
    const why = [snapshot.slot === undefined ? undefined : `the slot ${snapshot.slot.toISOString()}`, snapshot.token === undefined ? undefined : `snapshot-now "${snapshot.token}"`].filter((part) => part !== undefined).join(' and ');
    this.#deps.events.record(policy, {
      type: 'Normal',
      reason: OpenSearchReasons.snapshotStarted,
      action: 'CreateSnapshot',
      note: `started snapshot ${snapshot.name} of ${target.indices.join(',')} in repository ${target.repository} for ${why}`,
    });
    context.log.info({ snapshot: snapshot.name, repository: target.repository, at: now.toISOString() }, 'started a snapshot');
    return {};
  }

  /**
   * `Ready` from the newest finished snapshot: `LastSnapshotFailed` with OpenSearch's reason for a failed one (or the
   * earlier refusal message, kept, when the status records a refused start newer than anything listed); otherwise
   * `Scheduled`/`Suspended`.
   */
  #ready(policy: OpenSearchSnapshotPolicy, plan: PolicyPlan, own: readonly ObservedSnapshot[], recorded: SnapshotSummary | undefined, target: PolicyTarget, current: SnapshotSummary | undefined): ConditionUpdate {
    const stamp = (name: string): number => snapshotStamp(name, target.namespace, target.policy) ?? 0;
    const finished = own.find((snapshot) => snapshot.state !== 'IN_PROGRESS');
    const recordedLater = recorded !== undefined && !own.some((snapshot) => snapshot.name === recorded.name) && recorded.state !== 'IN_PROGRESS' && (finished === undefined || stamp(recorded.name) > stamp(finished.name));
    if (recordedLater && isFailedState(recorded.state)) {
      const before = getCondition(policy.status?.conditions, READY_CONDITION);
      const message = before?.reason === OpenSearchReasons.lastSnapshotFailed && before.message.includes(recorded.name) ? before.message : `snapshot ${recorded.name} ended ${recorded.state}`;
      return { type: READY_CONDITION, status: 'False', reason: OpenSearchReasons.lastSnapshotFailed, message };
    }
    if (!recordedLater && finished !== undefined && isFailedState(finished.state)) {
      const shards = finished.shardsTotal > 0 ? ` (${finished.shardsFailed} of ${finished.shardsTotal} shards failed)` : '';
      return { type: READY_CONDITION, status: 'False', reason: OpenSearchReasons.lastSnapshotFailed, message: `snapshot ${finished.name} ended ${finished.state}${shards}: ${finished.reason ?? 'OpenSearch gave no reason'}` };
    }
    const last = current === undefined ? 'no snapshot yet' : `last snapshot ${current.name} ${current.state}`;
    if (plan.next === undefined) return { type: READY_CONDITION, status: 'True', reason: OpenSearchReasons.suspended, message: `suspended: no scheduled snapshots (snapshot-now and retention still run); ${last}` };
    return { type: READY_CONDITION, status: 'True', reason: OpenSearchReasons.scheduled, message: `${last}; next at ${plan.next.toISOString()} ("${target.schedule.expression}" in ${target.schedule.timeZone})` };
  }

  /** An Event when the newest listed snapshot finished since the status last recorded it. */
  #recordTransition(policy: OpenSearchSnapshotPolicy, newest: ObservedSnapshot, recorded: SnapshotSummary | undefined): void {
    if (newest.state === 'IN_PROGRESS' || (recorded?.name === newest.name && recorded.state === newest.state)) return;
    if (newest.state === 'SUCCESS') {
      this.#deps.events.record(policy, { type: 'Normal', reason: OpenSearchReasons.snapshotTaken, action: 'CreateSnapshot', note: `snapshot ${newest.name} completed: ${newest.shardsSuccessful} of ${newest.shardsTotal} shards` });
      return;
    }
    this.#deps.events.record(policy, {
      type: 'Warning',
      reason: OpenSearchReasons.snapshotFailed,
      action: 'CreateSnapshot',
      note: `snapshot ${newest.name} ended ${newest.state} (${newest.shardsFailed} of ${newest.shardsTotal} shards failed): ${newest.reason ?? 'OpenSearch gave no reason'}`,
    });
  }

  /** When to look again at a snapshot `ageMs` old: a tenth of its age, within `firstPollMs` and `pollMs`. */
  #pollDelay(ageMs: number): number {
    return youngPollDelay(ageMs, { firstMs: this.#options.firstPollMs, maxMs: this.#options.pollMs });
  }

  /** How long to wait with nothing in progress: until the next slot or retention expiry, at most `maxWaitMs`. A little late rather than early, so the slot is at or before the clock. */
  #idleWait(plan: PolicyPlan, victims: readonly ObservedSnapshot[], target: PolicyTarget, now: Date, stampOf: (snapshot: ObservedSnapshot) => number): number {
    const expiry = nextExpiry(plan.owned, victims, target.retention, now, stampOf);
    const times = [plan.next, expiry].filter((at): at is Date => at !== undefined).map((at) => at.getTime() - now.getTime() + 250);
    return Math.max(0, Math.min(this.#options.maxWaitMs, ...times));
  }

  /** Writes `Synced=False` (and `Ready=False` for a refusal, or when there is no Ready yet) with the error's reason. */
  async #writeFailure(policy: OpenSearchSnapshotPolicy, err: unknown, now: Date): Promise<void> {
    const reason = errorReason(err) ?? OpenSearchReasons.error;
    const message = err instanceof Error ? err.message : String(err);
    const terminal = isTerminalError(err);
    const failed: ConditionUpdate = { type: SYNCED_CONDITION, status: 'False', reason, message };
    const hasReady = getCondition(policy.status?.conditions, READY_CONDITION) !== undefined;
    const conditions: ConditionUpdate[] = terminal || !hasReady ? [failed, { type: READY_CONDITION, status: 'False', reason, message }] : [failed];
    // A refusal takes no snapshot until something changes: no next snapshot time then.
    await this.#write(policy, { conditions, ...(terminal ? { fields: { nextSnapshotTime: null }, progress: stalled(reason, message) } : { progress: reconciling(reason, message) }) }, now);
  }

  async #write(policy: OpenSearchSnapshotPolicy, desired: DesiredStatus, now: Date): Promise<void> {
    const reply = await this.#deps.status.patchStatus(policy, desired, now);
    if (reply === undefined) return;
    this.#written.remember(reply);
  }

  #now(): Date {
    return this.#deps.now?.() ?? new Date();
  }
}

/**
 * OpenSearch's answer when it refused to start a snapshot (an answer that says it cannot be made: a 400, or a 500
 * such as `repository_exception: cannot create snapshot in a readonly repository`), or `undefined` for a failure to
 * retry: no answer, 401, 403, 404 (the repository is not registered yet), 429, 503, or a name already taken.
 */
function refusal(err: unknown): string | undefined {
  if (isTerminalError(err)) return err.message;
  if (isOpenSearchError(err) && err.status !== undefined && (err.status === 500 || (err.status >= 400 && err.status < 500 && ![401, 403, 404, 409, 429].includes(err.status))) && err.reason !== Reasons.alreadyExists) {
    return err.message;
  }
  return undefined;
}

/** The status summary of a listed snapshot (shard counts once it finished: OpenSearch reports 0 while it runs). */
function summaryOf(snapshot: ObservedSnapshot): SnapshotSummary {
  return {
    name: snapshot.name,
    state: snapshot.state,
    ...(snapshot.startTime === undefined ? {} : { startTime: snapshot.startTime }),
    ...(snapshot.endTime === undefined ? {} : { endTime: snapshot.endTime }),
    ...(snapshot.state === 'IN_PROGRESS' ? {} : { shardsTotal: snapshot.shardsTotal, shardsFailed: snapshot.shardsFailed }),
  };
}

/**
 * Builds the `OpenSearchSnapshotPolicy` controller: woken by its own spec and annotation changes (snapshot-now), by
 * its connection (`watchConnectionDependents`: created, deleted, spec or Ready changed) and namespace labels, and by
 * any change of the repository it names (through {@link BY_REPOSITORY}). At least four workers (the shared
 * `maxConcurrentReconciles` when higher).
 */
export function snapshotPolicyController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchSnapshotPolicy> {
  const indexers = {
    [CONNECTION_INDEX]: byConnectionRef,
    [BY_REPOSITORY]: (policy: OpenSearchSnapshotPolicy) => [policy.spec.repositoryRef.name],
  };
  const type = openSearchSnapshotPolicies.type;
  const informer = deps.informers.informerFor(type, { indexers });
  const reconciler = new SnapshotPolicyReconciler({
    connections: deps.connections,
    repositories: deps.informers.informerFor(openSearchSnapshotRepositories.type),
    namespaces: deps.informers.informerFor(coreTypes.namespace),
    status: statusWriterFor(deps.client, type),
    events: deps.events,
  });
  const builder = watchConnectionDependents(new ControllerBuilder({ informers: deps.informers }, 'opensearchsnapshotpolicy').for(type, or(generationChanged, annotationsChanged)), informer, openSearchConnections.type)
    .watches(openSearchSnapshotRepositories.type, (repository: OpenSearchSnapshotRepository) => informer.store.byIndex(BY_REPOSITORY, repository.metadata.name ?? '').map(requestFor))
    .withOptions({ ...deps.controllerOptions, maxConcurrentReconciles: workersFor(deps.controllerOptions.maxConcurrentReconciles ?? 1, { minWorkers: POLICY_WORKERS }), rateLimiter: operatorRateLimiter(deps.clock) });
  return builder.complete(reconciler, { indexers });
}
