import type { V1Secret } from '@kubernetes/client-node';
import { bySecretRef, CONNECTION_INDEX, connectionExternalName, coreTypes, dependentsBy, ensureSecret, errorFields, forceRotation, generatePassword, isControlledBy, metadataOnly, objectKey, Reasons, requiredSecret, requiredSecretValue, secretValue, TerminalError } from '@domain-operators/reconcile';
import type { Client, Connected, ControllerBuilder, ExternalResourceReconciler, ManagedKind, PartialObjectMetadata, ReconcileContext, Reconciler, SecretSource, StoreSource } from '@domain-operators/reconcile';
import { GROUP, kafkaConnections, kafkaUsers } from '../api/v1alpha1/index.ts';
import type { KafkaConnection, KafkaUser } from '../api/v1alpha1/index.ts';
import { effectiveUserQuotas } from '../kafka/quota-policy.ts';
import { checkAclRules, resolveKafkaName, tenancyError } from '../kafka/tenancy.ts';
import type { KafkaAclRule, KafkaUserQuotas } from '../api/v1alpha1/index.ts';
import { desiredAclBindings, desiredClientIdQuotas, desiredQuotas, scramMechanismOf } from '../kafka/user-plan.ts';
import { clusterIdChanged } from './cluster-identity.ts';
import type { KafkaConnections } from './kafka-connections.ts';
import { credentialData, credentialsSecret, generatedSecretName } from './credentials-secret.ts';
import type { ClusterClients } from './kafka-client-pool.ts';
import { KafkaUserAdapter } from './kafkauser.adapter.ts';
import type { DesiredKafkaUser, ObservedKafkaUser } from './kafkauser.adapter.ts';

/** Dependencies of a {@link KafkaUserKind}. */
export interface KafkaUserKindDeps {
  readonly client: Client;
  readonly kit: KafkaConnections;
  readonly secrets: SecretSource;
}

/** Options of a {@link KafkaUserKind}. */
export interface KafkaUserKindOptions {
  /** How often a user is compared with Kafka to revert hand-made changes of its ACLs and quotas (default 2 min). */
  readonly driftCheckIntervalMs?: number;
  /** Concurrent KafkaUser reconciles at least (default 16). */
  readonly minWorkers?: number;
}

/** Name of the KafkaUsers' store index by the Secret they read their password from. */
const SECRET_INDEX = 'secret';

/** Who a KafkaUser is in Kafka, after the tenancy rules. */
interface UserIdentity {
  readonly connection: KafkaConnection;
  readonly username: string;
  readonly rules: readonly KafkaAclRule[];
  /** The quotas to apply: the spec's, or the connection's defaults, within its ceiling (`quota-policy.ts`). */
  readonly quotas: KafkaUserQuotas;
}

/**
 * KafkaUser as the runtime's `managedController` reconciles it: its SCRAM credential (password from `passwordSecretRef`, or generated once into the Secret
 * `<name>-kafka-credentials` owned by the KafkaUser, which also gets the username, mechanism, bootstrap servers and a
 * JAAS line), its ACLs (principal `User:<username>` only) and its quotas, through the runtime's
 * `ExternalResourceReconciler` over {@link KafkaUserAdapter}. A changed password in the Secret is applied
 * (rotation), detected by fingerprint. Quotas are the spec's (user-level and per client id), or the connection's
 * `defaultUserQuotas` for a user that sets none, within its `maxUserQuotas` ceiling (`quota-policy.ts`). Its status
 * fields (username, secretName, the applied credential's fingerprint) come back from the adapter's calls and go out
 * in the runtime's one status patch with the conditions and `observedGeneration`; the mechanisms a credential is
 * about to be written for are recorded ahead of the write (the adapter's `intent`, inside the `CreatePending` claim
 * on a create). Tenancy (namespace, username and ACL resources inside the prefix, quotas within the ceiling) is
 * checked before anything is created, in Kubernetes or in Kafka. Users are always deleted from Kafka with their
 * resource: an identity has no data to retain.
 */
export class KafkaUserKind implements ManagedKind<KafkaUser, DesiredKafkaUser, ObservedKafkaUser, ClusterClients> {
  readonly name = 'kafkauser';
  readonly type = kafkaUsers.type;
  readonly noun = 'user';
  readonly adapter = new KafkaUserAdapter();
  readonly defaultDeletionPolicy = 'Delete';
  readonly adoptExactMatch = true;
  readonly driftCheckIntervalMs: number;
  readonly minWorkers: number;
  /** Indexed by the Secret each user reads its password from (referenced or generated). */
  readonly indexers = { [SECRET_INDEX]: bySecretRef<KafkaUser>((u) => [u.spec.authentication.passwordSecretRef?.name ?? generatedSecretName(u)]) };
  readonly #deps: KafkaUserKindDeps;

  /** Assembles the parts; no I/O. */
  constructor(deps: KafkaUserKindDeps, options: KafkaUserKindOptions = {}) {
    this.#deps = deps;
    this.driftCheckIntervalMs = options.driftCheckIntervalMs ?? 120_000;
    this.minWorkers = options.minWorkers ?? 16;
  }

  /** A change of a Secret a user reads (seen through a metadata-only watch), or a replaced cluster, wakes the user. */
  watches(builder: ControllerBuilder<KafkaUser>, own: StoreSource<KafkaUser>): void {
    builder
      .watches(kafkaConnections.type, dependentsBy(own, CONNECTION_INDEX, (c: KafkaConnection) => c.metadata.name ?? ''), { predicates: [clusterIdChanged] })
      .watches(metadataOnly(coreTypes.secret), dependentsBy(own, SECRET_INDEX, (s: PartialObjectMetadata) => objectKey(s)));
  }

