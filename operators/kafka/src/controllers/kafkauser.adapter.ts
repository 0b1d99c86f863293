import { parseConnectionExternalName } from '@domain-operators/reconcile';
import type { DeleteTarget, ExternalAdapter, ExternalContext, ExternalCreation, ExternalObservation, ExternalStatusFields, ExternalUpdate } from '@domain-operators/reconcile';
import type { KafkaUser } from '../api/v1alpha1/index.ts';
import type { AclBinding, KafkaAdmin, QuotaChange, QuotaKey, QuotaValues, ScramMechanism } from '../kafka/admin.ts';
import type { AclPlan, AppliedCredential, ScramPlan } from '../kafka/user-plan.ts';
import { newFingerprintSalt, passwordFingerprint, planAcls, planClientIdQuotas, planQuotas, planScram, principalOf } from '../kafka/user-plan.ts';
import type { ClusterClients } from './kafka-client-pool.ts';

/** The desired user in Kafka, names resolved and password read: what {@link KafkaUserAdapter} applies. */
export interface DesiredKafkaUser {
  readonly connection: string;
  readonly username: string;
  /** The Secret the password comes from (generated or referenced); for status only. */
  readonly secretName: string;
  readonly mechanism: ScramMechanism;
  /** A secret: never logged, never put in a diff, an Event or status. */
  readonly password: string;
  readonly bindings: readonly AclBinding[];
  /** The quotas of entity `user=<username>`. */
  readonly quotas: QuotaValues;
  /** The quotas of each entity `user=<username>,client-id=<id>`, by client id. */
  readonly clientIdQuotas: ReadonlyMap<string, QuotaValues>;
}

/** What `observe` planned. */
export interface ObservedKafkaUser {
  readonly scram: ScramPlan;
  readonly acls: AclPlan;
  readonly quotas: QuotaChange | null;
  /** Changes of the user's per-client-id entities, by client id; empty when in sync. */
  readonly clientIdQuotas: ReadonlyMap<string, QuotaChange>;
}

/**
 * The status fields of a KafkaUser that its adapter reports; never the password. `credential` is what was applied
 * last, reported only by the call that applied it (after the write: a record ahead of it could name a password Kafka
 * never got, and that rotation would never be applied). `credentialMechanisms` is the write-ahead record of the
 * mechanisms a credential may have been written for, so a change of mechanism removes ours, and only ours.
 */
export interface UserStatusFields {
  readonly username: string;
  readonly secretName: string;
  readonly credential?: AppliedCredential;
  readonly credentialMechanisms?: readonly ScramMechanism[];
}

const ALL_MECHANISMS: readonly ScramMechanism[] = ['SCRAM-SHA-512', 'SCRAM-SHA-256'];
const ALL_QUOTA_KEYS: readonly QuotaKey[] = ['producer_byte_rate', 'consumer_byte_rate', 'request_percentage', 'controller_mutation_rate'];

/** The part of the connection's clients the user adapter calls: its small interface. */
export interface UserClients {
  readonly admin: Pick<
    KafkaAdmin,
    | 'alterClientIdQuotas'
    | 'alterUserQuotas'
    | 'createAcls'
    | 'deleteAcls'
    | 'deleteScramCredential'
    | 'describeAcls'
    | 'describeClientIdQuotas'
    | 'describeScramCredentials'
    | 'describeUserQuotas'
    | 'upsertScramCredential'
  >;
  readonly clusterInfo: ClusterClients['clusterInfo'];
}

/**
 * The {@link ExternalAdapter} of KafkaUsers: the SCRAM credential, the ACLs of principal `User:<username>` (never
 * of another principal) and the client quotas of `user=<username>` and of `user=<username>,client-id=<id>` (never another user's
 * entity, never a default entity). A user "exists" in Kafka when any of these does, so an identity someone else set up is never taken over silently. The password is compared through a
 * fingerprint (HMAC under a per-user salt) of what was last applied, read from the resource's status (which the
 * runtime shows with its own latest writes) and reported back for it by the call that applies it, with the id of the
 * cluster it was applied on: on another cluster (rebuilt or restored) it is written again. The password is never
 * stored. It keeps nothing between calls. Deleting removes the credentials of both mechanisms, every ACL of
 * the principal and its quotas, per client id too.
 */
