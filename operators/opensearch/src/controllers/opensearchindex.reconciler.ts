/**
 * `OpenSearchIndex` → one index. Tenancy first (name and aliases inside the namespace's prefix, else
 * `TenancyViolation` with nothing written); a shard-count change, a static setting or a conflicting mapping is
 * refused before any write (`ShardCountImmutable`, `SettingImmutable`, `MappingConflict`, terminal); otherwise
 * settings named in the spec, additive mapping changes and this resource's aliases are applied. Status adds
 * `indexName`, `uuid`, `health` and the aliases this resource applied.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation } from '@domain-operators/reconcile';
import type { ExternalCreation, ExternalStatusFields, ExternalUpdate } from '@domain-operators/reconcile';
import { connectionExternalName, managedController, parseConnectionExternalName, Reasons, TerminalError } from '@domain-operators/reconcile';
import type { OpenSearchIndex } from '../api/v1alpha1/index.ts';
import { openSearchIndices } from '../api/v1alpha1/index.ts';
import type { DesiredIndex, IndexPlan, ObservedIndex } from '../opensearch/index-plan.ts';
import { createIndexBody, desiredIndex, planIndex } from '../opensearch/index-plan.ts';
import type { CreatedIndex } from '../opensearch/client.ts';
import { creationMarkOf, withCreationMark, withoutCreationMark } from '../opensearch/creation-mark.ts';
import { OpenSearchError } from '../opensearch/errors.ts';
import { sortedUnique } from '../opensearch/json.ts';
import { checkIndexAliases, tenancyError } from '../opensearch/tenancy.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { externalNameOf, scopeOf } from './scope.ts';
import { recordedStatus, recordedStrings } from './recorded-status.ts';

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

/** The part of the OpenSearch API the adapter of indices calls: its small interface, bound to the resource's connection. */
export type IndexApi = Pick<OpenSearchApi, 'createIndex' | 'deleteIndex' | 'getIndex' | 'indexHealth' | 'putIndexSettings' | 'putMapping' | 'updateAliases'>;

/**
 * The {@link ExternalAdapter} of indices. Reports `indexName`, `uuid` and `health` as seen; records the aliases it
 * is about to add ahead of an update ({@link IndexAdapter.intent}), and reads them back from the object. A create
 * carries its claim in the index itself: the creation mark (the resource's UID and the aliases it adds, in the
 * mapping `_meta`, see creation-mark.ts), so a create is one status write and a crash after it is recognised.
 */
export class IndexAdapter implements ExternalAdapter<OpenSearchIndex, IndexDesired, IndexObserved, IndexApi> {
  readonly marksCreator = true;
  /** Reads the index and its health and plans; a refused plan is thrown as a `TerminalError` with its reason. */
  async observe(desired: IndexDesired, context: ExternalContext<OpenSearchIndex, IndexApi>): Promise<ExternalObservation<IndexObserved>> {
    const api = await context.client();
    const name = desired.index.name;
    const found = await api.getIndex(name, { signal: context.signal });
    if (found === undefined) return { exists: false };
    const mark = creationMarkOf(found.mappings);
    const index = { ...found, mappings: withoutCreationMark(found.mappings) };
    const health = await api.indexHealth(name, { signal: context.signal });
    // Our own create whose status write was lost: the aliases it added are in its mark, not yet in the status.
    const ours = mark !== undefined && mark.uid === context.object.metadata.uid;
    const recorded = recordedStatus(context.object, 'aliases') === undefined && ours ? [...mark.aliases] : recordedStrings(context.object, 'aliases');
    const plan = planIndex(desired.index, index, recorded);
    if (plan.kind === 'refused') throw new TerminalError(`${plan.message}; nothing was changed`, plan.reason);
    return {
      exists: true,
      upToDate: plan.upToDate,
      diff: plan.diff,
      observed: { index, health, plan },
      status: { ...seen(name, index.uuid, health), ...(ours && recordedStatus(context.object, 'aliases') === undefined ? { aliases: [...mark.aliases] } : {}) },
      ...(mark === undefined ? {} : { createdBy: mark.uid }),
    };
  }

