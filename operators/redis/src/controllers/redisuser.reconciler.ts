/**
 * The RedisUser reconciler: one ACL user on every member of a RedisReplication, applied without restarts,
 * re-applied on members that restarted (run-time users vanish with the process), removed on deletion.
 */
import { createHash } from 'node:crypto';
import type { V1Pod, V1Secret } from '@kubernetes/client-node';
import {
  credentialsSecretName,
  ensureSecret,
  forceRotation,
  generatePassword,
  isTerminalError,
  objectKey,
  ownedSecret,
  patchStatusIfChanged,
  READY_CONDITION,
  Reasons,
  requestKey,
  Result,
  secretValue,
  stalled,
  storeSecrets,
  withFinalizer,
  DependencyError,
  isDependencyError,
  requiredSecret,
  requiredSecretValue,
} from '@domain-operators/reconcile';
import type { Client, ConditionUpdate, ReconcileContext, Reconciler, Recorder, Request, SecretSource, Store } from '@domain-operators/reconcile';
import { GROUP, redisUsers } from '../api/v1alpha1/index.ts';
import type { RedisReplication, RedisUser } from '../api/v1alpha1/index.ts';
import { aclSetUserArgs, usernameProblem, validateAclRules } from '../redis/acl.ts';
import { MEMBER_REASONS } from '../redis/errors.ts';
import type { Credentials } from '../redis/bootstrap.ts';
import type { RedisMemberClient } from '../redis/client.ts';
import { INTERNAL_KEYS, objectNames, OPERATOR_USERNAME, REPLICATION_USERNAME } from '../redis/manifests.ts';
import { canonicalJson } from './apply.ts';
import { REPLICATION_REASONS } from './replication-status.ts';
import { AppliedMemory } from './applied-memory.ts';
import { incarnationOf, isPodReady, memberPods, podAddress, PODS_BY_REPLICATION } from './members.ts';

/** The finalizer that guards ACL DELUSER. */
export const USER_FINALIZER = `${GROUP}/user`;

/** The reasons a RedisUser's `Ready` and Events carry besides the runtime's (`SecretNotFound`) and the members' (`InvalidAclRule`). */
export const USER_REASONS = {
  /** `Ready=True`: the user is applied on every ready member. */
  applied: 'UserApplied',
  /** The username is reserved or not a valid Redis username. */
  invalidUsername: 'InvalidUsername',
  /** The RedisReplication the user names does not exist. Retried. */
  replicationNotFound: 'ReplicationNotFound',
  /** The RedisReplication has no operator credentials yet. Retried. */
  replicationNotReady: 'ReplicationNotReady',
  /** Normal Event: the user was deleted on the members (finalizer). */
  deleted: 'UserDeleted',
} as const;

/** Dependencies of {@link RedisUserReconciler}. */
export interface RedisUserReconcilerDeps {
  readonly client: Client;
  readonly stores: {
    readonly pods: Store<V1Pod>;
    /** The Secrets this operator generated (label-scoped cache): generated passwords, the internal Secret. */
    readonly secrets: Store<V1Secret>;
    readonly replications: Store<RedisReplication>;
  };
  /** Secrets a user names (`passwordSecretRef`), read by name; never from the label-scoped cache. */
  readonly referenced: SecretSource;
  readonly recorder: Recorder;
  readonly memberClient: (credentials: Credentials) => RedisMemberClient;
  readonly now?: () => Date;
  readonly generatePassword?: () => string;
}

/** Options of {@link RedisUserReconciler}. */
export interface RedisUserReconcilerOptions {
  /** Requeue while some member has not got the user. Default 2000 ms. */
  readonly pendingRequeueMs?: number;
  /** Requeue after everything is applied (a safety net: Pod changes wake the reconciler). Default 60 000 ms. */
  readonly resyncMs?: number;
}

/** The generated password Secret of a RedisUser without `passwordSecretRef`. Pure. */
export function userSecretName(user: RedisUser): string {
  return credentialsSecretName(user.metadata.name ?? '', 'redis');
}

const USER_ITEM = 'user';

type Outcome = { readonly ready: true; readonly applied: number } | { readonly ready: false; readonly reason: string; readonly message: string; readonly retryMs?: number };

/**
 * Reconciles a RedisUser: validates the name and rules (a bad rule is a `Ready=False InvalidAclRule` condition
 * naming the rule, no retry until the spec changes), resolves the password (from `passwordSecretRef`, else a
 * generated Secret), and runs `ACL SETUSER <name> reset … >password` on every ready member incarnation that does not
 * have this exact user yet (so a rotation, a rule change and a restarted or new Pod each cause one write per member).
 * Deletion runs `ACL DELUSER` on every member behind a finalizer; `default` cannot be deleted and is handed back
 * to the RedisReplication, which restores full access with its auth password.
 *
 * Status: `Ready` is the kind's one condition and every write sets it at the current generation, so
 * `observedGeneration` follows each write; `Ready=True` is written only once this generation's user (rules and
 * password) is on every member. What was applied is remembered per object and UID: {@link forget}, or an object of
 * the same name with another UID, drops it.
 */