export class KafkaUserAdapter implements ExternalAdapter<KafkaUser, DesiredKafkaUser, ObservedKafkaUser, UserClients> {
  /** Reads the user's credentials, ACLs and quotas and plans what differs; reports its username and Secret. */
  async observe(desired: DesiredKafkaUser, context: ExternalContext<KafkaUser, UserClients>): Promise<ExternalObservation<ObservedKafkaUser>> {
    const clients = await context.client();
    const { admin } = clients;
    const [mechanisms, acls, quotas, clientIdQuotas, cluster] = await Promise.all([
      admin.describeScramCredentials(desired.username),
      admin.describeAcls(principalOf(desired.username)),
      admin.describeUserQuotas(desired.username),
      admin.describeClientIdQuotas(desired.username),
      clients.clusterInfo(),
    ]);
    if (mechanisms.length === 0 && acls.length === 0 && Object.keys(quotas).length === 0 && clientIdQuotas.size === 0) return { exists: false };
    const status = context.object.status;
    const scram = planScram(desired.mechanism, desired.password, mechanisms, status?.credential, status?.credentialMechanisms, cluster.clusterId);
    const aclPlan = planAcls(desired.username, desired.bindings, acls);
    const quotaChange = planQuotas(desired.quotas, quotas);
    const clientIdChanges = planClientIdQuotas(desired.clientIdQuotas, clientIdQuotas);
    const diff: string[] = [];
    if (scram.upsert) diff.push(`credential: ${scram.why}`);
    if (scram.delete.length > 0) diff.push(`credential: remove ${scram.delete.join(', ')}`);
    for (const b of aclPlan.create) diff.push(`acl: add ${describeBinding(b)}`);
    for (const b of aclPlan.delete) diff.push(`acl: remove ${describeBinding(b)}`);
    if (quotaChange !== null) {
      for (const [key, value] of Object.entries(quotaChange.set)) diff.push(`quota ${key}: ${String(quotas[key as QuotaKey] ?? '(none)')} → ${String(value)}`);
      for (const key of quotaChange.remove) diff.push(`quota ${key}: ${String(quotas[key])} → (none)`);
    }
    for (const [clientId, change] of clientIdChanges) {
      const have = clientIdQuotas.get(clientId) ?? {};
      for (const [key, value] of Object.entries(change.set)) diff.push(`quota ${key} of client-id ${clientId}: ${String(have[key as QuotaKey] ?? '(none)')} → ${String(value)}`);
      for (const key of change.remove) diff.push(`quota ${key} of client-id ${clientId}: ${String(have[key])} → (none)`);
    }
    const observed = { scram, acls: aclPlan, quotas: quotaChange, clientIdQuotas: clientIdChanges };
    return { exists: true, upToDate: diff.length === 0, diff, observed, status: identityOf(desired) };
  }

  /**
   * Before a credential is written (a create, or an update that upserts it): the mechanism added to
   * `credentialMechanisms` when it is not recorded yet, so a crash right after the write still leaves the record
   * that this mechanism may be ours to remove. `undefined` when nothing is written or it is recorded already. Pure.
   */
  intent(desired: DesiredKafkaUser, observed: ObservedKafkaUser | undefined, context: ExternalContext<KafkaUser, UserClients>): ExternalStatusFields | undefined {
    if (observed !== undefined && !observed.scram.upsert) return undefined;
    const recorded = recordedMechanisms(context.object);
    return recorded.includes(desired.mechanism) ? undefined : ({ credentialMechanisms: [...recorded, desired.mechanism] } satisfies Partial<UserStatusFields>);
  }

  /**
   * Creates the ACLs, the quotas, then the credential (last: a failure before it leaves no credential unrecorded);
   * reports the credential applied.
   */
  async create(desired: DesiredKafkaUser, context: ExternalContext<KafkaUser, UserClients>): Promise<ExternalCreation> {
    const clients = await context.client();
    const { admin } = clients;
    if (desired.bindings.length > 0) await admin.createAcls(desired.bindings);
    if (Object.keys(desired.quotas).length > 0) await admin.alterUserQuotas(desired.username, { set: desired.quotas, remove: [] });
    if (desired.clientIdQuotas.size > 0) await admin.alterClientIdQuotas(desired.username, planClientIdQuotas(desired.clientIdQuotas, new Map()));
    const credential = await upsertCredential(clients, desired, context.object);
    return { status: { ...identityOf(desired), credential, credentialMechanisms: [desired.mechanism] } satisfies UserStatusFields };
  }

