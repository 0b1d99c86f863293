/**
 * The RedisReplication reconciler: owned objects, replication topology and failover, live config, the default
 * user's password, status.
 */
import type { V1ConfigMap, V1Pod, V1PodDisruptionBudget, V1Secret, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import { ensureSecret, generatePassword, isDependencyError, Reasons, isNotFound, requiredSecret, requiredSecretValue, isTerminalError, objectKey, requestFor, requestKey, Result, rfc3339, secretValue, stalled, storeSecrets, TerminalError } from '@domain-operators/reconcile';
import type { Client, Clock, ConditionUpdate, EnsureSecretDeps, ObjectReader, Progress, ReconcileContext, Reconciler, Recorder, Request, SecretSource, Store } from '@domain-operators/reconcile';
import { MANAGED_CONFIG_KEYS, redisBackups, redisReplications } from '../api/v1alpha1/index.ts';
import type { RedisBackup, RedisReplication, RedisUser } from '../api/v1alpha1/index.ts';
import type { AgentImage } from '../config.ts';
import type { BootstrapUsers, Credentials } from '../redis/bootstrap.ts';
import type { RedisMemberClient } from '../redis/client.ts';
import { fencingConfig, redisConf, restartHash, splitConfig } from '../redis/config-file.ts';
import type { WriteFencing } from '../redis/config-file.ts';
import { executePlan } from '../redis/execute.ts';
import {
  authSecretFor,
  configMapFor,
  headlessServiceFor,
  INTERNAL_KEYS,
  internalSecretFor,
  objectNames,
  OPERATOR_USERNAME,
  podDisruptionBudgetFor,
  primaryServiceFor,
  replicasServiceFor,
  REPLICATION_USERNAME,
  restoreConfigMapFor,
  statefulSetFor,
  TEMPLATE_HASH_ANNOTATION,
} from '../redis/manifests.ts';
import type { StatefulSetInput } from '../redis/manifests.ts';
import { CONDITION_TYPES, decideTopology, INITIAL_MEMORY } from '../redis/topology.ts';
import type { FailoverSettings, TopologyDecision, TopologyMemory } from '../redis/topology.ts';
import type { MemberInfo } from '../redis/info.ts';
import { applyIfChanged, canonicalJson } from './apply.ts';
import { AppliedMemory } from './applied-memory.ts';
import { kinds, USERS_BY_REPLICATION } from './kinds.ts';
import { EVENTS_BY_STATEFULSET, memberRefusal, missingMembers } from './member-refusal.ts';
import type { CoreEvent, MemberRefusal } from './member-refusal.ts';
import { incarnationOf, isPodReady, memberPods, PODS_BY_REPLICATION } from './members.ts';
import { addressesOf, observeMembers } from './observe.ts';
import type { ObservedMember } from './observe.ts';
import { PodLabeler } from './pod-labeler.ts';
import { writeReplicationStatus } from './replication-status-writer.ts';
import { goodReplicas, REPLICATION_REASONS, replicationConditions, requeueDelayMs } from './replication-status.ts';
import type { FencingFacts } from './replication-status.ts';
import { restoreFailureOf } from './restore-progress.ts';
import { restoringPods } from '../agent/restore-plan.ts';
import { doneRestoreMount, resolveRestore, restorePending } from './restore-source.ts';
import type { PendingRestore } from './restore-source.ts';
import { outdatedMembers, rolloutPlan } from './rollout.ts';
import { chooseSwitchover, fencedLag, parseSwitchoverRequest, SWITCHOVER_ANNOTATION, SWITCHOVER_CONDITION, SWITCHOVER_REASONS } from './switchover-request.ts';
import type { SwitchoverOutcome } from './switchover-request.ts';
import type { RequeueOptions } from './replication-status.ts';

/** The caches the reconciler reads (all may be stale). */
export interface ReplicationStores {
  readonly pods: Store<V1Pod>;
  /** The Secrets this operator generated (label-scoped cache): `<name>-auth` and the internal Secret. */
  readonly secrets: Store<V1Secret>;
  readonly configMaps: Store<V1ConfigMap>;
  readonly services: Store<V1Service>;
  readonly statefulSets: Store<V1StatefulSet>;
  readonly podDisruptionBudgets: Store<V1PodDisruptionBudget>;
  readonly users: Store<RedisUser>;
  /** Events about StatefulSets, indexed by {@link EVENTS_BY_STATEFULSET} (the StatefulSet controller's create attempts). */
  readonly events: Store<CoreEvent>;
}

/** Dependencies of {@link RedisReplicationReconciler}. */
export interface RedisReplicationReconcilerDeps {
  readonly client: Client;
  readonly stores: ReplicationStores;
  /** Secrets a user names (`auth.secretRef`), read by name; never from the label-scoped cache. */
  readonly referenced: SecretSource;
  readonly recorder: Recorder;
  /** A member client authenticated as the replication's operator user (no I/O on creation). */
  readonly memberClient: (credentials: Credentials) => RedisMemberClient;
  /** Monotonic clock for failure timing. */
  readonly clock: Clock;
  /** Wall clock for status times. */
  readonly now?: () => Date;
  readonly generatePassword?: () => string;
  /** The operator's own image, which runs a restore; undefined outside a cluster (a restore then waits, saying so). */
  readonly agentImage?: AgentImage;
  /** RedisBackups by name, read only while a restore from one is pending. Default: live reads through `client`. */
  readonly backups?: ObjectReader<RedisBackup>;
}

/** Options of {@link RedisReplicationReconciler}. */
export type RedisReplicationReconcilerOptions = RequeueOptions;

const DEFAULT_USER_ITEM = 'acl:default';
const CONFIG_ITEM = 'config';
const DEFAULT_USER_RULES = ['~*', '&*', '+@all'];
/**
 * How long a switchover holds the outgoing primary's writes (`CLIENT PAUSE … WRITE`) at most: lifted as soon as it is
 * repointed, left to lapse when a step fails, so that its held writes never land on a second primary.
 */
const SWITCHOVER_FENCE_MS = 10_000;

/** `spec.failover`'s write fencing with the schema's defaults (off, 10 s). */
function writeFencing(rr: RedisReplication): WriteFencing {
  return { minReplicasToWrite: rr.spec.failover?.minReplicasToWrite ?? 0, maxLagSeconds: rr.spec.failover?.minReplicasMaxLagSeconds ?? 10 };
}

/**
 * Write fencing and the good replicas the primary reported in this reconcile's observation (`undefined` info when it
 * did not answer, or when this reconcile changed the topology and the observation is older than the change); `undefined`
 * when fencing is off.
 */
function fencingFacts(rr: RedisReplication, primaryInfo: MemberInfo | undefined): FencingFacts | undefined {
  const { minReplicasToWrite, maxLagSeconds } = writeFencing(rr);
  if (minReplicasToWrite <= 0) return undefined;
  return { required: minReplicasToWrite, maxLagSeconds, good: goodReplicas(primaryInfo, maxLagSeconds) };
}

function failoverSettings(rr: RedisReplication): FailoverSettings {
  return { enabled: rr.spec.failover?.enabled ?? true, downAfterMilliseconds: rr.spec.failover?.downAfterMilliseconds ?? 5000 };
}

/**
 * Reconciles a RedisReplication. Level-based: every reconcile applies the owned objects that changed (server-side
 * apply, nothing written at steady state), observes every member, runs one step of `decideTopology` and executes
 * its plan (REPLICAOF, promotions, role labels, never two Pods labelled primary), applies dynamic config and the
 * default user's password on member incarnations that lack them, and writes the status when it changed. A scale-down
 * that would remove the primary, and a rollout that reached the primary, first switch the primary role over (the
 * StatefulSet's partition keeps the primary out of rollouts, see `rollout.ts`); so does a switchover requested by the
 * annotation `redis.domain-operators.io/switchover` on a converged topology (see `switchover-request.ts`), which is
 * then removed and reported in the `Switchover` condition. Topology memory is kept per object
 * (seeded from `status.primary` after an operator restart) and per UID: {@link forget}, or an object of the same name
 * with another UID, drops it. Safe with one worker per key.
 *
 * Status and generations: a reconcile that observed the members writes all three conditions (`Ready`, `Degraded`,
 * `FailoverInProgress`) at the current generation, so `observedGeneration` follows; `Ready=True` then means the
 * generation is applied on every member (live config set, every member on the current Pod template, none missing or
 * left over; see `replicationConditions`). A spec the operator refuses before it looks at the members
 * (`InvalidConfig` for a managed key, `SecretNotFound`) writes `Ready=False` alone: the topology conditions
 * still describe the generation they were computed at, so `observedGeneration` stays behind on purpose (the
 * generation is not applied, and nothing about the members at it is known).
 */
export class RedisReplicationReconciler implements Reconciler<RedisReplication> {
  readonly #deps: RedisReplicationReconcilerDeps;
  readonly #options: RedisReplicationReconcilerOptions;
  readonly #memory = new Map<string, TopologyMemory>();
  readonly #applied = new AppliedMemory();
  /** The UID whose memory each key holds. */
  readonly #owners = new Map<string, string>();
  /**
   * Per key, the last requested switchover: the resourceVersion that carried the annotation once it was handled (a
   * stale cache may still show it: it is not handled twice) and the condition it reported (restated in every status
   * write, so that it follows the generation; the cache may be behind this memory).
   */
  readonly #switchovers = new Map<string, { readonly handledVersion?: string; readonly outcome?: SwitchoverOutcome }>();

  /** Stores its dependencies; does no I/O. */
  constructor(deps: RedisReplicationReconcilerDeps, options: RedisReplicationReconcilerOptions = {}) {
    this.#deps = deps;
    this.#options = options;
  }

  /**
   * Drops the topology memory (primary, `unreachableSince`, a failover in progress) and the applied-state memory of
   * `request`'s RedisReplication. Called by the controller when the object is deleted; cheap, never throws.
   */
  forget(request: Request): void {
    const key = requestKey(request);
    this.#memory.delete(key);
    this.#applied.forget(key);
    this.#owners.delete(key);
    this.#switchovers.delete(key);
  }

  async reconcile(rr: RedisReplication, ctx: ReconcileContext): Promise<Result> {
    const key = objectKey(rr);
    if (rr.metadata.deletionTimestamp !== undefined) {
      // Owned objects go with the garbage collector; only our memory needs forgetting.
      this.forget(requestFor(rr));
      return Result.done();
    }
    this.#claimMemory(key, rr.metadata.uid ?? '');
    const managed = Object.keys(rr.spec.config ?? {}).filter((k) => (MANAGED_CONFIG_KEYS as readonly string[]).includes(k.toLowerCase()));
    if (managed.length > 0) {
      // Ready alone, so observedGeneration stays behind: this generation is refused, not applied (see the class).
      const message = `the operator manages ${managed.join(', ')}: remove them from spec.config`;
      await this.#writeStatus(rr, [condition(CONDITION_TYPES.ready, false, REPLICATION_REASONS.invalidConfig, message)], {}, stalled(REPLICATION_REASONS.invalidConfig, message));
      return Result.done();
    }
    const users = await this.#bootstrapUsers(rr, ctx.signal);
    let defaultPassword: string;
    try {
      defaultPassword = await this.#defaultPassword(rr, ctx.signal);
    } catch (err) {
      if (!isDependencyError(err, Reasons.secretNotFound)) throw err;
      await this.#writeStatus(rr, [condition(CONDITION_TYPES.ready, false, Reasons.secretNotFound, err.message)], {});
      // The one rule of a missing Secret: retried with backoff (and the Secret watch wakes us when it appears).
      throw err;
    }
    let restore: PendingRestore | undefined;
    if (restorePending(rr)) {
      const backups = this.#deps.backups ?? this.#deps.client.reader(redisBackups.type);
      const resolved = await resolveRestore(rr, { agentImage: this.#deps.agentImage, getBackup: (namespace, name) => backups.get({ namespace, name }) });
      if (!('plan' in resolved)) {
        // Nothing is created before the source is known: the first member must start from it.
        await this.#writeStatus(rr, [condition(CONDITION_TYPES.ready, false, resolved.reason, resolved.message)], {});
        return Result.requeueAfter(this.#options.restoreRequeueMs ?? 5_000);
      }
      restore = resolved;
    } else if (rr.spec.restore !== undefined) {
      await this.#deleteRestorePlan(rr, ctx.signal);
    }
    // With appendonly yes and no AOF yet, redis-server starts empty and ignores the RDB: members start with appendonly
    // no while the restore is pending; the live config turns the user's appendonly back on once it is done.
    const config = restore === undefined ? rr.spec.config : { ...rr.spec.config, appendonly: 'no' };
    const confInput = { config, persistent: rr.spec.storage !== undefined, users: { ...users, defaultPassword }, fencing: writeFencing(rr) };
    const names = objectNames(rr.metadata.name ?? '');
    const desired = rr.spec.replicas;
    const pods = memberPods(this.#deps.stores.pods.byIndex(PODS_BY_REPLICATION, key), names.statefulSet);
    const client = this.#deps.memberClient(users.operator);
    // A member that does not answer was down at least since we asked, not since its timeout expired.
    const now = this.#deps.clock.now();
    const observed = await observeMembers(pods, client);
    const inRange = observed.filter((m) => m.ordinal < desired);
    let memory = this.#memory.get(key) ?? seedMemory(rr);
    const outgoing = observed.find((m) => m.ordinal >= desired && (m.pod === memory.primary || m.label === 'primary'));

    // After an S3 restore the idle agent stays in the template: its end restarts no member (ADR 0024, addendum).
    const restoreMount = restore?.mount ?? doneRestoreMount(rr, this.#deps.stores.statefulSets.get(`${rr.metadata.namespace ?? ''}/${names.statefulSet}`), this.#deps.agentImage);
    const stsInput = {
      replicas: outgoing === undefined ? desired : Math.max(desired, ...pods.map((p) => p.ordinal + 1)),
      restartHash: restartHash(confInput),
      ...(restoreMount !== undefined && { restore: restoreMount }),
    };
    const templateHash = statefulSetFor(rr, { ...stsInput, partition: 0 }).metadata?.annotations?.[TEMPLATE_HASH_ANNOTATION] ?? '';
    const updateRevision = this.#updateRevision(rr, templateHash);
    const { partition } = rolloutPlan({ updateRevision, members: inRange.map((m) => m.member), primary: memory.primary, converged: false });
    await this.#applyObjects(rr, redisConf(confInput), { ...stsInput, partition }, ctx.signal, restore);

    let restored = rr.status?.restoredFrom === undefined ? undefined : { restoredFrom: rr.status.restoredFrom, ...(rr.status.restoredKeys !== undefined && { restoredKeys: rr.status.restoredKeys }) };
    if (restore !== undefined) {
      const step = await this.#restoreStep(rr, restore, observed, client, ctx.signal);
      if (step.waiting !== undefined) {
        // Ready alone (observedGeneration stays behind): no topology is decided before the first member has its data.
        await this.#writeStatus(rr, [step.waiting], {});
        return Result.requeueAfter(this.#options.activeRequeueMs ?? 1_000);
      }
      restored = { restoredFrom: restore.plan.location, restoredKeys: step.keys };
      // The restored member is the first primary: the others replicate from it (they started empty).
      memory = { ...INITIAL_MEMORY, primary: restore.plan.pod };
    }

    const labeler = new PodLabeler({ client: this.#deps.client }, { namespace: rr.metadata.namespace ?? '', signal: ctx.signal });
    let decision: TopologyDecision;
    if (outgoing === undefined) {
      decision = decideTopology({ members: inRange, memory, failover: failoverSettings(rr), now });
    } else {
      decision = (await this.#switchover(rr, outgoing, inRange, memory, { client, labeler, now }, 'ScaleDown')).decision;
    }
    try {
      await executePlan(decision.actions, addressesOf(observed), { client, labeler });
      this.#memory.set(key, decision.memory);
    } catch (err) {
      this.#memory.set(key, { ...memory, unreachableSince: decision.memory.unreachableSince });
      this.#recordEvents(rr, decision);
      throw err;
    }
    if (outgoing?.address !== undefined) {
      const primaryAddress = decision.primary === undefined ? undefined : addressesOf(inRange).get(decision.primary);
      const repointed = primaryAddress === undefined || (await client.replicaOf(outgoing.address, primaryAddress).then(() => true, () => false));
      if (repointed) await client.unpauseWrites(outgoing.address).catch(() => undefined);
    }
    this.#recordEvents(rr, decision);

    const liveProblems = await this.#applyLiveState(rr, inRange, defaultPassword, client);
    const refusal = this.#memberRefusal(rr, desired);
    const outdated = outdatedMembers(updateRevision, inRange.map((m) => m.member));
    const surplus = observed.filter((m) => m.ordinal >= desired).map((m) => m.pod);
    const unready = inRange.filter((m) => !isPodReady(m.member.pod)).map((m) => m.pod);
    const fencing = fencingFacts(rr, decision.actions.length === 0 ? inRange.find((m) => m.pod === decision.primary)?.info : undefined);
    const conditions = [
      ...replicationConditions(decision, { members: inRange.length, desired, problems: liveProblems, outdated, surplus, unready, ...(refusal !== undefined && { refusal }), ...(fencing !== undefined && { fencing }) }),
      ...this.#switchoverCondition(rr),
    ];
    const lastFailoverTime = decision.failoverStarted ? rfc3339(this.#deps.now?.() ?? new Date()) : rr.status?.lastFailoverTime;
    await this.#writeStatus(rr, conditions, {
      primary: decision.primary ?? decision.memory.primary ?? null,
      members: decision.members.map((m) => ({ ...m })),
      readyReplicas: decision.readyReplicas,
      ...(lastFailoverTime !== undefined && { lastFailoverTime }),
      ...restored,
    });
    const counts = { members: inRange.length, observed: observed.length, unreachable: observed.filter((m) => m.info === undefined).length, desired };
    const converged =
      outgoing === undefined &&
      liveProblems.length === 0 &&
      decision.actions.length === 0 &&
      decision.memory.failover === undefined &&
      counts.members === desired &&
      counts.observed === desired &&
      // The topology's own Ready: the status' Ready stays False while the rollout this enables is pending.
      decision.conditions.some((c) => c.type === CONDITION_TYPES.ready && c.status === 'True');
    const requested = rr.metadata.annotations?.[SWITCHOVER_ANNOTATION];
    if (requested !== undefined && this.#switchovers.get(key)?.handledVersion !== rr.metadata.resourceVersion) {
      const notConvergedWhy = conditions.find((c) => c.type === CONDITION_TYPES.ready)?.message ?? '';
      await this.#requestedSwitchover(rr, requested, { decision, members: inRange, converged, notConvergedWhy }, { client, labeler, now });
      return Result.requeueAfter(this.#options.activeRequeueMs ?? 1_000);
    }
    const rollout = rolloutPlan({ updateRevision, members: inRange.map((m) => m.member), primary: decision.primary, converged });
    if (rollout.switchoverTo !== undefined) {
      await this.#handOver(rr, decision.primary ?? '', inRange, rollout.switchoverTo, { client, labeler, now }, 'RollingUpdate');
      return Result.requeueAfter(this.#options.activeRequeueMs ?? 1_000);
    }
    return Result.requeueAfter(requeueDelayMs(decision, counts, this.#options));
  }

  /**
   * Whether the apiserver refused the StatefulSet controller's latest attempt to create a missing member (a quota,
   * Pod Security, a webhook), from its Events in the cache (may be stale; the Event watch and the 1 s requeue while
   * members are missing look again). A member counts as missing only with no Pod object at all.
   */
  #memberRefusal(rr: RedisReplication, desired: number): MemberRefusal | undefined {
    const namespace = rr.metadata.namespace ?? '';
    const name = objectNames(rr.metadata.name ?? '').statefulSet;
    const uid = this.#deps.stores.statefulSets.get(`${namespace}/${name}`)?.metadata?.uid ?? '';
    const existing = this.#deps.stores.pods.byIndex(PODS_BY_REPLICATION, objectKey(rr)).map((p) => p.metadata?.name ?? '');
    const missing = missingMembers(name, desired, existing);
    if (missing.length === 0) return undefined;
    return memberRefusal(this.#deps.stores.events.byIndex(EVENTS_BY_STATEFULSET, `${namespace}/${name}`), { statefulSet: { name, uid }, missing });
  }

  /** The StatefulSet's update revision, once the cached StatefulSet has the desired template and its controller has seen it. */
  #updateRevision(rr: RedisReplication, templateHash: string): string | undefined {
    const sts = this.#deps.stores.statefulSets.get(`${rr.metadata.namespace ?? ''}/${objectNames(rr.metadata.name ?? '').statefulSet}`);
    if (sts?.metadata?.annotations?.[TEMPLATE_HASH_ANNOTATION] !== templateHash) return undefined;
    if (sts.status?.observedGeneration !== sts.metadata.generation) return undefined;
    return sts.status?.updateRevision;
  }

  /**
   * Hands the primary role to the best of `candidates` (answering members): so that a rollout can replace the old
   * primary, or because it was requested. A requested one is called off when the member chosen has not reached the
   * primary's offset once its writes are held ({@link fencedLag}): the primary gets its label back and its writes
   * resume. Returns the outcome to report (`undefined` when the primary is not among `members`).
   */
  async #handOver(
    rr: RedisReplication,
    primaryPod: string,
    members: readonly ObservedMember[],
    candidates: readonly string[],
    tools: { client: RedisMemberClient; labeler: PodLabeler; now: number },
    why: 'RollingUpdate' | 'Requested',
  ): Promise<SwitchoverOutcome | undefined> {
    const key = objectKey(rr);
    const primary = members.find((m) => m.pod === primaryPod);
    if (primary === undefined) return undefined;
    const chosen = members.filter((m) => candidates.includes(m.pod));
    const { decision, fencedOffset, fresh } = await this.#switchover(rr, primary, chosen, this.#memory.get(key) ?? seedMemory(rr), tools, why);
    const promotedOffset = fresh.find((m) => m.pod === decision.primary)?.info?.replication.offset;
    if (why === 'Requested') {
      const lag = fencedLag(decision.primary ?? candidates.join(', '), promotedOffset, fencedOffset);
      if (lag !== undefined) {
        if (primary.label === 'primary') await tools.labeler.setRole(primary.pod, 'primary');
        if (primary.address !== undefined) await tools.client.unpauseWrites(primary.address).catch(() => undefined);
        return lag;
      }
    }
    await executePlan(decision.actions, addressesOf(members), { client: tools.client, labeler: tools.labeler });
    this.#memory.set(key, { ...decision.memory, unreachableSince: {} });
    const newPrimary = decision.primary === undefined ? undefined : addressesOf(chosen).get(decision.primary);
    if (primary.address !== undefined && newPrimary !== undefined) await tools.client.replicaOf(primary.address, newPrimary);
    if (primary.address !== undefined) await tools.client.unpauseWrites(primary.address).catch(() => undefined);
    this.#recordEvents(rr, decision);
    return {
      status: 'True',
      reason: SWITCHOVER_REASONS.completed,
      message: `${decision.primary ?? ''} is the primary in place of ${primary.pod}, promoted at offset ${promotedOffset ?? '?'} (${primary.pod}'s with its writes held: ${fencedOffset ?? '?'}); ${primary.pod} replicates from it`,
    };
  }

  /**
   * A switchover asked for by {@link SWITCHOVER_ANNOTATION}: refused with a reason (see `chooseSwitchover`) or
   * carried out by {@link #handOver}; then the annotation is removed (a JSON patch that tests its value first, so
   * that a new request written meanwhile is kept) and the outcome is written as the `Switchover` condition. A refusal
   * is also a Warning Event `SwitchoverRefused`; a hand-over records `Switchover` (action `Requested`).
   */
  async #requestedSwitchover(
    rr: RedisReplication,
    value: string,
    step: { decision: TopologyDecision; members: readonly ObservedMember[]; converged: boolean; notConvergedWhy: string },
    tools: { client: RedisMemberClient; labeler: PodLabeler; now: number },
  ): Promise<void> {
    const key = objectKey(rr);
    const parsed = parseSwitchoverRequest(value);
    let outcome: SwitchoverOutcome;
    if ('status' in parsed) {
      outcome = parsed;
    } else {
      const statuses = new Map(step.decision.members.map((m) => [m.pod, m]));
      const members = step.members.map((m) => ({
        pod: m.pod,
        role: statuses.get(m.pod)?.role ?? 'unknown',
        linkUp: statuses.get(m.pod)?.linkUp ?? false,
        holdsData: m.info !== undefined && (m.info.keys > 0 || m.info.replication.offset > 0),
      }));
      const choice = chooseSwitchover(parsed, { primary: step.decision.primary, members, converged: step.converged, notConvergedWhy: step.notConvergedWhy });
      const handed = 'candidates' in choice ? await this.#handOver(rr, step.decision.primary ?? '', step.members, choice.candidates, tools, 'Requested') : choice;
      outcome = handed ?? { status: 'False', reason: SWITCHOVER_REASONS.notConverged, message: 'the primary is not among the members' };
    }
    const path = `/metadata/annotations/${SWITCHOVER_ANNOTATION.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    await this.#deps.client.patch(redisReplications.type, requestFor(rr), {
      type: 'json',
      operations: [
        { op: 'test', path, value },
        { op: 'remove', path },
      ],
    });
    this.#switchovers.set(key, { ...(rr.metadata.resourceVersion !== undefined && { handledVersion: rr.metadata.resourceVersion }), outcome });
    if (outcome.status === 'False') {
      this.#deps.recorder.record(rr, { type: 'Warning', reason: 'SwitchoverRefused', action: 'Requested', note: `${outcome.reason}: ${outcome.message}` });
    }
    await this.#writeStatus(rr, this.#switchoverCondition(rr), {});
  }

  /** The last requested switchover's condition, from memory (else the status), restated so it carries the generation. */
  #switchoverCondition(rr: RedisReplication): ConditionUpdate[] {
    const remembered = this.#switchovers.get(objectKey(rr))?.outcome;
    const last = remembered ?? rr.status?.conditions?.find((c) => c.type === SWITCHOVER_CONDITION);
    if (last === undefined) return [];
    return [{ type: SWITCHOVER_CONDITION, status: last.status === 'True' ? 'True' : 'False', reason: last.reason, message: last.message }];
  }

  /** The operator and replication users, from the internal Secret (created with new passwords the first time). */
  async #bootstrapUsers(rr: RedisReplication, signal: AbortSignal): Promise<Pick<BootstrapUsers, 'operator' | 'replication'>> {
    const generate = this.#deps.generatePassword ?? generatePassword;
    const fresh = { operator: { username: OPERATOR_USERNAME, password: generate() }, replication: { username: REPLICATION_USERNAME, password: generate() } };
    const { secret } = await ensureSecret(this.#secretDeps(), internalSecretFor(rr, fresh), signal);
    const operator = secretValue(secret, INTERNAL_KEYS.operatorPassword);
    const replication = secretValue(secret, INTERNAL_KEYS.replicationPassword);
    if (operator === undefined || replication === undefined) {
      // Not "delete it": new passwords would be ones the running members do not know.
      throw new TerminalError(
        `Secret ${secret.metadata?.name ?? ''} lacks ${INTERNAL_KEYS.operatorPassword} or ${INTERNAL_KEYS.replicationPassword}; put the keys back (the running members still use those passwords)`,
        'InternalSecretInvalid',
      );
    }
    return { operator: { username: OPERATOR_USERNAME, password: operator }, replication: { username: REPLICATION_USERNAME, password: replication } };
  }

  /** The default user's password: from `auth.secretRef` (undefined while missing), else the generated `<name>-auth`. */
  /** The `default` user's password; rejects with a `DependencyError` `SecretNotFound` when its Secret or key is missing. */
  async #defaultPassword(rr: RedisReplication, signal: AbortSignal): Promise<string> {
    const ref = rr.spec.auth?.secretRef;
    if (ref !== undefined) {
      const secret = await requiredSecret(this.#deps.referenced, { namespace: rr.metadata.namespace ?? '', name: ref.name }, 'auth.secretRef', signal);
      return requiredSecretValue(secret, ref.key ?? 'password', 'auth.secretRef');
    }
    const { secret } = await ensureSecret(this.#secretDeps(), authSecretFor(rr, (this.#deps.generatePassword ?? generatePassword)()), signal);
    return requiredSecretValue(secret, 'password');
  }

  /** Creates a generated Secret when the cache does not have it; an existing one is kept as it is. */
  #secretDeps(): EnsureSecretDeps {
    return { client: this.#deps.client, secrets: storeSecrets({ store: this.#deps.stores.secrets }) };
  }

  /**
   * One look at a pending restore, whose members restore in parallel: a restoring member's agent failed (its reason,
   * e.g. `RestoreVerificationFailed`, and an Event when the reason is new), a member has not loaded its data yet
   * (`Restoring`), or ordinal 0 answers as a primary and every restoring member answers PING (Redis refuses PING
   * with LOADING until the RDB is loaded): then the plan is deleted first (a Pod recreated from now on restores
   * nothing), `restoredFrom` and the key count ordinal 0 reports are written ahead, and an Event says so. The
   * restored replicas started as replicas of no one: the topology step that follows points them at ordinal 0.
   */
  async #restoreStep(
    rr: RedisReplication,
    restore: PendingRestore,
    observed: readonly ObservedMember[],
    client: RedisMemberClient,
    signal: AbortSignal,
  ): Promise<{ readonly waiting: ConditionUpdate; readonly keys?: undefined } | { readonly waiting?: undefined; readonly keys: number }> {
    const { plan } = restore;
    const restoring = restoringPods(plan);
    const members = new Map(observed.map((m) => [m.pod, m]));
    for (const pod of restoring) {
      const failure = restoreFailureOf(members.get(pod)?.member.pod);
      if (failure === undefined) continue;
      const previous = rr.status?.conditions?.find((c) => c.type === CONDITION_TYPES.ready);
      if (previous?.reason !== failure.reason) {
        this.#deps.recorder.record(rr, { type: 'Warning', reason: failure.reason, action: 'Restore', note: `${pod} did not start from ${plan.location}: ${failure.message}` });
      }
      return { waiting: condition(CONDITION_TYPES.ready, false, failure.reason, `${pod} did not start from ${plan.location}: ${failure.message}`) };
    }
    const waiting = (why: string): { waiting: ConditionUpdate } => ({
      waiting: condition(CONDITION_TYPES.ready, false, REPLICATION_REASONS.restoring, `${why} ${plan.location}; no topology is decided before every restoring member has its data`),
    });
    const primary = members.get(plan.pod);
    if (primary?.info !== undefined && primary.info.replication.role !== 'primary') return waiting(`${plan.pod} answers as a replica while restoring`);
    const loaded = await Promise.all(
      restoring.map(async (pod) => {
        const address = members.get(pod)?.info === undefined ? undefined : members.get(pod)?.address;
        return address !== undefined && (await client.ping(address).then(() => true, () => false));
      }),
    );
    const behind = restoring.filter((_, i) => loaded[i] !== true);
    const address = primary?.address;
    if (behind.length > 0 || address === undefined) return waiting(`${behind.join(', ')} restoring or loading`);
    const keys = (await client.info(address)).keys;
    await this.#deleteRestorePlan(rr, signal);
    await writeReplicationStatus(this.#deps.client, rr, { fields: { restoredFrom: plan.location, restoredKeys: keys } }, { now: this.#deps.now?.() ?? new Date() });
    const replicas = restoring.slice(1);
    const others = replicas.length === 0 ? '' : `; ${replicas.join(', ')} restored it too and replicate from it`;
    this.#deps.recorder.record(rr, { type: 'Normal', reason: 'Restored', action: 'Restore', note: `${plan.pod} started from ${plan.location} (SHA-256 verified) with ${keys} keys${others}` });
    return { keys };
  }

  /** Deletes the restore ConfigMap `<name>-restore` when the cache has it; gone already is fine. */
  async #deleteRestorePlan(rr: RedisReplication, signal: AbortSignal): Promise<void> {
    const request = { namespace: rr.metadata.namespace ?? '', name: objectNames(rr.metadata.name ?? '').restoreConfigMap };
    if (this.#deps.stores.configMaps.get(`${request.namespace}/${request.name}`) === undefined) return;
    await this.#deps.client.delete(kinds.configMap, request, { signal }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }

  /** Applies the owned objects that changed; a pending restore's plan before the StatefulSet whose first member reads it. */
  async #applyObjects(rr: RedisReplication, conf: string, sts: StatefulSetInput, signal: AbortSignal, restore: PendingRestore | undefined): Promise<void> {
    const { client, stores } = this.#deps;
    if (restore !== undefined) await applyIfChanged({ client, type: kinds.configMap, store: stores.configMaps }, restoreConfigMapFor(rr, restore.plan), signal);
    await applyIfChanged({ client, type: kinds.configMap, store: stores.configMaps }, configMapFor(rr, conf), signal);
    await applyIfChanged({ client, type: kinds.service, store: stores.services }, headlessServiceFor(rr), signal);
    await applyIfChanged({ client, type: kinds.service, store: stores.services }, primaryServiceFor(rr), signal);
    await applyIfChanged({ client, type: kinds.service, store: stores.services }, replicasServiceFor(rr), signal);
    await applyIfChanged({ client, type: kinds.podDisruptionBudget, store: stores.podDisruptionBudgets }, podDisruptionBudgetFor(rr), signal);
    await applyIfChanged({ client, type: kinds.statefulSet, store: stores.statefulSets }, statefulSetFor(rr, sts), signal);
  }

  /**
   * The primary must go (a scale-down removes it, or a rollout replaces it): take its primary label away (the
   * Service stops sending it writes), hold the writes of the clients still connected to it, let a replica acknowledge
   * its offset, then let the topology step choose the best other member as if the outgoing one were gone. The caller
   * repoints the outgoing member afterwards and then lifts the hold.
   */
  async #switchover(
    rr: RedisReplication,
    outgoing: ObservedMember,
    inRange: readonly ObservedMember[],
    memory: TopologyMemory,
    tools: { client: RedisMemberClient; labeler: PodLabeler; now: number },
    why: 'ScaleDown' | 'RollingUpdate' | 'Requested',
  ): Promise<{ readonly decision: TopologyDecision; readonly fresh: readonly ObservedMember[]; readonly fencedOffset?: number }> {
    if (outgoing.label === 'primary') await tools.labeler.setRole(outgoing.pod, 'replica');
    let fencedOffset: number | undefined;
    const replication = outgoing.info?.replication;
    if (outgoing.address !== undefined && replication?.role === 'primary') {
      // Fence it first: clients keep the connections they have (the Service only steers new ones), and a write over
      // one after the promotion, acknowledged by a replica not yet repointed, would be lost when that replica
      // resynchronises from the new primary. Held writes fail with READONLY once it is a replica (the caller lifts it).
      await tools.client.pauseWrites(outgoing.address, SWITCHOVER_FENCE_MS).catch(() => undefined);
      // Every write it acknowledged is within this offset (read after the hold): what a requested promotion must reach.
      fencedOffset = (await tools.client.info(outgoing.address).catch(() => undefined))?.replication.offset;
      // A requested switchover may name any replica: wait for all of them, not just the first to acknowledge.
      await tools.client.wait(outgoing.address, why === 'Requested' ? Math.max(1, replication.replicas.length) : 1, 2_000).catch(() => 0);
    }
    const fresh = await observeMembers(
      inRange.map((m) => m.member),
      tools.client,
    );
    const because = { ScaleDown: 'is being scaled away', RollingUpdate: 'is next to be replaced with the new Pod template', Requested: `hands over as requested (${SWITCHOVER_ANNOTATION})` }[why];
    const to = why === 'Requested' ? `promoting the best of ${inRange.map((m) => m.pod).join(', ')}` : 'promoting the best other member';
    this.#deps.recorder.record(rr, { type: 'Normal', reason: 'Switchover', action: why, note: `primary ${outgoing.pod} ${because}; ${to}` });
    const decision = decideTopology({ members: fresh, memory: { unreachableSince: memory.unreachableSince }, failover: failoverSettings(rr), now: tools.now });
    return { decision, fresh, ...(fencedOffset !== undefined && { fencedOffset }) };
  }

  /** Live config and the default user on every answering member incarnation that lacks them; returns problems. */
  async #applyLiveState(rr: RedisReplication, members: readonly ObservedMember[], defaultPassword: string, client: RedisMemberClient): Promise<string[]> {
    const key = objectKey(rr);
    const problems: string[] = [];
    // Fencing on every member, primary or not: whichever is promoted next must already refuse unreplicated writes.
    const dynamic = { ...splitConfig(rr.spec.config).dynamic, ...fencingConfig(writeFencing(rr)) };
    const configHash = canonicalJson(dynamic);
    const defaultClaimed = this.#deps.stores.users.byIndex(USERS_BY_REPLICATION, key).some((u) => u.spec.username === 'default');
    if (defaultClaimed) this.#applied.forgetItem(key, DEFAULT_USER_ITEM);
    const defaultHash = canonicalJson({ rules: DEFAULT_USER_RULES, password: defaultPassword });
    this.#applied.retain(key, new Set(members.map((m) => incarnationOf(m.member.pod))));
    for (const m of members) {
      if (m.info === undefined || m.address === undefined) continue;
      const incarnation = incarnationOf(m.member.pod);
      try {
        if (!this.#applied.has(key, incarnation, CONFIG_ITEM, configHash)) {
          await client.configSet(m.address, dynamic);
          this.#applied.record(key, incarnation, CONFIG_ITEM, configHash);
        }
        if (!defaultClaimed && !this.#applied.has(key, incarnation, DEFAULT_USER_ITEM, defaultHash)) {
          await client.aclSetUser(m.address, ['default', 'reset', 'on', ...DEFAULT_USER_RULES, `>${defaultPassword}`]);
          this.#applied.record(key, incarnation, DEFAULT_USER_ITEM, defaultHash);
        }
      } catch (err) {
        if (!isTerminalError(err)) throw err;
        problems.push(err.message);
      }
    }
    return problems;
  }

  /** Starts afresh when the memory under `key` belongs to another object (deleted and created again under its name). */
  #claimMemory(key: string, uid: string): void {
    if (this.#owners.get(key) === uid) return;
    this.#memory.delete(key);
    this.#applied.forget(key);
    this.#owners.set(key, uid);
    this.#switchovers.delete(key);
  }

  #recordEvents(rr: RedisReplication, decision: TopologyDecision): void {
    for (const e of decision.events) this.#deps.recorder.record(rr, { type: e.type, reason: e.reason, action: e.reason.startsWith('Failover') ? 'Failover' : 'Topology', note: e.message });
  }

  /** One status write; kstatus' progress follows Ready unless `progress` is given (a refusal that waits for a change). */
  async #writeStatus(rr: RedisReplication, conditions: readonly ConditionUpdate[], fields: Readonly<Record<string, unknown>>, progress?: Progress): Promise<void> {
    await writeReplicationStatus(this.#deps.client, rr, { conditions, fields, ...(progress !== undefined && { progress }) }, { now: this.#deps.now?.() ?? new Date() });
  }
}

function condition(type: string, status: boolean, reason: string, message: string): ConditionUpdate {
  return { type, status: status ? 'True' : 'False', reason, message };
}

/** The topology memory after an operator restart: the primary the status names. */
function seedMemory(rr: RedisReplication): TopologyMemory {
  const primary = rr.status?.primary;
  return primary === undefined ? INITIAL_MEMORY : { ...INITIAL_MEMORY, primary };
}
