/**
 * `OpenSearchComponentTemplate` → one component template, owned whole. Tenancy first: the name and every alias
 * must be inside the namespace's prefix (a component template shapes only indices an index template matches,
 * whose patterns are checked there).
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation } from '@domain-operators/reconcile';
import type { ExternalCreation, ExternalUpdate } from '@domain-operators/reconcile';
import { managedController, parseConnectionExternalName } from '@domain-operators/reconcile';
import type { OpenSearchComponentTemplate } from '../api/v1alpha1/index.ts';
import { openSearchComponentTemplates } from '../api/v1alpha1/index.ts';
import type { JsonObject } from '../opensearch/json.ts';
import type { ComponentTemplateWire } from '../opensearch/template-plan.ts';
import { componentTemplateWire, diffComponentTemplate } from '../opensearch/template-plan.ts';
import { checkComponentTemplate, tenancyError } from '../opensearch/tenancy.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { connectedAs } from './managed-controller.ts';
import type { TemplateDesired } from './opensearchindextemplate.reconciler.ts';
import { externalNameOf, scopeOf } from './scope.ts';

/** The desired component template of a resource; throws `TenancyViolation` for aliases outside the prefix. */
export function componentTemplateDesired(connections: Connections, object: OpenSearchComponentTemplate): TemplateDesired<ComponentTemplateWire> {
  const scope = scopeOf(connections, object, 'component template', object.spec.templateName);
  const violation = checkComponentTemplate(scope.tenancy, object.spec);
  if (violation !== undefined) throw tenancyError(violation);
  return { connection: scope.connection, name: scope.name, body: componentTemplateWire(object.spec) };
}

/** The part of the OpenSearch API the adapter of component templates calls: its small interface, bound to the resource's connection. */
export type ComponentTemplateApi = Pick<OpenSearchApi, 'deleteComponentTemplate' | 'getComponentTemplate' | 'putComponentTemplate'>;

/** The {@link ExternalAdapter} of component templates. */
export class ComponentTemplateAdapter implements ExternalAdapter<OpenSearchComponentTemplate, TemplateDesired<ComponentTemplateWire>, JsonObject, ComponentTemplateApi> {
  async observe(desired: TemplateDesired<ComponentTemplateWire>, context: ExternalContext<OpenSearchComponentTemplate, ComponentTemplateApi>): Promise<ExternalObservation<JsonObject>> {
    const observed = await (await context.client()).getComponentTemplate(desired.name, { signal: context.signal });
    if (observed === undefined) return { exists: false };
    const diff = diffComponentTemplate(desired.body, observed);
    return { exists: true, upToDate: diff.length === 0, diff, observed, status: { templateName: desired.name } };
  }

  /** Puts the whole template; reports its name. */
  async create(desired: TemplateDesired<ComponentTemplateWire>, context: ExternalContext<OpenSearchComponentTemplate, ComponentTemplateApi>): Promise<ExternalCreation> {
    await (await context.client()).putComponentTemplate(desired.name, desired.body, { signal: context.signal });
    return { status: { templateName: desired.name } };
  }

  /** Puts the whole template again (it is owned whole). */
  update(desired: TemplateDesired<ComponentTemplateWire>, _observed: JsonObject, context: ExternalContext<OpenSearchComponentTemplate, ComponentTemplateApi>): Promise<ExternalUpdate> {
    return this.create(desired, context);
  }

  async delete(target: DeleteTarget<TemplateDesired<ComponentTemplateWire>>, context: ExternalContext<OpenSearchComponentTemplate, ComponentTemplateApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    await (await context.client()).deleteComponentTemplate(name, { signal: context.signal });
  }
}

/** Builds the `OpenSearchComponentTemplate` controller (deletionPolicy Delete by default). */
export function componentTemplateController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchComponentTemplate> {
  return managedController(deps, {
    name: 'opensearchcomponenttemplate',
    type: openSearchComponentTemplates.type,
    finalizer: 'component-template',
    adapter: new ComponentTemplateAdapter(),
    externalName: (object) => externalNameOf(scopeOf(deps.connections, object, 'component template', object.spec.templateName)),
    connect: (object) => connectedAs(componentTemplateDesired(deps.connections, object)),
    defaultDeletionPolicy: 'Delete',
    deletionPolicy: (object) => object.spec.deletionPolicy,
  });
}