  /**
   * Carries out the plan `observe` made: ACLs (created before deleted: a rule that only changes host or permission
   * never leaves a gap without access), quotas, then the credential and the removal of a former mechanism's. Reports
   * the credential when it wrote one, and the mechanisms left when it touched any.
   */
  async update(desired: DesiredKafkaUser, observed: ObservedKafkaUser, context: ExternalContext<KafkaUser, UserClients>): Promise<ExternalUpdate> {
    const clients = await context.client();
    const { admin } = clients;
    if (observed.acls.create.length > 0) await admin.createAcls(observed.acls.create);
    if (observed.acls.delete.length > 0) await admin.deleteAcls(observed.acls.delete);
    if (observed.quotas !== null) await admin.alterUserQuotas(desired.username, observed.quotas);
    if (observed.clientIdQuotas.size > 0) await admin.alterClientIdQuotas(desired.username, observed.clientIdQuotas);
    const credential = observed.scram.upsert ? await upsertCredential(clients, desired, context.object) : undefined;
    for (const mechanism of observed.scram.delete) await admin.deleteScramCredential(desired.username, mechanism);
    if (credential === undefined && observed.scram.delete.length === 0) return {};
    // Kafka now holds the desired mechanism's credential and none of the others we may have written.
    return { status: { ...(credential !== undefined && { credential }), credentialMechanisms: [desired.mechanism] } satisfies Partial<UserStatusFields> };
  }

  /** Removes the user from Kafka; a connection that is gone is the runtime's `releasingWhenConnectionGone` (wired by the runtime's `managedResourceDeps`). */
  async delete(target: DeleteTarget<DesiredKafkaUser>, context: ExternalContext<KafkaUser, UserClients>): Promise<void> {
    const { name: username } = parseConnectionExternalName(target.externalName);
    const { admin } = await context.client();
    const [mechanisms, acls, quotas, clientIdQuotas] = await Promise.all([
      admin.describeScramCredentials(username),
      admin.describeAcls(principalOf(username)),
      admin.describeUserQuotas(username),
      admin.describeClientIdQuotas(username),
    ]);
    // describeAcls answers only this principal's bindings: nothing of another principal is ever named here.
    if (acls.length > 0) await admin.deleteAcls(acls);
    const setKeys = ALL_QUOTA_KEYS.filter((key) => quotas[key] !== undefined);
    if (setKeys.length > 0) await admin.alterUserQuotas(username, { set: {}, remove: setKeys });
    if (clientIdQuotas.size > 0) await admin.alterClientIdQuotas(username, planClientIdQuotas(new Map(), clientIdQuotas));
    for (const mechanism of ALL_MECHANISMS) if (mechanisms.includes(mechanism)) await admin.deleteScramCredential(username, mechanism);
  }
}

function describeBinding(b: AclBinding): string {
  return `${b.permission} ${b.operation} on ${b.patternType} ${b.resourceType} ${b.resourceName} from ${b.host}`;
}

/** The fields every report of a user carries: who it is in Kafka and where its password comes from. Pure. */
function identityOf(desired: DesiredKafkaUser): { readonly username: string; readonly secretName: string } {
  return { username: desired.username, secretName: desired.secretName } satisfies UserStatusFields;
}

/** The mechanisms `user`'s status says a credential may have been written for: the write-ahead list and the applied one. */
function recordedMechanisms(user: KafkaUser): ScramMechanism[] {
  const status = user.status;
  const recorded = [...(status?.credentialMechanisms ?? [])];
  const applied = status?.credential?.mechanism;
  if (applied !== undefined && !recorded.includes(applied)) recorded.push(applied);
  return recorded;
}

/**
 * Writes the desired credential and returns its record: the recorded salt kept (a new one the first time), and the
 * id of the cluster it went to (the clients' cached cluster description, which the connection's check refreshes).
 */
async function upsertCredential(clients: UserClients, desired: DesiredKafkaUser, user: KafkaUser): Promise<AppliedCredential> {
  const salt = user.status?.credential?.salt ?? newFingerprintSalt();
  const { clusterId } = await clients.clusterInfo();
  await clients.admin.upsertScramCredential(desired.username, desired.mechanism, desired.password);
  return { mechanism: desired.mechanism, salt, fingerprint: passwordFingerprint(desired.password, salt), clusterId };
}
