/**
 * The external-resource pattern (after Crossplane's managed resources): a custom resource stands for one object in an
 * external system (a Kafka topic, an OpenSearch role, a Redis ACL user). A kind supplies an {@link ExternalAdapter}
 * and pure functions from the resource to its external name and desired spec; {@link ExternalResourceReconciler}
 * holds every rule around them: finalizer, deletion policy, pause, ownership and adoption, name conflicts, drift
 * checks, the `Synced` and `Ready` conditions.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Condition, ConditionUpdate } from '../core/conditions.ts';
import type { DeletionPolicy } from '../crd/crd.ts';
import { getCondition, READY_CONDITION, SYNCED_CONDITION } from '../core/conditions.ts';
import { errorReason } from '../core/reasoned-error.ts';
import { Reasons } from '../core/reasons.ts';
import { DEFAULT_DRIFT_CHECK_INTERVAL_MS, DEFAULT_DRIFT_JITTER, jittered, parseDuration } from './drift.ts';
import { isTerminalError, stallsProgress, TerminalError } from '../core/errors.ts';
import type { ClaimIndex } from './external-claims.ts';
import type { CreateClaims } from './create-claims.ts';
import { claimWinner } from './external-claims.ts';
import type { Recorder } from '../observability/events.ts';
import type { WritePriority } from '../observability/write-priority.ts';
import type { FinalizerDeps, FinalizerHandlers } from '../controller/finalizer.ts';
import { releaseFinalizer, withFinalizer } from '../controller/finalizer.ts';
import type { ExternalAdapter, ExternalContext, ExternalStatusFields } from './external-adapter.ts';
import type { Client } from '../client/client.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { Request } from '../core/request.ts';
import { objectKey, requestKey } from '../core/request.ts';
import { errorFields } from '../core/logger.ts';
import type { ReconcileContext, Reconciler } from '../controller/reconciler.ts';
import { Result } from '../core/result.ts';
import type { DesiredStatus } from '../status/status.ts';
import { statusChange, writeStatusIfChanged } from '../status/status.ts';
import { OwnWrites } from '../status/own-writes.ts';
import { reconciling, settled, stalled } from '../status/progress.ts';

// ---------------------------------------------------------------------------------------------------------------
// What the reconciler needs from the rest of the runtime (small interfaces, so the real helpers plug in)

/**
 * Runs `apply` or `cleanup` under this kind's finalizer: finalizer.ts's `withFinalizer` bound to a finalizer name
 * ({@link finalizerRunner} builds that). Not deleting → add the finalizer if missing, then `apply`; deleting with the
 * finalizer → `cleanup`, removing the finalizer only when it returns `Result.done()`; deleting without it → nothing.
 * An error from either handler is rethrown and the finalizer stays.
 */
export interface FinalizerRunner<T extends KubernetesObject> {
  run(object: T, handlers: Omit<FinalizerHandlers<T>, 'finalizer'>): Promise<Result>;
  /**
   * Removes the finalizer from an object that is not being deleted, when it carries it; resolves to the object as
   * the apiserver now has it (the same object, and no request, when there was nothing to remove).
   */
  release(object: T): Promise<T>;
}

/** The {@link FinalizerRunner} over finalizer.ts's `withFinalizer` and `releaseFinalizer` with finalizer name `finalizer`. */
export function finalizerRunner<T extends KubernetesObject>(finalizer: string, deps: FinalizerDeps<T>): FinalizerRunner<T> {
  return {
    run: (object, handlers) => withFinalizer(object, { ...handlers, finalizer }, deps),
    release: (object) => releaseFinalizer(object, finalizer, deps),
  };
}

/**
 * Writes status conditions and fields ({@link statusWriterFor} binds status.ts's `writeStatusIfChanged` to a client
 * and resource type). The reconciler calls it only when something changed. Resolves to the object as the apiserver
 * returned it (the reconciler remembers that reply until its cache shows it), or `undefined` when it wrote nothing
 * or cannot tell.
 */
export interface StatusWriter<T extends KubernetesObject> {
  patchStatus(object: T, desired: DesiredStatus, now: Date): Promise<T | undefined>;
}

/**
 * The {@link StatusWriter} of kind `type` through `client`: one merge patch of the changed fields, or none. With
 * `priority`, each patch counts as urgent there, so writes that may trail (Events) wait for it.
 */
export function statusWriterFor<T extends KubernetesObject>(client: Client, type: ResourceType<T>, priority?: Pick<WritePriority, 'track'>): StatusWriter<T> {
  if (priority === undefined) return { patchStatus: (object, desired, now) => writeStatusIfChanged(client, type, object, desired, { now }) };
  return { patchStatus: (object, desired, now) => priority.track(writeStatusIfChanged(client, type, object, desired, { now })) };
}

// ---------------------------------------------------------------------------------------------------------------
// Status

