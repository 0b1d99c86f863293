/**
 * `OpenSearchIndexTemplate` → one composable index template, owned whole (an update puts the full body). Tenancy
 * first: the name, every index pattern and every alias must be inside the namespace's prefix.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation } from '@domain-operators/reconcile';
import type { ExternalCreation, ExternalUpdate } from '@domain-operators/reconcile';
import { managedController, parseConnectionExternalName } from '@domain-operators/reconcile';
import type { OpenSearchIndexTemplate } from '../api/v1alpha1/index.ts';
import { openSearchIndexTemplates } from '../api/v1alpha1/index.ts';
import type { JsonObject } from '../opensearch/json.ts';
import type { IndexTemplateWire } from '../opensearch/template-plan.ts';
import { diffIndexTemplate, indexTemplateWire } from '../opensearch/template-plan.ts';
import { checkIndexTemplate, tenancyError } from '../opensearch/tenancy.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { connectedAs } from './managed-controller.ts';
import { externalNameOf, scopeOf } from './scope.ts';

/** The desired template: where, its name, its request body. */
export interface TemplateDesired<W> {
  readonly connection: string;
  readonly name: string;
  readonly body: W;
}

/** The desired index template of a resource; throws `TenancyViolation` for patterns or aliases outside the prefix. */
export function indexTemplateDesired(connections: Connections, object: OpenSearchIndexTemplate): TemplateDesired<IndexTemplateWire> {
  const scope = scopeOf(connections, object, 'index template', object.spec.templateName);
  const violation = checkIndexTemplate(scope.tenancy, object.spec);
  if (violation !== undefined) throw tenancyError(violation);
  return { connection: scope.connection, name: scope.name, body: indexTemplateWire(object.spec) };
}

/** The part of the OpenSearch API the adapter of index templates calls: its small interface, bound to the resource's connection. */
export type IndexTemplateApi = Pick<OpenSearchApi, 'deleteIndexTemplate' | 'getIndexTemplate' | 'putIndexTemplate'>;

/** The {@link ExternalAdapter} of index templates. */
export class IndexTemplateAdapter implements ExternalAdapter<OpenSearchIndexTemplate, TemplateDesired<IndexTemplateWire>, JsonObject, IndexTemplateApi> {
  async observe(desired: TemplateDesired<IndexTemplateWire>, context: ExternalContext<OpenSearchIndexTemplate, IndexTemplateApi>): Promise<ExternalObservation<JsonObject>> {
    const observed = await (await context.client()).getIndexTemplate(desired.name, { signal: context.signal });
    if (observed === undefined) return { exists: false };
    const diff = diffIndexTemplate(desired.body, observed);
    return { exists: true, upToDate: diff.length === 0, diff, observed, status: { templateName: desired.name } };
  }

  /** Puts the whole template; reports its name. */
  async create(desired: TemplateDesired<IndexTemplateWire>, context: ExternalContext<OpenSearchIndexTemplate, IndexTemplateApi>): Promise<ExternalCreation> {
    await (await context.client()).putIndexTemplate(desired.name, desired.body, { signal: context.signal });
    return { status: { templateName: desired.name } };
  }

  /** Puts the whole template again (it is owned whole). */
  update(desired: TemplateDesired<IndexTemplateWire>, _observed: JsonObject, context: ExternalContext<OpenSearchIndexTemplate, IndexTemplateApi>): Promise<ExternalUpdate> {
    return this.create(desired, context);
  }

  async delete(target: DeleteTarget<TemplateDesired<IndexTemplateWire>>, context: ExternalContext<OpenSearchIndexTemplate, IndexTemplateApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    await (await context.client()).deleteIndexTemplate(name, { signal: context.signal });
  }
}

/** Builds the `OpenSearchIndexTemplate` controller (deletionPolicy Delete by default). */
export function indexTemplateController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchIndexTemplate> {
  return managedController(deps, {
    name: 'opensearchindextemplate',
    type: openSearchIndexTemplates.type,
    finalizer: 'index-template',
    adapter: new IndexTemplateAdapter(),
    externalName: (object) => externalNameOf(scopeOf(deps.connections, object, 'index template', object.spec.templateName)),
    connect: (object) => connectedAs(indexTemplateDesired(deps.connections, object)),
    defaultDeletionPolicy: 'Delete',
    deletionPolicy: (object) => object.spec.deletionPolicy,
  });
}
