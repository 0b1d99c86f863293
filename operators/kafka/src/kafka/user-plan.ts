import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AclBinding, QuotaChange, QuotaKey, QuotaValues, ScramMechanism } from './admin.ts';
import type { KafkaAclRule, KafkaClientIdQuotas, KafkaUserLevelQuotas, ScramAuthenticationType } from '../api/v1alpha1/index.ts';

/**
 * Pure planning of a KafkaUser: its ACL bindings, its quotas and whether its SCRAM credential must be written.
 * Only bindings of the user's own principal are ever compared, so nothing of another principal is ever deleted.
 */

/** The name Kafka gives the single cluster resource. */
export const CLUSTER_RESOURCE_NAME = 'kafka-cluster';

/** The principal of a SCRAM user: `User:<username>`. */
export function principalOf(username: string): string {
  return `User:${username}`;
}

function resourceNameOf(rule: KafkaAclRule): string {
  // The CRD's CEL rule requires a name for every resource type but cluster; an object without one never reaches here.
  if (rule.resource.name === undefined) throw new TypeError(`an ACL rule on a ${rule.resource.type} has no resource.name`);
  return rule.resource.name;
}

/**
 * The bindings a user's ACL rules stand for: one per operation, with the host, permission and pattern type the
 * apiserver defaulted (`*`, `allow`, `literal`), and the cluster resource always named `kafka-cluster`. Duplicates are dropped, order
 * follows the rules. Pure.
 */
export function desiredAclBindings(username: string, rules: readonly KafkaAclRule[]): AclBinding[] {
  const principal = principalOf(username);
  const bindings = new Map<string, AclBinding>();
  for (const rule of rules) {
    for (const operation of rule.operations) {
      const cluster = rule.resource.type === 'cluster';
      const binding: AclBinding = {
        resourceType: rule.resource.type,
        resourceName: cluster ? CLUSTER_RESOURCE_NAME : resourceNameOf(rule),
        patternType: cluster ? 'literal' : rule.resource.patternType,
        principal,
        host: rule.host,
        operation,
        permission: rule.permission,
      };
      bindings.set(aclKey(binding), binding);
    }
  }
  return [...bindings.values()];
}

/** ACL bindings to create and to delete; both empty when in sync. */
export interface AclPlan {
  readonly create: readonly AclBinding[];
  readonly delete: readonly AclBinding[];
}

/**
 * The difference between the desired bindings and the observed ones, counting only observed bindings whose
 * principal is exactly `User:<username>`: the others (hand-made ACLs of other principals) are never deleted,
 * whatever the caller passes in. Pure.
 */
export function planAcls(username: string, desired: readonly AclBinding[], observed: readonly AclBinding[]): AclPlan {
  const principal = principalOf(username);
  const mine = observed.filter((binding) => binding.principal === principal);
  const have = new Set(mine.map(aclKey));
  const want = new Set(desired.map(aclKey));
  return {
    create: desired.filter((binding) => !have.has(aclKey(binding))),
    delete: mine.filter((binding) => !want.has(aclKey(binding))),
  };
}

/** A stable identity of a binding, for set comparisons. */
export function aclKey(b: AclBinding): string {
  return JSON.stringify([b.resourceType, b.patternType, b.resourceName, b.principal, b.host, b.operation, b.permission]);
}

const QUOTA_KEYS: Readonly<Record<keyof KafkaUserLevelQuotas, QuotaKey>> = {
  producerByteRate: 'producer_byte_rate',
  consumerByteRate: 'consumer_byte_rate',
  requestPercentage: 'request_percentage',
  controllerMutationRate: 'controller_mutation_rate',
};

/** The user-level quotas of a spec (or of a connection's defaults) as Kafka quota keys; `clients` is not read. Pure. */
export function desiredQuotas(quotas: KafkaUserLevelQuotas | undefined): QuotaValues {
  const values: Partial<Record<QuotaKey, number>> = {};
  for (const [field, key] of Object.entries(QUOTA_KEYS) as [keyof KafkaUserLevelQuotas, QuotaKey][]) {
    const value = quotas?.[field];
    if (value !== undefined) values[key] = value;
  }
  return values;
}

/** The per-client-id quotas as Kafka quota keys, by client id (a later entry for the same id wins). Pure. */
export function desiredClientIdQuotas(clients: readonly KafkaClientIdQuotas[] | undefined): ReadonlyMap<string, QuotaValues> {
  return new Map((clients ?? []).map(({ clientId, ...quotas }) => [clientId, desiredQuotas(quotas)]));
}

/**
 * The change that makes the user's quotas equal `desired`: set differing or new keys, remove keys observed but not
 * desired (only the keys a KafkaUser manages are ever observed). `null` when in sync. Pure.
 */