  /** The runtime's reconciler, after the generated credentials Secret is ensured (for a user not being deleted). */
  around(external: ExternalResourceReconciler<KafkaUser, DesiredKafkaUser, ObservedKafkaUser, ClusterClients>): Reconciler<KafkaUser> {
    return {
      reconcile: async (object, context) => {
        if (object.metadata.deletionTimestamp == null) await this.#ensureGeneratedSecret(object, context);
        return external.reconcile(object, context);
      },
      forget: (request) => {
        external.forget(request);
      },
    };
  }

  /** `<connection>/<username>`; throws `DependencyError` `ConnectionNotFound` (retried) or `TerminalError` `TenancyViolation`. */
  externalName(user: KafkaUser): string {
    return connectionExternalName(user.spec.connectionRef.name, this.#identity(user).username);
  }

  /**
   * The external name and the desired user, password included, from one look at the connection; throws
   * `TerminalError` for what a change must fix (tenancy, Secret).
   */
  async connect(user: KafkaUser): Promise<Connected<DesiredKafkaUser>> {
    const { username, rules, quotas } = this.#identity(user);
    const name = user.spec.connectionRef.name;
    const desired: DesiredKafkaUser = {
      connection: name,
      username,
      secretName: user.spec.authentication.passwordSecretRef?.name ?? generatedSecretName(user),
      mechanism: scramMechanismOf(user.spec.authentication.type),
      password: await this.#password(user),
      bindings: desiredAclBindings(username, rules),
      quotas: desiredQuotas(quotas),
      clientIdQuotas: desiredClientIdQuotas(quotas.clients),
    };
    return { externalName: connectionExternalName(name, username), desired };
  }

  #identity(user: KafkaUser): UserIdentity {
    const connection = this.#deps.kit.get(user.spec.connectionRef.name);
    const prefix = this.#deps.kit.tenancy(connection, user.metadata.namespace ?? '');
    const username = resolveKafkaName('username', user.spec.username, user.metadata.name ?? '', prefix);
    if (!username.ok) throw tenancyError(username.violation);
    const rules = user.spec.acls ?? [];
    const checked = checkAclRules(rules, prefix);
    if (!checked.ok) throw tenancyError(checked.violation);
    const quotas = effectiveUserQuotas(user.spec.quotas, connection.spec.tenancy);
    if (!quotas.ok) throw tenancyError(quotas.violation);
    return { connection, username: username.value, rules, quotas: quotas.value };
  }

  async #password(user: KafkaUser): Promise<string> {
    const namespace = user.metadata.namespace ?? '';
    const ref = user.spec.authentication.passwordSecretRef;
    const name = ref?.name ?? generatedSecretName(user);
    const key = ref?.key ?? 'password';
    if (ref !== undefined) return requiredSecretValue(await requiredSecret(this.#deps.secrets, { namespace, name }, 'authentication.passwordSecretRef'), key, 'authentication.passwordSecretRef');
    const secret = await this.#deps.secrets.get(namespace, name);
    if (secret === undefined) throw new Error(`the generated Secret ${namespace}/${name} is not there yet`);
    if (!isControlledBy(secret, user.metadata.uid ?? '')) {
      throw new TerminalError(`Secret ${namespace}/${name} exists and does not belong to this KafkaUser; set authentication.passwordSecretRef to use it`, Reasons.secretConflict);
    }
    return requiredSecretValue(secret, key);
  }

  /**
   * Creates `<name>-kafka-credentials` with a new password when the user has no `passwordSecretRef`, or brings its
   * other keys (username, mechanism, bootstrap servers, JAAS line) in line with the password it holds. Does nothing
   * while the identity cannot be resolved (the inner reconcile reports why) or when the Secret belongs to someone else.
   */
  async #ensureGeneratedSecret(user: KafkaUser, context: ReconcileContext): Promise<void> {
    if (user.spec.authentication.passwordSecretRef !== undefined) return;
    let identity: UserIdentity;
    try {
      identity = this.#identity(user);
    } catch (err) {
      context.log.debug(errorFields(err), 'not generating credentials: the user cannot be resolved');
      return;
    }
    const namespace = user.metadata.namespace ?? '';
    const name = generatedSecretName(user);
    const values = {
      username: identity.username,
      mechanism: scramMechanismOf(user.spec.authentication.type),
      bootstrapServers: identity.connection.spec.bootstrapServers,
    };
    const fresh = credentialsSecret(user, { ...values, password: generatePassword('url-safe') });
    // `kafka.domain-operators.io/force-rotate: <token>` gives the Secret a new password once per token.
    const rotation = forceRotation(user, GROUP, () => credentialData({ ...values, password: generatePassword('url-safe') }));
    const { secret: existing, created, rotated } = await ensureSecret({ client: this.#deps.client, secrets: this.#deps.secrets }, fresh, context.signal, rotation);
    if (created || rotated === true) {
      context.log.info({ secret: name, ...(rotated === true && { rotatedFor: rotation.token }) }, created ? 'generated the credentials Secret' : 'generated a new password (force-rotate)');
      return;
    }
    if (!isControlledBy(existing, user.metadata.uid ?? '')) return;
    const password = secretValue(existing, 'password');
    if (password === undefined || password === '') return;
    const data = credentialData({ ...values, password });
    const stale = Object.entries(data).some(([key, value]) => secretValue(existing, key) !== value);
    if (stale) {
      await this.#deps.client.patch(coreTypes.secret, { namespace, name }, { type: 'merge', body: { stringData: data } satisfies Partial<V1Secret> }, { signal: context.signal });
    }
  }
}