export class RedisUserReconciler implements Reconciler<RedisUser> {
  readonly #deps: RedisUserReconcilerDeps;
  readonly #options: RedisUserReconcilerOptions;
  readonly #applied = new AppliedMemory();
  /** The UID whose memory each key holds. */
  readonly #owners = new Map<string, string>();

  /** Stores its dependencies; does no I/O. */
  constructor(deps: RedisUserReconcilerDeps, options: RedisUserReconcilerOptions = {}) {
    this.#deps = deps;
    this.#options = options;
  }

  /** Drops what this reconciler remembers of `request`'s RedisUser (the members it was applied on). Cheap, never throws. */
  forget(request: Request): void {
    const key = requestKey(request);
    this.#applied.forget(key);
    this.#owners.delete(key);
  }

  reconcile(user: RedisUser, ctx: ReconcileContext): Promise<Result> {
    this.#claimMemory(objectKey(user), user.metadata.uid ?? '');
    return withFinalizer(
      user,
      { finalizer: USER_FINALIZER, apply: (u) => this.#apply(u, ctx), cleanup: (u) => this.#cleanup(u) },
      { client: this.#deps.client, type: redisUsers.type, recorder: this.#deps.recorder, group: GROUP, signal: ctx.signal },
    );
  }

  async #apply(user: RedisUser, ctx: ReconcileContext): Promise<Result> {
    const outcome = await this.#sync(user, ctx);
    const conditions: ConditionUpdate[] = [
      outcome.ready
        ? { type: READY_CONDITION, status: 'True', reason: USER_REASONS.applied, message: `user ${user.spec.username} is applied on ${outcome.applied} member(s)` }
        : { type: READY_CONDITION, status: 'False', reason: outcome.reason, message: outcome.message },
    ];
    const secretName = user.spec.passwordSecretRef?.name ?? userSecretName(user);
    // A refusal that waits for a change of the RedisUser (an invalid name or rule, a terminal member error) is stalled;
    // a missing Secret is not: it is retried with backoff (the one rule of the runtime's requiredSecret).
    const missingSecret = !outcome.ready && outcome.reason === Reasons.secretNotFound;
    const stuck = !outcome.ready && outcome.retryMs === undefined && !missingSecret;
    await patchStatusIfChanged(
      this.#deps.client,
      redisUsers.type,
      user,
      { conditions, fields: { secretName, ...(outcome.ready && { appliedMembers: outcome.applied }) }, ...(stuck && { progress: stalled(outcome.reason, outcome.message) }) },
      { now: this.#deps.now?.() ?? new Date(), signal: ctx.signal },
    );
    if (outcome.ready) return Result.requeueAfter(this.#options.resyncMs ?? 60_000);
    if (missingSecret) throw new DependencyError(Reasons.secretNotFound, outcome.message);
    return outcome.retryMs === undefined ? Result.done() : Result.requeueAfter(outcome.retryMs);
  }

  async #sync(user: RedisUser, ctx: ReconcileContext): Promise<Outcome> {
    const pending = this.#options.pendingRequeueMs ?? 2_000;
    const nameProblem = usernameProblem(user.spec.username, [OPERATOR_USERNAME, REPLICATION_USERNAME]);
    if (nameProblem !== undefined) return { ready: false, reason: USER_REASONS.invalidUsername, message: nameProblem };
    const ruleProblems = validateAclRules(user.spec.rules);
    if (ruleProblems.length > 0) return { ready: false, reason: MEMBER_REASONS.invalidAclRule, message: ruleProblems.map((p) => `${p.rule}: ${p.message}`).join('; ') };
    const target = this.#target(user);
    if (target.kind === 'missing') return { ready: false, reason: target.reason, message: target.message, retryMs: pending };
    let password: string;
    try {
      password = await this.#password(user, ctx.signal);
    } catch (err) {
      if (!isDependencyError(err, Reasons.secretNotFound)) throw err;
      return { ready: false, reason: Reasons.secretNotFound, message: err.message };
    }
    const args = aclSetUserArgs({ username: user.spec.username, password, rules: user.spec.rules });
    const hash = createHash('sha256').update(canonicalJson(args)).digest('hex');
    const key = objectKey(user);
    const client = this.#deps.memberClient(target.operator);
    const pods = memberPods(this.#deps.stores.pods.byIndex(PODS_BY_REPLICATION, objectKey(target.replication)), objectNames(target.replication.metadata.name ?? '').statefulSet);
    this.#applied.retain(key, new Set(pods.map((p) => incarnationOf(p.pod))));
    let applied = 0;
    const waiting: string[] = [];
    for (const { pod, name } of pods) {
      const address = podAddress(pod);
      if (address === undefined || !isPodReady(pod)) {
        waiting.push(`${name} is not ready`);
        continue;
      }
      const incarnation = incarnationOf(pod);
      if (this.#applied.has(key, incarnation, USER_ITEM, hash)) {
        applied++;
        continue;
      }
      try {
        await client.aclSetUser(address, args);
        this.#applied.record(key, incarnation, USER_ITEM, hash);
        applied++;
      } catch (err) {
        if (isTerminalError(err)) return { ready: false, reason: err.reason, message: err.message };
        waiting.push(err instanceof Error ? err.message : String(err));
      }
    }
    if (pods.length === 0) return { ready: false, reason: REPLICATION_REASONS.membersPending, message: `RedisReplication ${target.replication.metadata.name ?? ''} has no members yet`, retryMs: pending };
    if (waiting.length > 0) return { ready: false, reason: REPLICATION_REASONS.membersPending, message: `applied on ${applied} of ${pods.length} member(s); ${waiting.join('; ')}`, retryMs: pending };
    return { ready: true, applied };
  }

  /**
   * Starts afresh when the memory under `key` belongs to another object: a RedisUser deleted (its user removed with
   * ACL DELUSER) and created again under its name must be applied again, even with the same rules and password.
   */
  #claimMemory(key: string, uid: string): void {
    if (this.#owners.get(key) === uid) return;
    this.#applied.forget(key);
    this.#owners.set(key, uid);
  }

  #target(user: RedisUser): { kind: 'found'; replication: RedisReplication; operator: Credentials } | { kind: 'missing'; reason: string; message: string } {
    const namespace = user.metadata.namespace ?? '';
    const name = user.spec.replicationRef.name;
    const replication = this.#deps.stores.replications.get(`${namespace}/${name}`);
    if (replication === undefined) return { kind: 'missing', reason: USER_REASONS.replicationNotFound, message: `RedisReplication ${name} does not exist` };
    const internal = this.#deps.stores.secrets.get(`${namespace}/${objectNames(name).internalSecret}`);
    const password = secretValue(internal, INTERNAL_KEYS.operatorPassword);
    if (password === undefined) return { kind: 'missing', reason: USER_REASONS.replicationNotReady, message: `RedisReplication ${name} has no credentials yet` };
    return { kind: 'found', replication, operator: { username: OPERATOR_USERNAME, password } };
  }

  /** The user's password; rejects with a `DependencyError` `SecretNotFound` when its Secret or key is missing. */
  async #password(user: RedisUser, signal: AbortSignal): Promise<string> {
    const ref = user.spec.passwordSecretRef;
    const namespace = user.metadata.namespace ?? '';
    if (ref !== undefined) return requiredSecretValue(await requiredSecret(this.#deps.referenced, { namespace, name: ref.name }, 'passwordSecretRef', signal), ref.key ?? 'password', 'passwordSecretRef');
    const secret = ownedSecret({
      ownerType: redisUsers.type,
      owner: user,
      name: userSecretName(user),
      managedBy: 'redis-operator',
      stringData: { username: user.spec.username, password: (this.#deps.generatePassword ?? generatePassword)() },
    });
    // `redis.domain-operators.io/force-rotate: <token>` gives the generated Secret a new password once per token.
    const rotation = forceRotation(user, GROUP, () => ({ username: user.spec.username, password: (this.#deps.generatePassword ?? generatePassword)() }));
    const ensured = await ensureSecret({ client: this.#deps.client, secrets: storeSecrets({ store: this.#deps.stores.secrets }) }, secret, signal, rotation);
    return requiredSecretValue(ensured.secret, 'password');
  }

  /** ACL DELUSER on every ready member; members that are not ready lose run-time users when they restart anyway. */
  async #cleanup(user: RedisUser): Promise<Result> {
    const key = objectKey(user);
    const target = this.#target(user);
    if (target.kind === 'missing' || user.spec.username === 'default') {
      this.#applied.forget(key);
      return Result.done();
    }
    const client = this.#deps.memberClient(target.operator);
    const pods = memberPods(this.#deps.stores.pods.byIndex(PODS_BY_REPLICATION, objectKey(target.replication)), objectNames(target.replication.metadata.name ?? '').statefulSet);
    for (const { pod } of pods) {
      const address = podAddress(pod);
      if (address === undefined || !isPodReady(pod)) continue;
      await client.aclDelUser(address, user.spec.username);
    }
    this.#applied.forget(key);
    this.#deps.recorder.record(user, { type: 'Normal', reason: USER_REASONS.deleted, action: 'DeleteUser', note: `user ${user.spec.username} deleted on ${pods.length} member(s)` });
    return Result.done();
  }
}