export function planQuotas(desired: QuotaValues, observed: QuotaValues): QuotaChange | null {
  const set: Partial<Record<QuotaKey, number>> = {};
  const remove: QuotaKey[] = [];
  for (const key of Object.values(QUOTA_KEYS)) {
    const want = desired[key];
    const have = observed[key];
    if (want !== undefined && want !== have) set[key] = want;
    if (want === undefined && have !== undefined) remove.push(key);
  }
  return Object.keys(set).length === 0 && remove.length === 0 ? null : { set, remove };
}

/**
 * The changes that make the user's per-client-id quota entities equal `desired`, by client id: a client id observed
 * but no longer desired has all its keys removed (which removes the entity in Kafka). Only the entities of this
 * user are ever observed (`describeClientIdQuotas`), so no other principal's and never a default entity is named.
 * Empty when in sync. Pure.
 */
export function planClientIdQuotas(desired: ReadonlyMap<string, QuotaValues>, observed: ReadonlyMap<string, QuotaValues>): ReadonlyMap<string, QuotaChange> {
  const changes = new Map<string, QuotaChange>();
  for (const clientId of new Set([...desired.keys(), ...observed.keys()])) {
    const change = planQuotas(desired.get(clientId) ?? {}, observed.get(clientId) ?? {});
    if (change !== null) changes.set(clientId, change);
  }
  return changes;
}

/** The Kafka mechanism of a spec authentication type. */
export function scramMechanismOf(type: ScramAuthenticationType): ScramMechanism {
  return type === 'scram-sha-512' ? 'SCRAM-SHA-512' : 'SCRAM-SHA-256';
}

/** A fresh random salt for {@link passwordFingerprint} (16 bytes, base64url); one per user, kept in its status. */
export function newFingerprintSalt(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * A fingerprint of a password for status: `hmac-sha256:` + base64url of HMAC-SHA256 keyed by the per-user `salt`.
 * Kafka never returns a password or its hash, so the operator records this to know whether the credential it
 * applied still matches the Secret. It reveals nothing usable without the salt and the password; never store the
 * password itself. Pure.
 */
export function passwordFingerprint(password: string, salt: string): string {
  return `hmac-sha256:${createHmac('sha256', salt).update(password, 'utf8').digest('base64url')}`;
}

/** What the status recorded when the credential was last applied. */
export interface AppliedCredential {
  readonly mechanism: ScramMechanism;
  readonly salt: string;
  readonly fingerprint: string;
  /** The id of the Kafka cluster it was written to; absent in records made before the operator recorded it. */
  readonly clusterId?: string;
}

/** What to do about a user's SCRAM credential. */
export interface ScramPlan {
  /** True when the credential for `mechanism` must be (re)written. */
  readonly upsert: boolean;
  readonly mechanism: ScramMechanism;
  /** Mechanisms the operator applied earlier and must now delete (after a change of mechanism). */
  readonly delete: readonly ScramMechanism[];
  /** Why, for a log line or Event; never contains the password. */
  readonly why: string;
}

/**
 * Decides whether the credential must be written: when Kafka has none for the desired mechanism, nothing was
 * recorded, the record names another cluster than `clusterId` (the cluster was rebuilt or restored: a restored
 * credential may hold an older password, and Kafka never shows which), or no cluster at all (an older record, when
 * `clusterId` is given), the recorded mechanism differs, or the password's fingerprint under the recorded
 * salt differs (a rotation). A credential for another mechanism is deleted only when the operator recorded applying
 * it (`applied`) or recorded, before writing one, that it may have (`written`, the write-ahead list of mechanisms).
 * Pure.
 */
export function planScram(
  mechanism: ScramMechanism,
  password: string,
  observed: readonly ScramMechanism[],
  applied: AppliedCredential | undefined,
  written: readonly ScramMechanism[] = [],
  clusterId?: string,
): ScramPlan {
  const ours = new Set([...written, ...(applied === undefined ? [] : [applied.mechanism])]);
  const toDelete = observed.filter((m) => m !== mechanism && ours.has(m));
  const plan = (upsert: boolean, why: string): ScramPlan => ({ upsert, mechanism, delete: toDelete, why });
  if (!observed.includes(mechanism)) return plan(true, `Kafka has no ${mechanism} credential for the user`);
  if (applied === undefined) return plan(true, 'no applied credential is recorded');
  if (clusterId !== undefined && applied.clusterId !== clusterId) {
    return plan(true, applied.clusterId === undefined ? `no cluster is recorded for the applied credential (this is cluster ${clusterId})` : `it was applied on cluster ${applied.clusterId}, this is cluster ${clusterId}`);
  }
  if (applied.mechanism !== mechanism) return plan(true, `mechanism changed from ${applied.mechanism} to ${mechanism}`);
  if (!sameFingerprint(passwordFingerprint(password, applied.salt), applied.fingerprint)) return plan(true, 'the password changed');
  return plan(false, 'up to date');
}

function sameFingerprint(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