/** What the resource says about the external object it manages. */
export type Ownership = 'CreatePending' | 'Created' | 'Adopted';

/**
 * The status fields this reconciler writes (merged into the kind's own status; other fields are left alone):
 * `observedGeneration`, the `Synced` and `Ready` conditions, `externalName` (the name the resource maps to) and
 * `ownership`: absent when this resource has never managed the external object; `CreatePending` while a create
 * may or may not have happened (written before the create, so a crash right after it does not turn our own object
 * into a foreign one; never written for an adapter that marks its creates, {@link ExternalAdapter.marksCreator},
 * nor when the claim went to the ledger, {@link ExternalResourceDeps.createClaims});
 * `Created` or `Adopted` once it manages it.
 */
export interface ExternalResourceStatus {
  readonly observedGeneration?: number;
  readonly conditions?: readonly Condition[];
  readonly externalName?: string;
  readonly ownership?: Ownership;
}

/** Condition types and reasons this reconciler writes (the runtime's {@link Reasons}, grouped for this reconciler). */
export const ExternalConditions = {
  synced: SYNCED_CONDITION,
  ready: READY_CONDITION,
  reconcileSuccess: Reasons.reconcileSuccess,
  reconcileError: Reasons.reconcileError,
  available: Reasons.available,
  paused: Reasons.paused,
  observed: Reasons.observed,
  externalNotFound: Reasons.externalNotFound,
  alreadyExists: Reasons.alreadyExists,
  resourceConflict: Reasons.resourceConflict,
  externalNameChanged: Reasons.externalNameChanged,
} as const;

