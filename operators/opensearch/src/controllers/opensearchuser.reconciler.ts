/**
 * `OpenSearchUser` → one internal user, owned whole. The password comes from `passwordSecretRef` or from a Secret
 * `<name>-opensearch-credentials` the operator generates (owned by the user, so it goes with it). OpenSearch never
 * returns the hash, so the applied password is recorded as a salted fingerprint in `status.passwordApplied`
 * (written AFTER the put: a failed put leaves the old fingerprint and is retried); a Secret change has another
 * fingerprint and is applied. Tenancy first; reserved, static or hidden users are never written.
 */
import { randomBytes } from 'node:crypto';
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import type { Client, Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation } from '@domain-operators/reconcile';
import type { ExternalCreation, ExternalStatusFields, ExternalUpdate } from '@domain-operators/reconcile';
import {
  bySecretRef,
  connectionExternalName,
  coreTypes,
  credentialsSecretName,
  ensureSecret,
  forceRotation,
  rotationPending,
  generatePassword,
  isControlledBy,
  managedController,
  metadataOnly,
  objectKey,
  ownedOrReferencedSecrets,
  ownedSecret,
  ownedSecretScope,
  parseConnectionExternalName,
  Reasons,
  requestFor,
  TerminalError,
  requiredSecret,
  requiredSecretValue,
} from '@domain-operators/reconcile';
import type { Rotation, SecretSource } from '@domain-operators/reconcile';
import type { OpenSearchUser } from '../api/v1alpha1/index.ts';
import { GROUP } from '../api/v1alpha1/common.ts';
import { openSearchUsers } from '../api/v1alpha1/index.ts';
import type { ObservedUser, UserPlan } from '../opensearch/security-plan.ts';
import { planUser } from '../opensearch/security-plan.ts';
import { checkSecurityObject, checkUser, tenancyError } from '../opensearch/tenancy.ts';
import type { PasswordApplied } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { externalNameOf, scopeOf } from './scope.ts';
import { recordedStatus } from './recorded-status.ts';

/** The desired user. `password` is a secret: it goes into request bodies only, never into messages or logs. */
export interface UserDesired {
  readonly connection: string;
  readonly username: string;
  readonly password: string;
  readonly secretName: string;
  readonly backendRoles: readonly string[];
  readonly attributes: Readonly<Record<string, string>>;
}

/** What observing found: the user and the plan (whose body may carry the password). */
export interface UserObserved {
  readonly user: ObservedUser;
  readonly plan: UserPlan;
}

/** Index of users by the Secret their password comes from (`namespace/name`). */
export const BY_PASSWORD_SECRET = 'passwordSecret';

/** The Secret a user's password comes from and its key. */
export function passwordSource(object: OpenSearchUser): { readonly secretName: string; readonly key: string; readonly generated: boolean } {
  const ref = object.spec.passwordSecretRef;
  return ref === undefined
    ? { secretName: credentialsSecretName(object.metadata.name ?? '', 'opensearch'), key: 'password', generated: true }
    : { secretName: ref.name, key: ref.key, generated: false };
}

/** The `app.kubernetes.io/managed-by` value of the Secrets this operator generates; its Secret cache selects on it. */
export const MANAGED_BY = 'opensearch-operator';

/** What the user kind reads and writes besides OpenSearch. */
export interface UserDeps {
  readonly connections: Connections;
  /**
   * The Secrets this operator generated: the label-scoped cache ({@link MANAGED_BY}) when it is as new as the
   * metadata watch that wakes users, else a read by name (`ownedOrReferencedSecrets`).
   */
  readonly generated: SecretSource;
  /** Secrets a user names (`passwordSecretRef`), read by name. */
  readonly referenced: SecretSource;
  /** Creates the generated Secret (and reads it when it already exists). */
  readonly client: Client;
}

