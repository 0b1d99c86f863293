/**
 * `OpenSearchIndex` → one index. Tenancy first (name and aliases inside the namespace's prefix, else
 * `TenancyViolation` with nothing written); a shard-count change, a static setting or a conflicting mapping is
 * refused before any write (`ShardCountImmutable`, `SettingImmutable`, `MappingConflict`, terminal); otherwise
 * settings named in the spec, additive mapping changes and this resource's aliases are applied. Status adds
 * `indexName`, `uuid`, `health` and the aliases this resource applied.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation } from '@domain-operators/reconcile';
import { TerminalError } from '@domain-operators/reconcile';
import type { OpenSearchIndex } from '../api/v1alpha1/index.ts';
import { openSearchIndices } from '../api/v1alpha1/index.ts';
import type { DesiredIndex, IndexPlan, ObservedIndex } from '../opensearch/index-plan.ts';
import { createIndexBody, desiredIndex, planIndex } from '../opensearch/index-plan.ts';
import { OpenSearchError } from '../opensearch/errors.ts';
import { checkIndexAliases, tenancyError } from '../opensearch/tenancy.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { managedController } from './managed-controller.ts';
import { externalNameOf, parseExternalName, scopeOf } from './scope.ts';
import { StatusFields } from './status-fields.ts';

/** The desired index of a resource, on its connection. */
export interface IndexDesired {
  readonly connection: string;
  readonly index: DesiredIndex;
}

/** What observing found: the index, its health and the plan that brings it to the spec. */
export interface IndexObserved {
  readonly index: ObservedIndex;
  readonly health: string | undefined;
  readonly plan: Extract<IndexPlan, { kind: 'apply' }>;
}

/** The external name of an index resource: `<connection>/<index name>`. Throws on a tenancy violation. */
export function indexExternalName(connections: Connections, object: OpenSearchIndex): string {
  return externalNameOf(scopeOf(connections, object, 'index', object.spec.indexName));
}

/** The desired index of a resource; throws `TenancyViolation` for aliases outside the prefix. Reads caches only. */
export function indexDesired(connections: Connections, object: OpenSearchIndex): IndexDesired {
  const scope = scopeOf(connections, object, 'index', object.spec.indexName);
  const violation = checkIndexAliases(scope.tenancy, object.spec.aliases);
  if (violation !== undefined) throw tenancyError(violation);
  return { connection: scope.connection, index: desiredIndex(scope.name, object.spec) };
}

/** The {@link ExternalAdapter} of indices. */
export class IndexAdapter implements ExternalAdapter<OpenSearchIndex, IndexDesired, IndexObserved> {
  readonly #deps: { readonly connections: Connections; readonly status: StatusFields<OpenSearchIndex> };

  constructor(deps: { readonly connections: Connections; readonly status: StatusFields<OpenSearchIndex> }) {
    this.#deps = deps;
  }

  /** Reads the index and its health and plans; a refused plan is thrown as a `TerminalError` with its reason. */
  async observe(desired: IndexDesired, context: ExternalContext<OpenSearchIndex>): Promise<ExternalObservation<IndexObserved>> {
    const api = this.#deps.connections.api(desired.connection);
    const name = desired.index.name;
    const index = await api.getIndex(name, { signal: context.signal });
    if (index === undefined) return { exists: false };
    const health = await api.indexHealth(name, { signal: context.signal });
    const plan = planIndex(desired.index, index, this.#appliedAliases(context.object));
    if (plan.kind === 'refused') throw new TerminalError(`${plan.message}; nothing was changed`, plan.reason);
    await this.#deps.status.write(context.object, { indexName: name, uuid: index.uuid, ...(health === undefined ? {} : { health }) }, context.signal);
    return { exists: true, upToDate: plan.upToDate, diff: plan.diff, observed: { index, health, plan } };
  }

  async create(desired: IndexDesired, context: ExternalContext<OpenSearchIndex>): Promise<void> {
    const api = this.#deps.connections.api(desired.connection);
    const name = desired.index.name;
    // Aliases are recorded first: recording one that the create then fails to add is harmless (only present ones are removed).
    await this.#deps.status.write(context.object, { indexName: name, aliases: Object.keys(desired.index.aliases).sort() }, context.signal);
    const uuid = await this.#createOnce(desired, context);
    const health = await api.indexHealth(name, { signal: context.signal });
    await this.#deps.status.write(context.object, { uuid, ...(health === undefined ? {} : { health }) }, context.signal);
  }

  /**
   * Creates the index. `create` runs only after `observe` found no index and this resource recorded the create as
   * pending (ExternalResourceReconciler's CreatePending), so an "already exists" answer is our own earlier request that
   * outlived its timeout (seen under load with 16 workers): the index is taken as created, and the next observe
   * compares it with the spec like any other.
   */
  async #createOnce(desired: IndexDesired, context: ExternalContext<OpenSearchIndex>): Promise<string> {
    const api = this.#deps.connections.api(desired.connection);
    const name = desired.index.name;
    try {
      return await api.createIndex(name, createIndexBody(desired.index), { signal: context.signal });
    } catch (err) {
      if (!(err instanceof OpenSearchError) || err.reason !== 'AlreadyExists') throw err;
      const existing = await api.getIndex(name, { signal: context.signal });
      if (existing === undefined) throw err;
      context.log.info({ index: name }, 'index already created by an earlier attempt of this resource');
      return existing.uuid;
    }
  }

  async update(desired: IndexDesired, observed: IndexObserved, context: ExternalContext<OpenSearchIndex>): Promise<void> {
    const api = this.#deps.connections.api(desired.connection);
    const { plan } = observed;
    const name = desired.index.name;
    await this.#deps.status.write(context.object, { aliases: plan.appliedAliases }, context.signal);
    if (plan.settings !== undefined) await api.putIndexSettings(name, plan.settings, { signal: context.signal });
    if (plan.mappings !== undefined) await api.putMapping(name, plan.mappings, { signal: context.signal });
    await api.updateAliases(plan.aliasActions, { signal: context.signal });
  }

  async delete(target: DeleteTarget<IndexDesired>, context: ExternalContext<OpenSearchIndex>): Promise<void> {
    const { connection, name } = parseExternalName(target.externalName);
    await this.#deps.connections.api(connection).deleteIndex(name, { signal: context.signal });
  }

  #appliedAliases(object: OpenSearchIndex): readonly string[] {
    const recorded = this.#deps.status.read(object, 'aliases');
    return Array.isArray(recorded) ? recorded.filter((alias): alias is string => typeof alias === 'string') : [];
  }
}

/** Builds the `OpenSearchIndex` controller (deletionPolicy Retain by default). */
export function indexController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchIndex> {
  const status = new StatusFields({ client: deps.client, type: openSearchIndices.type });
  return managedController(deps, {
    name: 'opensearchindex',
    type: openSearchIndices.type,
    finalizer: 'index',
    adapter: new IndexAdapter({ connections: deps.connections, status }),
    externalName: (object) => indexExternalName(deps.connections, object),
    desired: (object) => indexDesired(deps.connections, object),
    connectionOf: (object) => object.spec.connectionRef.name,
    defaultDeletionPolicy: 'Retain',
    // Index creates are independent and each waits on the node: 16 in flight matches a direct client's throughput
    // (operators/opensearch/README.md, Benchmarks).
    minWorkers: 16,
    deletionPolicy: (object) => object.spec.deletionPolicy,
    statusFields: status,
  });
}
