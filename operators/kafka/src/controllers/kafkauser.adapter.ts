import { isTerminalError } from '@domain-operators/reconcile';
import type { DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation, Recorder } from '@domain-operators/reconcile';
import type { KafkaUser } from '../api/v1alpha1/index.ts';
import type { AclBinding, QuotaChange, QuotaKey, QuotaValues, ScramMechanism } from '../kafka/admin.ts';
import type { AclPlan, AppliedCredential, ScramPlan } from '../kafka/user-plan.ts';
import { newFingerprintSalt, passwordFingerprint, planAcls, planQuotas, planScram, principalOf } from '../kafka/user-plan.ts';
import type { ConnectionResolver } from './connection-resolver.ts';
import type { ClusterClients } from './kafka-client-pool.ts';

/** The desired user in Kafka, names resolved and password read: what {@link KafkaUserAdapter} applies. */
export interface DesiredKafkaUser {
  readonly connection: string;
  readonly username: string;
  readonly mechanism: ScramMechanism;
  /** A secret: never logged, never put in a diff, an Event or status. */
  readonly password: string;
  readonly bindings: readonly AclBinding[];
  readonly quotas: QuotaValues;
}

/** What `observe` planned. */
export interface ObservedKafkaUser {
  readonly scram: ScramPlan;
  readonly acls: AclPlan;
  readonly quotas: QuotaChange | null;
}

const ALL_MECHANISMS: readonly ScramMechanism[] = ['SCRAM-SHA-512', 'SCRAM-SHA-256'];
const ALL_QUOTA_KEYS: readonly QuotaKey[] = ['producer_byte_rate', 'consumer_byte_rate', 'request_percentage', 'controller_mutation_rate'];

/** Dependencies of a {@link KafkaUserAdapter}. */
export interface KafkaUserAdapterDeps {
  readonly resolver: ConnectionResolver;
  readonly events: Recorder;
}

/**
 * The {@link ExternalAdapter} of KafkaUsers: the SCRAM credential, the ACLs of principal `User:<username>` (never
 * of another principal) and the client quotas of `user=<username>`. A user "exists" in Kafka when any of the three
 * does, so an identity someone else set up is never taken over silently. The password is compared through a
 * fingerprint (HMAC under a per-user salt) of what was last applied, kept by resource UID and in status; it is never
 * stored. Deleting removes the credentials of both mechanisms, every ACL of the principal and its quotas.
 */
export class KafkaUserAdapter implements ExternalAdapter<KafkaUser, DesiredKafkaUser, ObservedKafkaUser> {
  readonly #deps: KafkaUserAdapterDeps;
  /** uid → the credential this process applied last (newer than any cached status). */
  readonly #applied = new Map<string, AppliedCredential>();

  /** Does no work. */
  constructor(deps: KafkaUserAdapterDeps) {
    this.#deps = deps;
  }

  /** The credential applied for the resource `uid`: what this process applied, else what its status records. */
  applied(user: KafkaUser): AppliedCredential | undefined {
    return this.#applied.get(user.metadata.uid ?? '') ?? user.status?.credential;
  }

  /** Forgets what was applied for a resource that is gone. */
  forget(uid: string): void {
    this.#applied.delete(uid);
  }

  async observe(desired: DesiredKafkaUser, context: ExternalContext<KafkaUser>): Promise<ExternalObservation<ObservedKafkaUser>> {
    const { admin } = await this.#clients(desired.connection, context);
    const [mechanisms, acls, quotas] = await Promise.all([
      admin.describeScramCredentials(desired.username),
      admin.describeAcls(principalOf(desired.username)),
      admin.describeUserQuotas(desired.username),
    ]);
    if (mechanisms.length === 0 && acls.length === 0 && Object.keys(quotas).length === 0) return { exists: false };
    const scram = planScram(desired.mechanism, desired.password, mechanisms, this.applied(context.object));
    const aclPlan = planAcls(desired.username, desired.bindings, acls);
    const quotaChange = planQuotas(desired.quotas, quotas);
    const diff: string[] = [];
    if (scram.upsert) diff.push(`credential: ${scram.why}`);
    if (scram.delete.length > 0) diff.push(`credential: remove ${scram.delete.join(', ')}`);
    for (const b of aclPlan.create) diff.push(`acl: add ${describeBinding(b)}`);
    for (const b of aclPlan.delete) diff.push(`acl: remove ${describeBinding(b)}`);
    if (quotaChange !== null) {
      for (const [key, value] of Object.entries(quotaChange.set)) diff.push(`quota ${key}: ${String(quotas[key as QuotaKey] ?? '(none)')} → ${String(value)}`);
      for (const key of quotaChange.remove) diff.push(`quota ${key}: ${String(quotas[key])} → (none)`);
    }
    return { exists: true, upToDate: diff.length === 0, diff, observed: { scram, acls: aclPlan, quotas: quotaChange } };
  }