/**
 * The desired user of a resource. Reads the generated password Secret from the cache, one named by
 * `passwordSecretRef` by name (`deps.referenced`); when the spec names none and the
 * generated Secret does not exist yet (and the user is not being deleted), creates it: the one write this function
 * makes, needed before anything can be planned. Throws `DependencyError` `SecretNotFound` for a missing Secret, and
 * `TerminalError` `SecretConflict` when a Secret of the generated name exists that this user does not control (as
 * the Kafka operator does: its password is somebody else's; `passwordSecretRef` can name it on purpose).
 */
export async function userDesired(deps: UserDeps, object: OpenSearchUser, signal?: AbortSignal): Promise<UserDesired> {
  const scope = scopeOf(deps.connections, object, 'user', object.spec.username);
  const refusal = checkUser(scope.tenancy, object.spec);
  if (refusal !== undefined) throw tenancyError(refusal);
  const namespace = object.metadata.namespace ?? '';
  const source = passwordSource(object);
  const at = { namespace, name: source.secretName };
  let secret: V1Secret;
  if (!source.generated) secret = await requiredSecret(deps.referenced, at, undefined, signal);
  else if (object.metadata.deletionTimestamp != null) secret = await requiredSecret(deps.generated, at, undefined, signal);
  else {
    const rotation = forceRotation(object, GROUP, () => ({ username: scope.name, password: generatePassword('every-class') }));
    const found = await deps.generated.get(namespace, source.secretName, signal);
    secret = found !== undefined && !rotationPending(rotation, found) ? found : await ensureGeneratedSecret(deps, object, scope.name, source.secretName, rotation, signal);
  }
  if (source.generated && !isControlledBy(secret, object.metadata.uid ?? '')) {
    throw new TerminalError(`Secret ${namespace}/${source.secretName} exists and does not belong to this OpenSearchUser; set passwordSecretRef to use it`, Reasons.secretConflict);
  }
  const password = requiredSecretValue(secret, source.key);
  return {
    connection: scope.connection,
    username: scope.name,
    password,
    secretName: source.secretName,
    backendRoles: object.spec.backendRoles ?? [],
    attributes: object.spec.attributes ?? {},
  };
}

/**
 * Creates `<name>-opensearch-credentials` with a password OpenSearch's rules accept (one character of each class),
 * or reads it when an earlier reconcile created it and the cache has not caught up; gives it a new such password once
 * per `opensearch.domain-operators.io/force-rotate` token (`rotation`, the runtime's `forceRotation`).
 */
async function ensureGeneratedSecret(deps: UserDeps, user: OpenSearchUser, username: string, name: string, rotation: Rotation, signal?: AbortSignal): Promise<V1Secret> {
  const secret = ownedSecret({
    ownerType: openSearchUsers.type,
    owner: user,
    name,
    managedBy: MANAGED_BY,
    stringData: { username, password: generatePassword('every-class') },
  });
  return (await ensureSecret({ client: deps.client, secrets: deps.generated }, secret, signal, rotation)).secret;
}

/** The part of the OpenSearch API the adapter of internal users calls: its small interface, bound to the resource's connection. */
export type UserApi = Pick<OpenSearchApi, 'deleteUser' | 'getUser' | 'putUser'>;

/**
 * The {@link ExternalAdapter} of internal users. Reports `username` and `secretName` as seen, and the password's
 * fingerprint with the result of the put that applied it (never before: a failed put keeps the old fingerprint,
 * so it is retried); reads the recorded fingerprint back from the object.
 */
export class UserAdapter implements ExternalAdapter<OpenSearchUser, UserDesired, UserObserved, UserApi> {
  /** Reads the user and plans; `diff` says `password: differs` on a rotation, never the password. */
  async observe(desired: UserDesired, context: ExternalContext<OpenSearchUser, UserApi>): Promise<ExternalObservation<UserObserved>> {
    const user = await (await context.client()).getUser(desired.username, { signal: context.signal });
    const refusal = checkSecurityObject('user', desired.username, user);
    if (refusal !== undefined) throw tenancyError(refusal);
    if (user === undefined) return { exists: false };
    const plan = this.#plan(desired, user, context.object);
    return { exists: true, upToDate: plan.upToDate, diff: plan.diff, observed: { user, plan }, status: { username: desired.username, secretName: desired.secretName } };
  }

