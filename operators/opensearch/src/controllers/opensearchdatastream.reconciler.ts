/**
 * `OpenSearchDataStream` → one data stream, created up front (OpenSearch would also create it at the first write).
 * Tenancy first: the name inside the namespace's prefix. OpenSearch creates a data stream only when an index template
 * with `data_stream` matches its name; until one does the resource is `DependencyNotReady`, retried. A data stream
 * has nothing to update: it is up to date whenever it exists, and each reconcile reports its generation, backing
 * indices and health. `deletionPolicy` Retain by default, since deleting a data stream deletes its backing indices.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalCreation, ExternalObservation, ExternalStatusFields, ExternalUpdate } from '@domain-operators/reconcile';
import { managedController, parseConnectionExternalName } from '@domain-operators/reconcile';
import type { OpenSearchDataStream } from '../api/v1alpha1/index.ts';
import { openSearchDataStreams } from '../api/v1alpha1/index.ts';
import type { ObservedDataStream } from '../opensearch/data-stream.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { connectedAs } from './managed-controller.ts';
import type { Scope } from './scope.ts';
import { externalNameOf, scopeOf } from './scope.ts';

/** The desired data stream: where and its name (a data stream has no body). */
export interface DataStreamDesired {
  readonly connection: string;
  readonly name: string;
}

/** The scope of a data stream resource (its OpenSearch name on its connection). Throws on a tenancy violation. */
export function dataStreamScope(connections: Connections, object: OpenSearchDataStream): Scope {
  return scopeOf(connections, object, 'data stream', object.spec.name);
}

/** The desired data stream of a resource; throws `TenancyViolation` for a name outside the tenancy. */
export function dataStreamDesired(connections: Connections, object: OpenSearchDataStream): DataStreamDesired {
  const scope = dataStreamScope(connections, object);
  return { connection: scope.connection, name: scope.name };
}

/** The status fields of an observed data stream. Pure. */
export function dataStreamStatus(observed: ObservedDataStream): ExternalStatusFields {
  return { dataStreamName: observed.name, generation: observed.generation, backingIndices: [...observed.backingIndices], health: observed.health, template: observed.template };
}

/** The part of the OpenSearch API the adapter of data streams calls: its small interface, bound to the resource's connection. */
export type DataStreamApi = Pick<OpenSearchApi, 'createDataStream' | 'deleteDataStream' | 'getDataStream'>;

/** The {@link ExternalAdapter} of data streams. */
export class DataStreamAdapter implements ExternalAdapter<OpenSearchDataStream, DataStreamDesired, ObservedDataStream, DataStreamApi> {
  /** Reads the data stream; when it exists it is up to date, with its generation, backing indices and health. */
  async observe(desired: DataStreamDesired, context: ExternalContext<OpenSearchDataStream, DataStreamApi>): Promise<ExternalObservation<ObservedDataStream>> {
    const observed = await (await context.client()).getDataStream(desired.name, { signal: context.signal });
    if (observed === undefined) return { exists: false };
    return { exists: true, upToDate: true, diff: [], observed, status: dataStreamStatus(observed) };
  }

  /** Creates the data stream and reads it back for its status. */
  async create(desired: DataStreamDesired, context: ExternalContext<OpenSearchDataStream, DataStreamApi>): Promise<ExternalCreation> {
    const api = await context.client();
    await api.createDataStream(desired.name, { signal: context.signal });
    const created = await api.getDataStream(desired.name, { signal: context.signal });
    return { status: created === undefined ? { dataStreamName: desired.name } : dataStreamStatus(created) };
  }

  /** Never called with a difference (a data stream is up to date whenever it exists); reports what it is. */
  update(_desired: DataStreamDesired, observed: ObservedDataStream): Promise<ExternalUpdate> {
    return Promise.resolve({ status: dataStreamStatus(observed) });
  }

  /** Deletes the data stream with its backing indices (deletionPolicy Delete); succeeds when it is gone. */
  async delete(target: DeleteTarget<DataStreamDesired>, context: ExternalContext<OpenSearchDataStream, DataStreamApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    await (await context.client()).deleteDataStream(name, { signal: context.signal });
  }
}

/** Builds the `OpenSearchDataStream` controller (deletionPolicy Retain by default). */
export function dataStreamController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchDataStream> {
  return managedController(deps, {
    name: 'opensearchdatastream',
    type: openSearchDataStreams.type,
    finalizer: 'data-stream',
    adapter: new DataStreamAdapter(),
    externalName: (object) => externalNameOf(dataStreamScope(deps.connections, object)),
    connect: (object) => connectedAs(dataStreamDesired(deps.connections, object)),
    defaultDeletionPolicy: 'Retain',
    deletionPolicy: (object) => object.spec.deletionPolicy,
  });
}