/** Event reasons this reconciler records (all `Normal`; the runtime's {@link Reasons}). */
export const ExternalEvents = {
  created: Reasons.created,
  adopted: Reasons.adopted,
  updated: Reasons.updated,
  driftCorrected: Reasons.driftCorrected,
  deleted: Reasons.deleted,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// The reconciler

/** The collaborators of an {@link ExternalResourceReconciler}. */
export interface ExternalResourceDeps<T extends KubernetesObject, D, O, C = unknown> {
  readonly adapter: ExternalAdapter<T, D, O, C>;
  readonly claims: ClaimIndex<T>;
  readonly finalizer: FinalizerRunner<T>;
  readonly status: StatusWriter<T>;
  readonly events: Recorder;
  /**
   * Where claims go before a create instead of a `CreatePending` status write, when the adapter neither marks its
   * creates nor records an intent: a ledger shared by every create (ADR 0007, addendum "the claims ledger"), so a
   * burst of creates costs one status write each plus a few ledger writes. Absent: the status claim, as before.
   */
  readonly createClaims?: CreateClaims;
  /** Wall-clock time for `lastTransitionTime`; default `new Date()`. */
  readonly now?: () => Date;
  /** A uniform source in [0, 1) for jitter; default `Math.random`. */
  readonly random?: () => number;
}

/**
 * What one look at a resource's dependencies gives a reconcile ({@link ExternalResourceOptions.connect}): the
 * identity of its external object and the desired external spec.
 */
export interface Connected<D> {
  /**
   * The identity of the external object in its system, unique among everything this reconciler manages (include the
   * target cluster when a kind can address several, e.g. `prod/orders`).
   */
  readonly externalName: string;
  readonly desired: D;
}

/** What makes one kind: its functions and defaults. */
export interface ExternalResourceOptions<T extends KubernetesObject, D, C = unknown> {
  /** Prefix of the control annotations, usually the API group: `<prefix>/paused`, `/adopt`, `/drift-check-interval`. */
  readonly annotationPrefix: string;
  /**
   * The resource's external name and desired spec, from one look at what it depends on (its connection, its
   * namespace's tenancy, the caches): called once per reconcile, first (crossplane's `Connect`). Reads caches only;
   * throws before anything external is touched: `TerminalError` (reason `InvalidSpec`, `TenancyViolation`, the
   * connection's own reason, …) for what waits for a change, a retried error (`ConnectionNotFound`) otherwise.
   */
  connect(object: T): Connected<D> | Promise<Connected<D>>;
  /**
   * The client bound to the connection `externalName` is on (the computed name, or the recorded one when deleting):
   * what the adapter's `context.client()` resolves to, called at most once per reconcile and only when the adapter
   * asks. May read the connection's Secrets; rejects with a retried `DependencyError` (`ConnectionNotFound`,
   * `SecretNotFound`). Absent: the kind binds no client, and `context.client()` rejects.
   */
  client?(externalName: string, signal?: AbortSignal): Promise<C>;
  /**
   * The kind's default deletion policy: `Retain` for data-bearing kinds (topics, indices). `Retain` leaves the external
   * object when the resource is deleted; `Delete` deletes it, but only when this resource owns it.
   */
  readonly defaultDeletionPolicy: DeletionPolicy;
  /** Reads the resource's own deletion policy (e.g. `spec.deletionPolicy`); `undefined` means the kind's default. */
  deletionPolicy?(object: T): DeletionPolicy | undefined;
  /** Adopt an existing, unowned external object without the adopt annotation when it already matches exactly. Default false. */
  readonly adoptExactMatch?: boolean;
  /** Default drift-check interval of the kind (default 10 min); a resource may override it by annotation. */
  readonly driftCheckIntervalMs?: number;
  /** Lower bound for an interval given by annotation, to protect the external system (default 10 s). */
  readonly minDriftCheckIntervalMs?: number;
  /** Relative jitter of drift checks (default 0.1, i.e. ±10 %). */
  readonly driftJitter?: number;
  /**
   * Reasons of `TerminalError`s that depend on the external system as well as on the spec (a replication factor above
   * the broker count, say: brokers may join). Such a refusal is written as any other, but the reconcile then resolves
   * with a requeue after the drift-check interval instead of rethrowing, so it is looked at again without waiting for
   * a change of the resource. Default: none.
   */
  readonly recheckedReasons?: readonly string[];
}

interface Claim {
  readonly externalName: string;
  readonly ownership: Ownership;
}

/**
 * The state of one reconcile: the latest known version of the object (updated after each status write) and the
 * adapter's status fields reported so far, written with every status write of this reconcile.
 */
interface Attempt<T extends KubernetesObject, C> {
  object: T;
  readonly context: ReconcileContext;
  /** The client of this reconcile, from the first adapter call that asked for it. */
  client?: Promise<C>;
  adapterFields?: ExternalStatusFields;
  /** The Event of a create or adoption, recorded only after the status write that says so (Events trail status). */
  event?: { readonly reason: string; readonly action: string; readonly note: string };
  /**
   * True from an observation that found the object this resource manages missing until its re-create returned: a
   * failure meanwhile turns `Ready` False (the object is known not to exist), instead of leaving it as it was.
   */
  missing?: boolean;
}

const MAX_DIFF_LINES = 10;
const MAX_MESSAGE_LENGTH = 1024;
const MIN_DRIFT_CHECK_INTERVAL_MS = 10_000;

/**
 * A {@link Reconciler} for resources that stand for one external object each. Per reconcile:
 *
 * 1. `<prefix>/paused: "true"`: no adapter call at all; `Synced=False/Paused`, `Ready` unchanged; no finalizer is
 *    added. A paused resource being deleted releases its finalizer only when that needs no external call (Retain, or
 *    nothing owned); under `Delete` an owned object waits, finalizer kept, until the annotation goes.
 * 2. Otherwise connect: the external name and desired spec from one look at the resource's dependencies (a
 *    `TerminalError` writes its reason and stops; the client bound to its connection is built when the adapter first
 *    asks, once per reconcile); settle name
 *    conflicts (the claimant that owns the name, else the oldest, wins; the others get `ResourceConflict` and touch
 *    nothing); observe; then create, update, adopt or refuse (`AlreadyExists`, with the diff) by the ownership rules;
 *    record ownership; `Synced=True`, `Ready=True`; requeue after the jittered drift interval. An update of an owned
 *    object at an unchanged generation is drift: corrected, with a `DriftCorrected` Event. This runs under the
 *    finalizer only when the deletion policy is `Delete`: a `Retain` resource has nothing to clean up, so it carries
 *    no finalizer (one left from a former `Delete` is removed) and neither it nor its namespace ever waits for this
 *    operator to be deleted. (A resource switched to `Delete` gets the finalizer at its next reconcile; deleted
 *    before that, it leaves the external object, as `Retain` would.)
 * 2a. `<prefix>/observe-only: "true"`: connect and observe only, never create, update or delete; no finalizer, no
 *    name claimed; `Synced=True/Observed` and `Ready=True` while the object exists, `ExternalNotFound` while not.
 * 3. On deletion under the finalizer: `Delete` deletes the external object only if this resource owns it; `Retain`
 *    leaves it.
 *
 * Status, one path: the adapter returns the kind's own fields (from `observe`, `create`, `update`) and the
 * reconciler writes them with `Synced`, `Ready` and `observedGeneration` in one patch; `observedGeneration` moves only
 * in a patch after which every condition carries the new generation (status.ts's `statusChange`). The only other
 * writes are write-ahead records of fields alone, before an external call: the `CreatePending` claim (with the
 * adapter's {@link ExternalAdapter.intent}; not for an adapter that marks its creates, whose mark in the external
 * object is the claim, so a create is one status write; nor with a claims ledger, where the claims of concurrent
 * creates share a few ledger writes and an existing object claimed there by this resource is its own create) and an
 * intent before an update. The `Created` and `Adopted` Events are recorded after the status write that records the
 * ownership, so they trail it. Errors: status is written first
 * (`Synced=False` with the error's reason or `ReconcileError`; `Ready=False` too when there was no `Ready` yet, when
 * this reconcile saw the owned object missing and could not create it again, or when the error stalls the resource),
 * then the error is rethrown so the loop backs off (or, for a `TerminalError`, waits for a change, or, for a reason in
 * `recheckedReasons`, looks again after the drift-check interval).
 *
 * kstatus (ADR 0031): a success settles (`Stalled` and `Reconciling` removed); a retryable failure is
 * `Reconciling=True`; a stalling `TerminalError` and the refusals `AlreadyExists` and `ResourceConflict` are
 * `Stalled=True`, with `Ready=False` at the same generation, so Flux and kpt fail at once instead of waiting out their
 * timeout; a paused resource is settled while Ready and stalled (`Paused`) while not.
 *
 * Read your own writes: the apiserver's reply to each status write is remembered by key until the cache shows that
 * resourceVersion (or a newer one), and every reconcile, claim check and adapter call sees the object with it, so a
 * stale cache read right after our own create or adoption never mistakes our object for a foreign one. The memory
 * of a key goes when the cache catches up, when the object's UID changes and when the controller reports the object
 * deleted ({@link ExternalResourceReconciler.forget}). Construction does no work.
 */
export class ExternalResourceReconciler<T extends KubernetesObject, D, O, C = unknown> implements Reconciler<T> {
  readonly #deps: ExternalResourceDeps<T, D, O, C>;
  readonly #options: ExternalResourceOptions<T, D, C>;
  /** The status writes this process made that the cache does not show yet (read your own writes). */
  readonly #written = new OwnWrites<T>();
  /** Request key → UID of a resource whose claim this process put in the ledger and has not released yet. */
  readonly #ledgerClaims = new Map<string, string>();

  constructor(deps: ExternalResourceDeps<T, D, O, C>, options: ExternalResourceOptions<T, D, C>) {
    this.#deps = deps;
    this.#options = options;
  }

  /** How many objects' own status writes this process remembers right now (for tests and debugging). */
  get remembered(): number {
    return this.#written.size;
  }

  /** Forgets what this process remembers of `request`'s object; the controller calls it when the object is deleted. */
  forget(request: Request): void {
    const key = requestKey(request);
    this.#written.forget(key);
    const uid = this.#ledgerClaims.get(key);
    if (uid !== undefined) this.#deps.createClaims?.release(uid);
    this.#ledgerClaims.delete(key);
  }

  /** See {@link ExternalResourceReconciler}. */
  async reconcile(cached: T, context: ReconcileContext): Promise<Result> {
    const object = this.#withOwnWrites(cached);
    const attempt: Attempt<T, C> = { object, context };
    const paused = this.#annotation(object, 'paused') === 'true';
    const observeOnly = isObserveOnly(object, this.#options.annotationPrefix);
    const deleting = object.metadata?.deletionTimestamp != null;
    if (paused && !deleting) {
      const message = `reconciliation is paused by the annotation ${this.#options.annotationPrefix}/paused; remove it to resume`;
      // Paused is idle, not stuck, while the object works; one that is not Ready cannot get there until resumed.
      const ready = getCondition(statusOf(object).conditions, ExternalConditions.ready)?.status === 'True';
      await this.#writeStatus(attempt, {
        conditions: [condition(ExternalConditions.synced, 'False', ExternalConditions.paused, message)],
        progress: ready ? settled : stalled(ExternalConditions.paused, message),
      });
      return Result.done();
    }
    // Nothing to clean up: Retain leaves the external object, and an observe-only resource never touches it.
    if (!deleting && (observeOnly || this.#deletionPolicy(object) === 'Retain')) {
      const released = await this.#deps.finalizer.release(object);
      const attempt = { object: this.#withOwnWrites(released), context };
      return observeOnly ? this.#observeOnly(attempt) : this.#apply(attempt);
    }
    return this.#deps.finalizer.run(object, {
      apply: (current) => this.#apply({ object: current, context }),
      cleanup: (current) => (paused ? this.#cleanupPaused({ object: current, context }) : observeOnly ? Promise.resolve(Result.done()) : this.#cleanup({ object: current, context })),
    });
  }

  /**
   * Observe-only (`<prefix>/observe-only: "true"`, crossplane's `managementPolicies: [Observe]`): reads the external
   * object into status and never creates, updates or deletes it, nor claims its name. Exists: `Synced=True/Observed`
   * (the message lists how it differs from the spec), `Ready=True`, the adapter's fields. Missing: `Ready=False/
   * ExternalNotFound`, retried at the drift-check interval (another tool may create it).
   */
  async #observeOnly(attempt: Attempt<T, C>): Promise<Result> {
    try {
      const { externalName, desired } = await this.#options.connect(attempt.object);
      const observation = await this.#deps.adapter.observe(desired, this.#contextFor(attempt, externalName));
      if (!observation.exists) {
        const message = `${externalName} does not exist; this resource is observe-only and never creates it`;
        await this.#writeStatus(attempt, {
          conditions: [condition(ExternalConditions.synced, 'False', ExternalConditions.externalNotFound, message), condition(ExternalConditions.ready, 'False', ExternalConditions.externalNotFound, message)],
          fields: { externalName },
          progress: reconciling(ExternalConditions.externalNotFound, message),
        });
        return this.#requeue(attempt);
      }
      this.#report(attempt, observation.status);
      const message = observation.upToDate ? 'observed; it matches the spec' : `observed; it differs from the spec: ${summarise(observation.diff)}`;
      await this.#writeStatus(attempt, {
        conditions: [condition(ExternalConditions.synced, 'True', ExternalConditions.observed, truncate(message)), condition(ExternalConditions.ready, 'True', ExternalConditions.available, '')],
        fields: { externalName },
      });
      return this.#requeue(attempt);
    } catch (err) {
      await this.#recordFailure(attempt, err);
      throw err;
    }
  }

  async #apply(attempt: Attempt<T, C>): Promise<Result> {
    try {
      return await this.#sync(attempt);
    } catch (err) {
      await this.#recordFailure(attempt, err);
      if (isTerminalError(err) && this.#options.recheckedReasons?.includes(err.reason) === true) {
        attempt.context.log.info(errorFields(err), 'refused for now; checking again at the drift-check interval');
        return this.#requeue(attempt);
      }
      throw err;
    }
  }

  async #sync(attempt: Attempt<T, C>): Promise<Result> {
    const { object } = attempt;
    const { externalName, desired } = await this.#options.connect(object);
    let claim = this.#claimOf(object);
    if (claim !== undefined && claim.externalName !== externalName) {
      if (claim.ownership !== 'CreatePending') {
        throw new TerminalError(
          `the external name cannot change once managed: this resource manages ${claim.externalName}, its spec now gives ${externalName}; delete and recreate the resource to move it`,
          ExternalConditions.externalNameChanged,
        );
      }
      // A create of the old name that failed (or never ran) must not pin the resource to that name.
      attempt.context.log.warn({ externalName: claim.externalName }, 'forgetting a pending create of a former external name');
      claim = undefined;
    }

    const winner = this.#winner(object, externalName);
    if (uidOf(winner) !== uidOf(object)) {
      const why = this.#claimOf(winner)?.externalName === externalName ? 'which manages it' : 'which is older';
      const message = `external name ${externalName} is already claimed by ${describe(winner)}, ${why}; this resource does nothing until that one is deleted`;
      await this.#writeStatus(attempt, notSynced(externalName, ExternalConditions.resourceConflict, message));
      return this.#requeue(attempt);
    }

    const adapter = this.#deps.adapter;
    const observation = await adapter.observe(desired, this.#contextFor(attempt, externalName));
    const drift = this.#syncedAtThisGeneration(object);

    if (!observation.exists) {
      const intent = adapter.intent?.(desired, undefined, this.#contextFor(attempt, externalName));
      if (claim === undefined || claim.ownership === 'CreatePending') {
        // An adapter that marks its creates records the claim and the intent in the object itself, atomically.
        if (adapter.marksCreator === true) this.#report(attempt, intent);
        else if (!(await this.#claimInLedger(attempt, externalName, intent, claim))) await this.#writeAhead(attempt, { ...intent, externalName, ownership: 'CreatePending' });
        this.#report(attempt, (await adapter.create(desired, this.#contextFor(attempt, externalName))).status);
        attempt.event = { reason: ExternalEvents.created, action: 'Create', note: `created ${externalName}` };
      } else {
        attempt.missing = true;
        await this.#writeAhead(attempt, intent);
        this.#report(attempt, (await adapter.create(desired, this.#contextFor(attempt, externalName))).status);
        attempt.missing = false;
        this.#event(attempt, ExternalEvents.driftCorrected, 'Create', `recreated ${externalName}, which was deleted outside this resource`);
      }
      claim = { externalName, ownership: 'Created' };
    } else if (claim !== undefined) {
      this.#report(attempt, observation.status);
      if (claim.ownership === 'CreatePending') claim = { externalName, ownership: 'Created' }; // our create went through
      if (!observation.upToDate) {
        await this.#update(attempt, externalName, desired, observation.observed);
        if (drift) this.#event(attempt, ExternalEvents.driftCorrected, 'Update', `corrected changes made outside this resource: ${summarise(observation.diff)}`);
        else this.#event(attempt, ExternalEvents.updated, 'Update', `updated ${externalName}: ${summarise(observation.diff)}`);
      }
    } else if (await this.#ownCreateWithoutStatus(attempt, externalName, observation.createdBy)) {
      // Our own create (marked with our UID, or claimed in the ledger) whose status write did not happen (a crash, a failed patch).
      this.#report(attempt, observation.status);
      claim = { externalName, ownership: 'Created' };
      if (!observation.upToDate) await this.#update(attempt, externalName, desired, observation.observed);
      attempt.event = { reason: ExternalEvents.created, action: 'Create', note: `created ${externalName}` };
    } else if (this.#annotation(object, 'adopt') === 'true' || (this.#options.adoptExactMatch === true && observation.upToDate)) {
      this.#report(attempt, observation.status);
      if (!observation.upToDate) await this.#update(attempt, externalName, desired, observation.observed);
      claim = { externalName, ownership: 'Adopted' };
      attempt.event = { reason: ExternalEvents.adopted, action: 'Adopt', note: `adopted the existing ${externalName}` };
    } else {
      const differences = observation.upToDate ? 'it matches the spec' : `differences: ${summarise(observation.diff)}`;
      const message = `${externalName} already exists and is not managed by this resource; set the annotation ${this.#options.annotationPrefix}/adopt: "true" to take it over (${differences})`;
      await this.#writeStatus(attempt, notSynced(externalName, ExternalConditions.alreadyExists, message));
      return this.#requeue(attempt);
    }

    await this.#writeStatus(attempt, {
      conditions: [
        condition(ExternalConditions.synced, 'True', ExternalConditions.reconcileSuccess, ''),
        condition(ExternalConditions.ready, 'True', ExternalConditions.available, ''),
      ],
      fields: { externalName, ownership: claim.ownership },
    });
    // The status now records the ownership: the ledger's claim has done its job, and the Event may follow.
    this.#releaseLedgerClaim(attempt, externalName);
    if (attempt.event !== undefined) this.#event(attempt, attempt.event.reason, attempt.event.action, attempt.event.note);
    return this.#requeue(attempt);
  }

  /**
   * Puts the claim in the ledger instead of a `CreatePending` status write, when the kind has a ledger, the adapter
   * records no intent (the ledger holds names only) and no status claim is pending already; resolves to whether it
   * did (false: full, or not used, and the caller writes the status claim).
   */
  async #claimInLedger(attempt: Attempt<T, C>, externalName: string, intent: ExternalStatusFields | undefined, claim: Claim | undefined): Promise<boolean> {
    const ledger = this.#deps.createClaims;
    if (ledger === undefined || intent !== undefined || claim !== undefined) return false;
    const uid = uidOf(attempt.object);
    this.#ledgerClaims.set(objectKey(attempt.object), uid);
    if (await ledger.claim(uid, externalName, attempt.context.signal)) return true;
    attempt.context.log.info({ externalName }, 'the claims ledger is full; claiming in status');
    return false;
  }

  /**
   * Whether an existing object that this resource's status does not claim is this resource's own create whose status
   * write was lost: it carries this resource's creation mark (an adapter that marks its creates), or the ledger holds
   * this resource's claim of the name (read afresh, so a claim another process made before its create is seen).
   */
  async #ownCreateWithoutStatus(attempt: Attempt<T, C>, externalName: string, createdBy: string | undefined): Promise<boolean> {
    const uid = uidOf(attempt.object);
    if (this.#deps.adapter.marksCreator === true) {
      if (createdBy === undefined || createdBy !== uid) return false;
      attempt.context.log.info({ externalName }, 'the external object carries this resource’s creation mark: taken as created by it');
      return true;
    }
    const ledger = this.#deps.createClaims;
    if (ledger === undefined || !(await ledger.confirm(uid, externalName, attempt.context.signal))) return false;
    this.#ledgerClaims.set(objectKey(attempt.object), uid);
    attempt.context.log.info({ externalName }, 'the claims ledger holds this resource’s claim of the existing external object: taken as created by it');
    return true;
  }

  /** Drops this resource's ledger claim once its status records the ownership (lazily, batched by the ledger). */
  #releaseLedgerClaim(attempt: Attempt<T, C>, externalName: string): void {
    const ledger = this.#deps.createClaims;
    if (ledger === undefined) return;
    const key = objectKey(attempt.object);
    const uid = uidOf(attempt.object);
    if (this.#ledgerClaims.get(key) !== uid && !ledger.holds(uid, externalName)) return;
    ledger.release(uid);
    this.#ledgerClaims.delete(key);
  }

  async #cleanup(attempt: Attempt<T, C>): Promise<Result> {
    const { object } = attempt;
    const claim = this.#claimOf(object);
    const policy = this.#deletionPolicy(object);
    if (policy === 'Retain' || claim === undefined) {
      attempt.context.log.info({ policy, externalName: claim?.externalName, owned: claim !== undefined }, 'releasing the resource; the external object is left alone');
      return Result.done();
    }
    let desired: D | undefined;
    try {
      ({ desired } = await this.#options.connect(object));
    } catch (err) {
      attempt.context.log.info(errorFields(err), 'desired spec not computable during deletion; deleting by name');
    }
    try {
      await this.#deps.adapter.delete({ externalName: claim.externalName, desired }, this.#contextFor(attempt, claim.externalName));
    } catch (err) {
      await this.#recordFailure(attempt, err);
      throw err;
    }
    this.#event(attempt, ExternalEvents.deleted, 'Delete', `deleted ${claim.externalName} (deletionPolicy Delete)`);
    return Result.done();
  }

  /** Releases only what needs no external call; an owned object under `Delete` keeps the finalizer until resumed. */
  async #cleanupPaused(attempt: Attempt<T, C>): Promise<Result> {
    const { object } = attempt;
    const claim = this.#claimOf(object);
    if (this.#deletionPolicy(object) === 'Retain' || claim === undefined) return Result.done();
    const message = `deletion of ${claim.externalName} waits: reconciliation is paused by the annotation ${this.#options.annotationPrefix}/paused; remove it to delete`;
    await this.#writeStatus(attempt, { conditions: [condition(ExternalConditions.synced, 'False', ExternalConditions.paused, message)] });
    // Not a TerminalError: that would record a misleading CleanupFailed event. Removing the annotation wakes us anyway.
    return this.#requeue(attempt);
  }

  /** Status first, so users see why; a failing status write is logged and the original error wins. */
  async #recordFailure(attempt: Attempt<T, C>, err: unknown): Promise<void> {
    const reason = reasonOf(err);
    const message = truncate(err instanceof Error ? err.message : 'non-Error thrown');
    const stuck = stallsProgress(err);
    // Ready keeps what it said when a later sync fails and may yet pass (the object exists and works), unless it was
    // just seen missing; a refusal that waits for a change says Ready=False, so no reader takes the spec as applied.
    const keepReady = !stuck && attempt.missing !== true && getCondition(statusOf(attempt.object).conditions, ExternalConditions.ready) !== undefined;
    try {
      await this.#writeStatus(attempt, {
        conditions: [
          condition(ExternalConditions.synced, 'False', reason, message),
          ...(keepReady ? [] : [condition(ExternalConditions.ready, 'False', reason, message)]),
        ],
        progress: stuck ? stalled(reason, message) : reconciling(reason, message),
      });
    } catch (writeErr) {
      attempt.context.log.warn(errorFields(writeErr), 'could not record the failure in status');
    }
  }

  /** Runs the adapter's update after its write-ahead intent, and keeps the status fields it reports. */
  async #update(attempt: Attempt<T, C>, externalName: string, desired: D, observed: O): Promise<void> {
    await this.#writeAhead(attempt, this.#deps.adapter.intent?.(desired, observed, this.#contextFor(attempt, externalName)));
    this.#report(attempt, (await this.#deps.adapter.update(desired, observed, this.#contextFor(attempt, externalName))).status);
  }

  /** Keeps the kind's own status fields an adapter call reported, for every later write of this reconcile. */
  #report(attempt: Attempt<T, C>, fields: ExternalStatusFields | undefined): void {
    if (fields !== undefined) attempt.adapterFields = { ...attempt.adapterFields, ...fields };
  }

  /**
   * Writes fields alone before an external call (the claim, the adapter's intent), so a crash between the two
   * cannot lose the record; nothing when they are already there. Never moves `observedGeneration`.
   */
  async #writeAhead(attempt: Attempt<T, C>, fields: ExternalStatusFields | undefined): Promise<void> {
    if (fields === undefined) return;
    this.#report(attempt, fields);
    await this.#writeStatus(attempt, {});
  }

  /** One status patch with everything this reconcile knows: `desired` plus the adapter's fields; nothing when unchanged. */
  async #writeStatus(attempt: Attempt<T, C>, desired: DesiredStatus): Promise<void> {
    const full: DesiredStatus = attempt.adapterFields === undefined ? desired : { ...desired, fields: { ...attempt.adapterFields, ...desired.fields } };
    const now = this.#now();
    const change = statusChange(attempt.object, full, now);
    if (change === undefined) return;
    const reply = await this.#deps.status.patchStatus(attempt.object, full, now);
    // Later writes in this reconcile, and later reconciles until the cache catches up, start from what we wrote:
    // the apiserver's reply when the writer gives one, else the cached object with our change.
    if (reply !== undefined) {
      attempt.object = reply;
      this.#written.remember(reply);
    } else {
      attempt.object = { ...attempt.object, status: { ...statusOf(attempt.object), ...change } };
      this.#written.remember(attempt.object, change);
    }
  }

  /** `cached`, or this process's last status write of it while the cache does not show that write yet (`OwnWrites`). */
  #withOwnWrites(cached: T): T {
    return this.#written.over(cached);
  }

  /** The claim of `object` (already seen through {@link #withOwnWrites}): its status's external name and ownership. */
  #claimOf(object: KubernetesObject): Claim | undefined {
    const status = statusOf(object);
    if (status.externalName === undefined || status.ownership === undefined) return undefined;
    return { externalName: status.externalName, ownership: status.ownership };
  }

  #now(): Date {
    return (this.#deps.now ?? defaultNow)();
  }

  #winner(object: T, externalName: string): T {
    const uid = uidOf(object);
    // An observe-only resource never writes, so it claims nothing.
    const others = this.#deps.claims.claimants(externalName).filter((c) => uidOf(c) !== uid && !isObserveOnly(c, this.#options.annotationPrefix));
    const claimants = [object, ...others.map((c) => this.#withOwnWrites(c))];
    // A claim in the ledger counts as managing, as a `CreatePending` in status does: its create may have happened.
    const manages = (c: T): boolean => this.#claimOf(c)?.externalName === externalName || this.#deps.createClaims?.holds(uidOf(c), externalName) === true;
    return claimWinner(claimants, manages) ?? object;
  }

  #syncedAtThisGeneration(object: T): boolean {
    const synced = getCondition(statusOf(object).conditions, ExternalConditions.synced);
    return synced?.status === 'True' && synced.observedGeneration === object.metadata?.generation;
  }

  #deletionPolicy(object: T): DeletionPolicy {
    return this.#options.deletionPolicy?.(object) ?? this.#options.defaultDeletionPolicy;
  }

  #requeue(attempt: Attempt<T, C>): Result {
    const kindDefault = this.#options.driftCheckIntervalMs ?? DEFAULT_DRIFT_CHECK_INTERVAL_MS;
    let interval = kindDefault;
    const annotated = this.#annotation(attempt.object, 'drift-check-interval');
    if (annotated !== undefined) {
      const parsed = parseDuration(annotated);
      if (parsed === undefined) attempt.context.log.warn({ value: annotated }, 'ignoring an invalid drift-check-interval annotation');
      else interval = Math.max(parsed, this.#options.minDriftCheckIntervalMs ?? MIN_DRIFT_CHECK_INTERVAL_MS);
    }
    return Result.checkDriftAfter(jittered(interval, this.#deps.random ?? Math.random, this.#options.driftJitter ?? DEFAULT_DRIFT_JITTER));
  }

  #contextFor(attempt: Attempt<T, C>, externalName: string): ExternalContext<T, C> {
    return { ...attempt.context, object: attempt.object, externalName, client: () => (attempt.client ??= this.#client(externalName, attempt.context.signal)) };
  }

  #client(externalName: string, signal: AbortSignal): Promise<C> {
    if (this.#options.client === undefined) return Promise.reject(new Error(`no client is bound to ${externalName}: the kind's options give none`));
    return this.#options.client(externalName, signal);
  }

  #event(attempt: Attempt<T, C>, reason: string, action: string, note: string): void {
    this.#deps.events.record(attempt.object, { type: 'Normal', reason, action, note: truncate(note) });
  }

  #annotation(object: T, name: string): string | undefined {
    return object.metadata?.annotations?.[`${this.#options.annotationPrefix}/${name}`];
  }
}

