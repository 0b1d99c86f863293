/**
 * `OpenSearchRole` → one security role, owned whole. Tenancy first: the name, every index and tenant pattern
 * inside the namespace's prefix and only allow-listed cluster permissions; a reserved, static or hidden role is
 * never written. A role changed or deleted by hand is put back at the next drift check, with an Event.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation } from '@domain-operators/reconcile';
import type { ExternalCreation, ExternalUpdate } from '@domain-operators/reconcile';
import { managedController, parseConnectionExternalName } from '@domain-operators/reconcile';
import type { OpenSearchRole } from '../api/v1alpha1/index.ts';
import { openSearchRoles } from '../api/v1alpha1/index.ts';
import type { ObservedRole, RoleBody } from '../opensearch/security-plan.ts';
import { compareRole, roleBody } from '../opensearch/security-plan.ts';
import { checkRole, checkSecurityObject, tenancyError } from '../opensearch/tenancy.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { connectedAs } from './managed-controller.ts';
import type { Scope } from './scope.ts';
import { externalNameOf, scopeOf } from './scope.ts';

/** The desired role: where, its name, its body. */
export interface RoleDesired {
  readonly connection: string;
  readonly name: string;
  readonly body: RoleBody;
}

/** The scope of a role resource (its OpenSearch name on its connection). Throws on a tenancy violation. */
export function roleScope(connections: Connections, object: OpenSearchRole): Scope {
  return scopeOf(connections, object, 'role', object.spec.roleName);
}

/** The desired role of a resource; throws `TenancyViolation` for permissions outside the tenancy. */
export function roleDesired(connections: Connections, object: OpenSearchRole): RoleDesired {
  const scope = roleScope(connections, object);
  const violation = checkRole(scope.tenancy, object.spec);
  if (violation !== undefined) throw tenancyError(violation);
  return { connection: scope.connection, name: scope.name, body: roleBody(object.spec) };
}

/** The part of the OpenSearch API the adapter of roles calls: its small interface, bound to the resource's connection. */
export type RoleApi = Pick<OpenSearchApi, 'deleteRole' | 'getRole' | 'putRole'>;

/** The {@link ExternalAdapter} of roles. */
export class RoleAdapter implements ExternalAdapter<OpenSearchRole, RoleDesired, ObservedRole, RoleApi> {
  /** Reads the role; a reserved, static or hidden one is a `TenancyViolation` (never touched). */
  async observe(desired: RoleDesired, context: ExternalContext<OpenSearchRole, RoleApi>): Promise<ExternalObservation<ObservedRole>> {
    const observed = await (await context.client()).getRole(desired.name, { signal: context.signal });
    const refusal = checkSecurityObject('role', desired.name, observed);
    if (refusal !== undefined) throw tenancyError(refusal);
    if (observed === undefined) return { exists: false };
    const comparison = compareRole(desired.body, observed);
    return { exists: true, upToDate: comparison.upToDate, diff: comparison.diff, observed, status: { roleName: desired.name } };
  }

  /** Puts the whole role; reports its name. */
  async create(desired: RoleDesired, context: ExternalContext<OpenSearchRole, RoleApi>): Promise<ExternalCreation> {
    await (await context.client()).putRole(desired.name, desired.body, { signal: context.signal });
    return { status: { roleName: desired.name } };
  }

  /** Puts the whole role again (it is owned whole). */
  update(desired: RoleDesired, _observed: ObservedRole, context: ExternalContext<OpenSearchRole, RoleApi>): Promise<ExternalUpdate> {
    return this.create(desired, context);
  }

  async delete(target: DeleteTarget<RoleDesired>, context: ExternalContext<OpenSearchRole, RoleApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    const api = await context.client();
    const observed = await api.getRole(name, { signal: context.signal });
    const refusal = checkSecurityObject('role', name, observed);
    if (refusal !== undefined) throw tenancyError(refusal);
    await api.deleteRole(name, { signal: context.signal });
  }
}

/** Builds the `OpenSearchRole` controller (roles are deleted with their resource). */
export function roleController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchRole> {
  return managedController(deps, {
    name: 'opensearchrole',
    type: openSearchRoles.type,
    finalizer: 'role',
    adapter: new RoleAdapter(),
    externalName: (object) => externalNameOf(roleScope(deps.connections, object)),
    connect: (object) => connectedAs(roleDesired(deps.connections, object)),
    defaultDeletionPolicy: 'Delete',
  });
}
