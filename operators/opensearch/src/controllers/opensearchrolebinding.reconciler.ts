/**
 * `OpenSearchRoleBinding` → this binding's entries in one role mapping. The mapping is shared: a binding adds the
 * users and backend roles it wants and removes only those it added itself (recorded in `status.applied` BEFORE the
 * write, so a crash cannot leave an entry it added unrecorded), keeping entries of other bindings and of people.
 * Tenancy first: users inside the prefix, the role an `OpenSearchRole` of the same namespace or an `externalRole`
 * listed in the connection's `bindableRoles`, never a protected mapping.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation, StoreSource } from '@domain-operators/reconcile';
import type { ExternalCreation, ExternalStatusFields, ExternalUpdate } from '@domain-operators/reconcile';
import { DependencyError, managedController, objectKey, Reasons, requestFor, TerminalError } from '@domain-operators/reconcile';
import type { OpenSearchRole, OpenSearchRoleBinding } from '../api/v1alpha1/index.ts';
import { openSearchRoleBindings, openSearchRoles } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import { sortedUnique } from '../opensearch/json.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import type { ObservedRoleMapping, RoleMappingPlan } from '../opensearch/security-plan.ts';
import { planRoleMapping, releaseRoleMapping } from '../opensearch/security-plan.ts';
import { checkRoleBinding, checkSecurityObject, tenancyError } from '../opensearch/tenancy.ts';
import type { RoleBindingApplied } from '../api/v1alpha1/index.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { roleScope } from './opensearchrole.reconciler.ts';
import { recordedStatus } from './recorded-status.ts';

/** The desired entries of a binding in the mapping of `roleName`. */
export interface BindingDesired {
  readonly connection: string;
  readonly roleName: string;
  readonly users: readonly string[];
  readonly backendRoles: readonly string[];
}

/** What observing found: the mapping (absent when the role has none) and the plan for this binding's entries. */
export interface BindingObserved {
  readonly mapping: ObservedRoleMapping | undefined;
  readonly plan: RoleMappingPlan;
}

/** Index of bindings by the role mapping they write, `<connection>/<role name>`. */
export const BY_ROLE_MAPPING = 'roleMapping';
/** Index of bindings by the `OpenSearchRole` they reference, `<namespace>/<name>`. */
export const BY_ROLE_REF = 'roleRef';

/** The caches and collaborators of role bindings. */
export interface RoleBindingDeps {
  readonly connections: Connections;
  readonly roles: StoreSource<OpenSearchRole>;
}

/**
 * The OpenSearch role a binding maps to: the referenced `OpenSearchRole`'s name (which must use the same
 * connection) or `externalRole`. Throws `DependencyError` `RoleNotFound` while the referenced role is not cached,
 * `TenancyViolation` for a binding outside its tenancy. Reads caches only.
 */
export function bindingDesired(deps: RoleBindingDeps, object: OpenSearchRoleBinding): BindingDesired {
  const namespace = object.metadata.namespace ?? '';
  const connection = object.spec.connectionRef.name;
  const tenancy = deps.connections.tenancy(connection, namespace);
  const violation = checkRoleBinding(tenancy, object.spec);
  if (violation !== undefined) throw tenancyError(violation);
  let roleName = object.spec.externalRole ?? '';
  const ref = object.spec.roleRef;
  if (ref !== undefined) {
    const role = deps.roles.store.get(`${namespace}/${ref.name}`);
    if (role === undefined) throw new DependencyError(OpenSearchReasons.roleNotFound, `OpenSearchRole ${namespace}/${ref.name} does not exist`);
    if (role.spec.connectionRef.name !== connection) {
      throw new TerminalError(`OpenSearchRole ${ref.name} uses connection ${role.spec.connectionRef.name}, this binding ${connection}`, Reasons.invalidSpec);
    }
    roleName = roleScope(deps.connections, role).name;
  }
  return { connection, roleName, users: object.spec.users ?? [], backendRoles: object.spec.backendRoles ?? [] };
}

