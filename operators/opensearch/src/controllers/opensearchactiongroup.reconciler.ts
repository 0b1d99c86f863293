/**
 * `OpenSearchActionGroup` → one action group of the security plugin, owned whole. Tenancy first: the name inside the
 * namespace's prefix, and a `cluster` group only of allow-listed cluster actions; a reserved, static or hidden group
 * (the plugin's own `read`, `write`, `kibana_all_write`, …) is never written. A group changed or deleted by hand is
 * put back at the next drift check, with an Event.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalCreation, ExternalObservation, ExternalUpdate } from '@domain-operators/reconcile';
import { managedController, parseConnectionExternalName } from '@domain-operators/reconcile';
import type { OpenSearchActionGroup } from '../api/v1alpha1/index.ts';
import { openSearchActionGroups } from '../api/v1alpha1/index.ts';
import type { ActionGroupBody, ObservedActionGroup } from '../opensearch/action-group-plan.ts';
import { actionGroupBody, compareActionGroup } from '../opensearch/action-group-plan.ts';
import { checkActionGroup, checkSecurityObject, tenancyError } from '../opensearch/tenancy.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { connectedAs } from './managed-controller.ts';
import type { Scope } from './scope.ts';
import { externalNameOf, scopeOf } from './scope.ts';

/** The desired action group: where, its name, its body. */
export interface ActionGroupDesired {
  readonly connection: string;
  readonly name: string;
  readonly body: ActionGroupBody;
}

/** The scope of an action group resource (its OpenSearch name on its connection). Throws on a tenancy violation. */
export function actionGroupScope(connections: Connections, object: OpenSearchActionGroup): Scope {
  return scopeOf(connections, object, 'action group', object.spec.name);
}

/** The desired action group of a resource; throws `TenancyViolation` for actions outside the tenancy. */
export function actionGroupDesired(connections: Connections, object: OpenSearchActionGroup): ActionGroupDesired {
  const scope = actionGroupScope(connections, object);
  const violation = checkActionGroup(scope.tenancy, object.spec);
  if (violation !== undefined) throw tenancyError(violation);
  return { connection: scope.connection, name: scope.name, body: actionGroupBody(object.spec) };
}

/** The part of the OpenSearch API the adapter of action groups calls: its small interface, bound to the resource's connection. */
export type ActionGroupApi = Pick<OpenSearchApi, 'deleteActionGroup' | 'getActionGroup' | 'putActionGroup'>;

/** The {@link ExternalAdapter} of action groups. */
export class ActionGroupAdapter implements ExternalAdapter<OpenSearchActionGroup, ActionGroupDesired, ObservedActionGroup, ActionGroupApi> {
  /** Reads the group; a reserved, static or hidden one is a `TenancyViolation` (never touched). */
  async observe(desired: ActionGroupDesired, context: ExternalContext<OpenSearchActionGroup, ActionGroupApi>): Promise<ExternalObservation<ObservedActionGroup>> {
    const observed = await (await context.client()).getActionGroup(desired.name, { signal: context.signal });
    const refusal = checkSecurityObject('action group', desired.name, observed);
    if (refusal !== undefined) throw tenancyError(refusal);
    if (observed === undefined) return { exists: false };
    const comparison = compareActionGroup(desired.body, observed);
    return { exists: true, upToDate: comparison.upToDate, diff: comparison.diff, observed, status: { actionGroupName: desired.name } };
  }

  /** Puts the whole group; reports its name. */
  async create(desired: ActionGroupDesired, context: ExternalContext<OpenSearchActionGroup, ActionGroupApi>): Promise<ExternalCreation> {
    await (await context.client()).putActionGroup(desired.name, desired.body, { signal: context.signal });
    return { status: { actionGroupName: desired.name } };
  }

  /** Puts the whole group again (it is owned whole). */
  update(desired: ActionGroupDesired, _observed: ObservedActionGroup, context: ExternalContext<OpenSearchActionGroup, ActionGroupApi>): Promise<ExternalUpdate> {
    return this.create(desired, context);
  }

  /** Deletes the group, unless OpenSearch reports it reserved, static or hidden now; succeeds when it is gone. */
  async delete(target: DeleteTarget<ActionGroupDesired>, context: ExternalContext<OpenSearchActionGroup, ActionGroupApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    const api = await context.client();
    const refusal = checkSecurityObject('action group', name, await api.getActionGroup(name, { signal: context.signal }));
    if (refusal !== undefined) throw tenancyError(refusal);
    await api.deleteActionGroup(name, { signal: context.signal });
  }
}

/** Builds the `OpenSearchActionGroup` controller (groups are deleted with their resource, as roles are). */
export function actionGroupController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchActionGroup> {
  return managedController(deps, {
    name: 'opensearchactiongroup',
    type: openSearchActionGroups.type,
    finalizer: 'action-group',
    adapter: new ActionGroupAdapter(),
    externalName: (object) => externalNameOf(actionGroupScope(deps.connections, object)),
    connect: (object) => connectedAs(actionGroupDesired(deps.connections, object)),
    defaultDeletionPolicy: 'Delete',
  });
}