/** Whether `object` carries `<prefix>/observe-only: "true"`. */
function isObserveOnly(object: KubernetesObject, prefix: string): boolean {
  return object.metadata?.annotations?.[`${prefix}/observe-only`] === 'true';
}

/** Synced and Ready both False, and stalled, for a refusal that touched nothing (AlreadyExists, ResourceConflict). */
function notSynced(externalName: string, reason: string, message: string): DesiredStatus {
  return {
    conditions: [condition(ExternalConditions.synced, 'False', reason, message), condition(ExternalConditions.ready, 'False', reason, message)],
    fields: { externalName },
    progress: stalled(reason, message),
  };
}

function condition(type: string, status: 'True' | 'False', reason: string, message: string): ConditionUpdate {
  return { type, status, reason, message };
}

/** The condition reason for a thrown error: its own CamelCase `reason` (TerminalError, adapter errors) or `ReconcileError`. */
function reasonOf(err: unknown): string {
  return errorReason(err) ?? Reasons.reconcileError;
}

function statusOf(object: KubernetesObject): ExternalResourceStatus {
  const status = (object as { status?: unknown }).status;
  return typeof status === 'object' && status !== null ? status : {};
}

function uidOf(object: KubernetesObject): string {
  return object.metadata?.uid ?? '';
}

function describe(object: KubernetesObject): string {
  const namespace = object.metadata?.namespace;
  const name = object.metadata?.name ?? '?';
  return `${namespace === undefined || namespace === '' ? name : `${namespace}/${name}`} (uid ${uidOf(object)})`;
}

function summarise(diff: readonly string[]): string {
  if (diff.length === 0) return 'no details';
  const shown = diff.slice(0, MAX_DIFF_LINES).join('; ');
  return diff.length > MAX_DIFF_LINES ? `${shown}; and ${diff.length - MAX_DIFF_LINES} more` : shown;
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : text;
}

function defaultNow(): Date {
  return new Date();
}