  /**
   * The aliases this resource may own once the create or update is through, recorded before it: the spec's aliases
   * before a create; before an update, those recorded so far together with the plan's, so an alias is forgotten only
   * after its removal went through (the update's result then records the plan's alone). Recording an alias that
   * is then not added is harmless: only present aliases are ever removed. Pure.
   */
  intent(desired: IndexDesired, observed: IndexObserved | undefined, context: ExternalContext<OpenSearchIndex, IndexApi>): ExternalStatusFields {
    if (observed === undefined) return { indexName: desired.index.name, aliases: Object.keys(desired.index.aliases).sort() };
    return { aliases: sortedUnique([...recordedStrings(context.object, 'aliases'), ...observed.plan.appliedAliases]) };
  }

  /** Creates the index with its settings, mappings (and the creation mark) and aliases; reports its `uuid` and `health`. */
  async create(desired: IndexDesired, context: ExternalContext<OpenSearchIndex, IndexApi>): Promise<ExternalCreation> {
    const api = await context.client();
    const name = desired.index.name;
    const { uuid, shardsAcknowledged } = await this.#createOnce(desired, context);
    // Every primary started and there are no replicas: every shard is active, green, without asking.
    const replicas = desired.index.settings['index.number_of_replicas'];
    const health = shardsAcknowledged && (replicas === 0 || replicas === '0') ? 'green' : await api.indexHealth(name, { signal: context.signal });
    return { status: { ...seen(name, uuid, health), aliases: Object.keys(desired.index.aliases).sort() } };
  }

  /**
   * Creates the index, marked with this resource's UID. `create` runs only after `observe` found no index, so an
   * "already exists" answer is either our own earlier request that outlived its timeout (seen under load with 16
   * workers: it carries our mark, and is taken as created; the next observe compares it with the spec like any
   * other) or an index someone else created in between (no mark of ours: `AlreadyExists`, thrown).
   */
  async #createOnce(desired: IndexDesired, context: ExternalContext<OpenSearchIndex, IndexApi>): Promise<CreatedIndex> {
    const api = await context.client();
    const name = desired.index.name;
    try {
      const mark = { uid: context.object.metadata.uid ?? '', aliases: Object.keys(desired.index.aliases).sort() };
      const body = createIndexBody(desired.index);
      return await api.createIndex(name, { ...body, mappings: withCreationMark(body.mappings, mark) }, { signal: context.signal });
    } catch (err) {
      if (!(err instanceof OpenSearchError) || err.reason !== Reasons.alreadyExists) throw err;
      const existing = await api.getIndex(name, { signal: context.signal });
      if (existing === undefined || creationMarkOf(existing.mappings)?.uid !== context.object.metadata.uid) throw err;
      context.log.info({ index: name }, 'index already created by an earlier attempt of this resource');
      return { uuid: existing.uuid, shardsAcknowledged: false };
    }
  }

  /** Applies the plan `observe` made (settings, added mappings, alias actions); reports the aliases it now owns. */
  async update(desired: IndexDesired, observed: IndexObserved, context: ExternalContext<OpenSearchIndex, IndexApi>): Promise<ExternalUpdate> {
    const api = await context.client();
    const { plan } = observed;
    const name = desired.index.name;
    if (plan.settings !== undefined) await api.putIndexSettings(name, plan.settings, { signal: context.signal });
    if (plan.mappings !== undefined) await api.putMapping(name, plan.mappings, { signal: context.signal });
    await api.updateAliases(plan.aliasActions, { signal: context.signal });
    return { status: { aliases: [...plan.appliedAliases] } };
  }

  async delete(target: DeleteTarget<IndexDesired>, context: ExternalContext<OpenSearchIndex, IndexApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    await (await context.client()).deleteIndex(name, { signal: context.signal });
  }
}

/** The index's own status fields as seen: its name, uuid and (when known) health. */
function seen(indexName: string, uuid: string, health: string | undefined): ExternalStatusFields {
  return { indexName, uuid, ...(health === undefined ? {} : { health }) };
}

/** Builds the `OpenSearchIndex` controller (deletionPolicy Retain by default). */
export function indexController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchIndex> {
  return managedController(deps, {
    name: 'opensearchindex',
    type: openSearchIndices.type,
    finalizer: 'index',
    adapter: new IndexAdapter(),
    externalName: (object) => indexExternalName(deps.connections, object),
    connect: (object) => {
      const desired = indexDesired(deps.connections, object);
      return { externalName: connectionExternalName(desired.connection, desired.index.name), desired };
    },
    defaultDeletionPolicy: 'Retain',
    // Index creates are independent and each waits on the node: 16 in flight matches a direct client's throughput
    // (operators/opensearch/README.md, Benchmarks).
    minWorkers: 16,
    deletionPolicy: (object) => object.spec.deletionPolicy,
  });
}