/** The external name of a binding: `<connection>/<role>/<namespace>/<name>`, one per binding (bindings share mappings). */
export function bindingExternalName(deps: RoleBindingDeps, object: OpenSearchRoleBinding): string {
  const desired = bindingDesired(deps, object);
  return `${desired.connection}/${desired.roleName}/${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}

/** The part of the OpenSearch API the adapter of role mappings calls: its small interface, bound to the resource's connection. */
export type RoleMappingApi = Pick<OpenSearchApi, 'deleteRoleMapping' | 'getRoleMapping' | 'putRoleMapping'>;

/**
 * The {@link ExternalAdapter} of role bindings. A binding's part of the shared mapping "exists" when every entry it
 * wants is there, or when it already has a record (`status.applied`) in this mapping: then a missing entry is drift,
 * put back by an update planned from what `observe` read. So `create` runs only for a binding that has no entry of
 * its own in the mapping yet, and the entries it adds are recorded ahead of every write ({@link RoleBindingAdapter.intent}).
 */
export class RoleBindingAdapter implements ExternalAdapter<OpenSearchRoleBinding, BindingDesired, BindingObserved, RoleMappingApi> {
  readonly #deps: { readonly bindings: StoreSource<OpenSearchRoleBinding> };

  /** `bindings`: the cache of every binding, indexed `BY_ROLE_MAPPING` (the others writing the same role mapping). */
  constructor(deps: { readonly bindings: StoreSource<OpenSearchRoleBinding> }) {
    this.#deps = deps;
  }

  /** Reads the mapping and plans this binding's entries; a protected mapping is a `TenancyViolation`. */
  async observe(desired: BindingDesired, context: ExternalContext<OpenSearchRoleBinding, RoleMappingApi>): Promise<ExternalObservation<BindingObserved>> {
    const recorded = appliedIn(context.object, desired.roleName);
    const observed = await this.#plan(desired, recorded, context);
    const mapping = observed.mapping;
    const present =
      mapping !== undefined && desired.users.every((user) => mapping.users.includes(user)) && desired.backendRoles.every((role) => mapping.backend_roles.includes(role));
    if (!present && recorded === undefined) return { exists: false };
    return { exists: true, upToDate: observed.plan.upToDate, diff: observed.plan.diff, observed, status: { applied: appliedOf(desired, observed.plan) } };
  }

  /**
   * The entries this binding may own once the write is through, recorded before it, so a crash right after the
   * write cannot leave an entry it added unrecorded. Before an update: the entries recorded so far with those the
   * plan owns (an entry it drops is forgotten only with the update's result, after the drop went through). Before a
   * create, which runs without a plan: every entry the spec wants. The create's result then records only those it
   * added (not those already there), so the wider record stays only when the process dies between the two writes;
   * the binding then also owns a wanted entry that was already there. Pure.
   */
  intent(desired: BindingDesired, observed: BindingObserved | undefined, context: ExternalContext<OpenSearchRoleBinding, RoleMappingApi>): ExternalStatusFields {
    const mayOwn = observed === undefined ? { users: desired.users, backendRoles: desired.backendRoles } : observed.plan.applied;
    const recorded = observed === undefined ? undefined : appliedIn(context.object, desired.roleName);
    const applied: RoleBindingApplied = {
      roleName: desired.roleName,
      users: sortedUnique([...(recorded?.users ?? []), ...mayOwn.users]),
      backendRoles: sortedUnique([...(recorded?.backendRoles ?? []), ...mayOwn.backendRoles]),
    };
    return { applied };
  }

  /**
   * Adds the binding's entries to the mapping (creating it when absent). Runs only when `observe` found no record of
   * this binding in the mapping, so none of the entries there are its own: entries already present are not claimed.
   */
  async create(desired: BindingDesired, context: ExternalContext<OpenSearchRoleBinding, RoleMappingApi>): Promise<ExternalCreation> {
    return this.#apply(desired, await this.#plan(desired, undefined, context), context);
  }

  /** Writes the mapping `observe` planned; reports the entries this binding owns now. */
  update(desired: BindingDesired, observed: BindingObserved, context: ExternalContext<OpenSearchRoleBinding, RoleMappingApi>): Promise<ExternalUpdate> {
    return this.#apply(desired, observed, context);
  }

  /** Removes this binding's entries, keeping everyone else's; deletes the mapping when nothing is left in it. */
  async delete(target: DeleteTarget<BindingDesired>, context: ExternalContext<OpenSearchRoleBinding, RoleMappingApi>): Promise<void> {
    const [connection = '', roleName = ''] = target.externalName.split('/');
    const api = await context.client();
    const mapping = await this.#mapping(api, roleName, context);
    if (mapping === undefined) return;
    const release = releaseRoleMapping(mapping, appliedIn(context.object, roleName), this.#wantedByOthers(context.object, connection, roleName));
    if (release.empty) await api.deleteRoleMapping(roleName, { signal: context.signal });
    else if (!release.upToDate) await api.putRoleMapping(roleName, release.body, { signal: context.signal });
  }

  async #apply(desired: BindingDesired, observed: BindingObserved, context: ExternalContext<OpenSearchRoleBinding, RoleMappingApi>): Promise<{ readonly status: ExternalStatusFields }> {
    const { plan } = observed;
    const status = { applied: appliedOf(desired, plan) };
    if (plan.upToDate || (observed.mapping === undefined && plan.empty)) return { status };
    await (await context.client()).putRoleMapping(desired.roleName, plan.body, { signal: context.signal });
    return { status };
  }

  async #plan(desired: BindingDesired, applied: RoleBindingApplied | undefined, context: ExternalContext<OpenSearchRoleBinding, RoleMappingApi>): Promise<BindingObserved> {
    const api = await context.client();
    const mapping = await this.#mapping(api, desired.roleName, context);
    const plan = planRoleMapping({
      desired: { users: desired.users, backendRoles: desired.backendRoles },
      observed: mapping,
      applied,
      wantedByOthers: this.#wantedByOthers(context.object, desired.connection, desired.roleName),
    });
    return { mapping, plan };
  }

  async #mapping(api: RoleMappingApi, roleName: string, context: ExternalContext<OpenSearchRoleBinding, RoleMappingApi>): Promise<ObservedRoleMapping | undefined> {
    const mapping = await api.getRoleMapping(roleName, { signal: context.signal });
    const refusal = checkSecurityObject('role mapping', roleName, mapping);
    if (refusal !== undefined) throw tenancyError(refusal);
    return mapping;
  }

  /** Entries other bindings of the same mapping want (never removed by this one). */
  #wantedByOthers(object: OpenSearchRoleBinding, connection: string, roleName: string): { users: string[]; backendRoles: string[] } {
    const others = this.#deps.bindings.store.byIndex(BY_ROLE_MAPPING, `${connection}/${roleName}`).filter((other) => other.metadata.uid !== object.metadata.uid);
    return { users: others.flatMap((other) => other.spec.users ?? []), backendRoles: others.flatMap((other) => other.spec.backendRoles ?? []) };
  }
}

/** What `object` recorded as its own entries of `roleName`'s mapping; `undefined` when it has no record there. */
function appliedIn(object: OpenSearchRoleBinding, roleName: string): RoleBindingApplied | undefined {
  const recorded = recordedStatus(object, 'applied');
  if (typeof recorded !== 'object' || recorded === null) return undefined;
  const applied = recorded as Partial<RoleBindingApplied>;
  if (applied.roleName !== roleName) return undefined;
  return { roleName, users: applied.users ?? [], backendRoles: applied.backendRoles ?? [] };
}

function appliedOf(desired: BindingDesired, plan: RoleMappingPlan): RoleBindingApplied {
  return { roleName: desired.roleName, users: [...plan.applied.users], backendRoles: [...plan.applied.backendRoles] };
}

/** Builds the `OpenSearchRoleBinding` controller; a change of a referenced `OpenSearchRole` wakes its bindings. */
export function roleBindingController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchRoleBinding> {
  const roles = deps.informers.informerFor(openSearchRoles.type);
  const kindDeps: RoleBindingDeps = { connections: deps.connections, roles };
  const indexers = {
    [BY_ROLE_MAPPING]: (object: OpenSearchRoleBinding): readonly string[] => {
      try {
        const desired = bindingDesired(kindDeps, object);
        return [`${desired.connection}/${desired.roleName}`];
      } catch {
        return [];
      }
    },
    [BY_ROLE_REF]: (object: OpenSearchRoleBinding): readonly string[] => (object.spec.roleRef === undefined ? [] : [`${object.metadata.namespace ?? ''}/${object.spec.roleRef.name}`]),
  };
  const bindings = deps.informers.informerFor(openSearchRoleBindings.type, { indexers });
  return managedController(deps, {
    name: 'opensearchrolebinding',
    type: openSearchRoleBindings.type,
    finalizer: 'role-binding',
    adapter: new RoleBindingAdapter({ bindings }),
    externalName: (object) => bindingExternalName(kindDeps, object),
    connect: (object) => ({ externalName: bindingExternalName(kindDeps, object), desired: bindingDesired(kindDeps, object) }),
    defaultDeletionPolicy: 'Delete',
    // Bindings of one role read-modify-write one role mapping (OpenSearch has no compare-and-set for it): one worker,
    // so that two bindings never overwrite each other's entries, whatever maxConcurrentReconciles says.
    maxWorkers: 1,
    // Entries already in the mapping are adopted without the annotation: a binding never claims them, so its
    // deletion leaves them there.
    adoptExactMatch: true,
    indexers,
    watches: (builder, own) => {
      builder.watches(openSearchRoles.type, (role) => own.store.byIndex(BY_ROLE_REF, objectKey(role)).map(requestFor));
    },
  });
}