  /** Puts the user with its password; reports the fingerprint applied. */
  create(desired: UserDesired, context: ExternalContext<OpenSearchUser, UserApi>): Promise<ExternalCreation> {
    return this.#put(desired, this.#plan(desired, undefined, context.object), context);
  }

  /** Puts the user as `observe` planned it (with the password only when it changed); reports the fingerprint. */
  update(desired: UserDesired, observed: UserObserved, context: ExternalContext<OpenSearchUser, UserApi>): Promise<ExternalUpdate> {
    return this.#put(desired, observed.plan, context);
  }

  async delete(target: DeleteTarget<UserDesired>, context: ExternalContext<OpenSearchUser, UserApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    const api = await context.client();
    const refusal = checkSecurityObject('user', name, await api.getUser(name, { signal: context.signal }));
    if (refusal !== undefined) throw tenancyError(refusal);
    await api.deleteUser(name, { signal: context.signal });
  }

  async #put(desired: UserDesired, plan: UserPlan, context: ExternalContext<OpenSearchUser, UserApi>): Promise<{ readonly status: ExternalStatusFields }> {
    await (await context.client()).putUser(desired.username, plan.body, { signal: context.signal });
    return { status: { username: desired.username, secretName: desired.secretName, passwordApplied: plan.passwordApplied } };
  }

  #plan(desired: UserDesired, user: ObservedUser | undefined, object: OpenSearchUser): UserPlan {
    return planUser({
      desired: { backendRoles: desired.backendRoles, attributes: desired.attributes },
      observed: user,
      password: desired.password,
      applied: appliedPassword(object),
      newSalt: randomBytes(16).toString('base64url'),
    });
  }
}

/** The fingerprint `object` recorded for its applied password, when it has a well-formed one. */
function appliedPassword(object: OpenSearchUser): PasswordApplied | undefined {
  const recorded = recordedStatus(object, 'passwordApplied');
  if (typeof recorded !== 'object' || recorded === null) return undefined;
  const { salt, fingerprint } = recorded as Partial<PasswordApplied>;
  return typeof salt === 'string' && typeof fingerprint === 'string' ? { salt, fingerprint } : undefined;
}

/**
 * Builds the `OpenSearchUser` controller. Only generated Secrets are cached (label {@link MANAGED_BY}); a change of
 * any password Secret, generated or named, is seen through the metadata-only Secret watch and wakes the users reading
 * it. A generated Secret is served from its cache only at the resourceVersion that watch holds, so a reconcile it
 * wakes never reads a rotated password stale.
 */
export function userController(deps: ManagedControllerDeps & { readonly connections: Connections; readonly referenced: SecretSource }): Controller<OpenSearchUser> {
  const owned = deps.informers.informerFor(coreTypes.secret, { scope: ownedSecretScope(MANAGED_BY) });
  const seen = deps.informers.informerFor(metadataOnly(coreTypes.secret));
  const generated = ownedOrReferencedSecrets(owned, deps.referenced, seen);
  const userDeps: UserDeps = { connections: deps.connections, generated, referenced: deps.referenced, client: deps.client };
  return managedController(deps, {
    name: 'opensearchuser',
    type: openSearchUsers.type,
    finalizer: 'user',
    adapter: new UserAdapter(),
    externalName: (object) => externalNameOf(scopeOf(deps.connections, object, 'user', object.spec.username)),
    connect: async (object) => {
      const desired = await userDesired(userDeps, object);
      return { externalName: connectionExternalName(desired.connection, desired.username), desired };
    },
    defaultDeletionPolicy: 'Delete',
    indexers: { [BY_PASSWORD_SECRET]: bySecretRef((object: OpenSearchUser) => [passwordSource(object).secretName]) },
    watches: (builder, own) => {
      const readers = (secret: KubernetesObject) => own.store.byIndex(BY_PASSWORD_SECRET, objectKey(secret)).map(requestFor);
      builder.watches(metadataOnly(coreTypes.secret), readers);
    },
  });
}
