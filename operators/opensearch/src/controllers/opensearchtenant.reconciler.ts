/**
 * `OpenSearchTenant` → one OpenSearch Dashboards tenant of the security plugin, owned whole (its description). Tenancy
 * first: the name inside the namespace's prefix; a reserved, static or hidden tenant (`global_tenant`) is never
 * written. `deletionPolicy` Retain by default: the tenant, and with it the way to its saved objects, stays when the
 * resource is deleted.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalCreation, ExternalObservation, ExternalUpdate } from '@domain-operators/reconcile';
import { managedController, parseConnectionExternalName } from '@domain-operators/reconcile';
import type { OpenSearchTenant } from '../api/v1alpha1/index.ts';
import { openSearchTenants } from '../api/v1alpha1/index.ts';
import type { ObservedTenant, TenantBody } from '../opensearch/action-group-plan.ts';
import { compareTenant, tenantBody } from '../opensearch/action-group-plan.ts';
import { checkSecurityObject, tenancyError } from '../opensearch/tenancy.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { connectedAs } from './managed-controller.ts';
import type { Scope } from './scope.ts';
import { externalNameOf, scopeOf } from './scope.ts';

/** The desired tenant: where, its name, its body. */
export interface TenantDesired {
  readonly connection: string;
  readonly name: string;
  readonly body: TenantBody;
}

/** The scope of a tenant resource (its OpenSearch name on its connection). Throws on a tenancy violation. */
export function tenantScope(connections: Connections, object: OpenSearchTenant): Scope {
  return scopeOf(connections, object, 'tenant', object.spec.name);
}

/** The desired tenant of a resource; throws `TenancyViolation` for a name outside the tenancy. */
export function tenantDesired(connections: Connections, object: OpenSearchTenant): TenantDesired {
  const scope = tenantScope(connections, object);
  return { connection: scope.connection, name: scope.name, body: tenantBody(object.spec) };
}

/** The part of the OpenSearch API the adapter of tenants calls: its small interface, bound to the resource's connection. */
export type TenantApi = Pick<OpenSearchApi, 'deleteTenant' | 'getTenant' | 'putTenant'>;

/** The {@link ExternalAdapter} of tenants. */
export class TenantAdapter implements ExternalAdapter<OpenSearchTenant, TenantDesired, ObservedTenant, TenantApi> {
  /** Reads the tenant; a reserved, static or hidden one is a `TenancyViolation` (never touched). */
  async observe(desired: TenantDesired, context: ExternalContext<OpenSearchTenant, TenantApi>): Promise<ExternalObservation<ObservedTenant>> {
    const observed = await (await context.client()).getTenant(desired.name, { signal: context.signal });
    const refusal = checkSecurityObject('tenant', desired.name, observed);
    if (refusal !== undefined) throw tenancyError(refusal);
    if (observed === undefined) return { exists: false };
    const comparison = compareTenant(desired.body, observed);
    return { exists: true, upToDate: comparison.upToDate, diff: comparison.diff, observed, status: { tenantName: desired.name } };
  }

  /** Puts the tenant; reports its name. */
  async create(desired: TenantDesired, context: ExternalContext<OpenSearchTenant, TenantApi>): Promise<ExternalCreation> {
    await (await context.client()).putTenant(desired.name, desired.body, { signal: context.signal });
    return { status: { tenantName: desired.name } };
  }

  /** Puts the tenant again (its description). */
  update(desired: TenantDesired, _observed: ObservedTenant, context: ExternalContext<OpenSearchTenant, TenantApi>): Promise<ExternalUpdate> {
    return this.create(desired, context);
  }

  /** Deletes the tenant (deletionPolicy Delete), unless OpenSearch reports it reserved, static or hidden now; succeeds when it is gone. */
  async delete(target: DeleteTarget<TenantDesired>, context: ExternalContext<OpenSearchTenant, TenantApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    const api = await context.client();
    const refusal = checkSecurityObject('tenant', name, await api.getTenant(name, { signal: context.signal }));
    if (refusal !== undefined) throw tenancyError(refusal);
    await api.deleteTenant(name, { signal: context.signal });
  }
}

/** Builds the `OpenSearchTenant` controller (deletionPolicy Retain by default). */
export function tenantController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchTenant> {
  return managedController(deps, {
    name: 'opensearchtenant',
    type: openSearchTenants.type,
    finalizer: 'tenant',
    adapter: new TenantAdapter(),
    externalName: (object) => externalNameOf(tenantScope(deps.connections, object)),
    connect: (object) => connectedAs(tenantDesired(deps.connections, object)),
    defaultDeletionPolicy: 'Retain',
    deletionPolicy: (object) => object.spec.deletionPolicy,
  });
}