  async create(desired: DesiredKafkaUser, context: ExternalContext<KafkaUser>): Promise<void> {
    const { admin } = await this.#clients(desired.connection, context);
    await this.#upsertCredential(admin, desired, context);
    if (desired.bindings.length > 0) await admin.createAcls(desired.bindings);
    if (Object.keys(desired.quotas).length > 0) await admin.alterUserQuotas(desired.username, { set: desired.quotas, remove: [] });
  }

  async update(desired: DesiredKafkaUser, observed: ObservedKafkaUser, context: ExternalContext<KafkaUser>): Promise<void> {
    const { admin } = await this.#clients(desired.connection, context);
    if (observed.scram.upsert) await this.#upsertCredential(admin, desired, context);
    for (const mechanism of observed.scram.delete) await admin.deleteScramCredential(desired.username, mechanism);
    // Create before delete: a rule that only changes host or permission never leaves a gap without access.
    if (observed.acls.create.length > 0) await admin.createAcls(observed.acls.create);
    if (observed.acls.delete.length > 0) await admin.deleteAcls(observed.acls.delete);
    if (observed.quotas !== null) await admin.alterUserQuotas(desired.username, observed.quotas);
  }

  async delete(target: DeleteTarget<DesiredKafkaUser>, context: ExternalContext<KafkaUser>): Promise<void> {
    const slash = target.externalName.indexOf('/');
    const connectionName = target.externalName.slice(0, slash);
    const username = target.externalName.slice(slash + 1);
    let clients: ClusterClients;
    try {
      clients = await this.#clients(connectionName, context);
    } catch (err) {
      if (!isTerminalError(err) || err.reason !== 'ConnectionNotFound') throw err;
      this.#deps.events.record(context.object, {
        type: 'Warning',
        reason: 'ConnectionGone',
        action: 'DeleteUser',
        note: `KafkaConnection "${connectionName}" no longer exists; user ${username} was not removed from Kafka`,
      });
      return;
    }
    const { admin } = clients;
    const [mechanisms, acls, quotas] = await Promise.all([
      admin.describeScramCredentials(username),
      admin.describeAcls(principalOf(username)),
      admin.describeUserQuotas(username),
    ]);
    // describeAcls answers only this principal's bindings: nothing of another principal is ever named here.
    if (acls.length > 0) await admin.deleteAcls(acls);
    const setKeys = ALL_QUOTA_KEYS.filter((key) => quotas[key] !== undefined);
    if (setKeys.length > 0) await admin.alterUserQuotas(username, { set: {}, remove: setKeys });
    for (const mechanism of ALL_MECHANISMS) if (mechanisms.includes(mechanism)) await admin.deleteScramCredential(username, mechanism);
    this.#applied.delete(context.object.metadata.uid ?? '');
  }

  async #upsertCredential(admin: ClusterClients['admin'], desired: DesiredKafkaUser, context: ExternalContext<KafkaUser>): Promise<void> {
    const previous = this.applied(context.object);
    const salt = previous?.salt ?? newFingerprintSalt();
    await admin.upsertScramCredential(desired.username, desired.mechanism, desired.password);
    this.#applied.set(context.object.metadata.uid ?? '', { mechanism: desired.mechanism, salt, fingerprint: passwordFingerprint(desired.password, salt) });
  }

  async #clients(connectionName: string, context: ExternalContext<KafkaUser>): Promise<ClusterClients> {
    return this.#deps.resolver.clients(this.#deps.resolver.connection(connectionName), context.signal);
  }
}

function describeBinding(b: AclBinding): string {
  return `${b.permission} ${b.operation} on ${b.patternType} ${b.resourceType} ${b.resourceName} from ${b.host}`;
}
