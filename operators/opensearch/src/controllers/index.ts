/**
 * Every controller of the OpenSearch operator, built over one informer cache, one Kubernetes client, one Event
 * recorder and one {@link ConnectionRegistry} (one OpenSearch client per connection).
 */
import type { Clock, Client, ControllerOptions, InformerSource, Logger, Recorder, Runnable } from '@domain-operators/reconcile';
import { coreTypes, metadataOnly, referencedSecrets } from '@domain-operators/reconcile';
import { openSearchConnections } from '../api/v1alpha1/index.ts';
import type { RequestCounter } from '../opensearch/client.ts';
import { ConnectionRegistry } from './connection-registry.ts';
import { managedControllerDeps } from './managed-controller.ts';
import type { ConnectionRegistryOptions } from './connection-registry.ts';
import { actionGroupController } from './opensearchactiongroup.reconciler.ts';
import { componentTemplateController } from './opensearchcomponenttemplate.reconciler.ts';
import { connectionController } from './opensearchconnection.reconciler.ts';
import { dataStreamController } from './opensearchdatastream.reconciler.ts';
import type { ConnectionReconcilerOptions } from './opensearchconnection.reconciler.ts';
import { indexController } from './opensearchindex.reconciler.ts';
import { indexTemplateController } from './opensearchindextemplate.reconciler.ts';
import { roleBindingController } from './opensearchrolebinding.reconciler.ts';
import { roleController } from './opensearchrole.reconciler.ts';
import { snapshotRepositoryController } from './opensearchsnapshotrepository.reconciler.ts';
import { snapshotPolicyController } from './opensearchsnapshotpolicy.reconciler.ts';
import { snapshotRestoreController } from './opensearchsnapshotrestore.reconciler.ts';
import { tenantController } from './opensearchtenant.reconciler.ts';
import { userController } from './opensearchuser.reconciler.ts';

/** What {@link openSearchControllers} needs from the process. */
export interface OpenSearchControllersDeps {
  readonly informers: InformerSource;
  readonly client: Client;
  readonly events: Recorder;
  readonly controllerOptions: ControllerOptions;
  readonly clock: Clock;
  readonly log: Logger;
  /** Counts every request sent to OpenSearch (the `opensearch_operator_requests_total` metric); default none. */
  readonly requests?: RequestCounter;
}

/** Options of {@link openSearchControllers}. */
export interface OpenSearchControllersOptions {
  readonly registry?: ConnectionRegistryOptions;
  readonly connection?: ConnectionReconcilerOptions;
}

/**
 * Builds every controller (registering their informers, starting nothing) and the registry they share. Close the
 * registry after the manager has stopped.
 */
export function openSearchControllers(
  deps: OpenSearchControllersDeps,
  options: OpenSearchControllersOptions = {},
): { readonly controllers: readonly Runnable[]; readonly registry: ConnectionRegistry } {
  // Referenced Secrets (connection logins and CAs, passwordSecretRef) are read by name; only their metadata is watched.
  const referenced = referencedSecrets(deps.informers.informerFor(metadataOnly(coreTypes.secret)), deps.client);
  const registry = new ConnectionRegistry(
    {
      connections: deps.informers.informerFor(openSearchConnections.type),
      secrets: referenced,
      namespaces: deps.informers.informerFor(coreTypes.namespace),
      log: deps.log,
      ...(deps.requests === undefined ? {} : { requests: deps.requests }),
    },
    options.registry,
  );
  const shared = { ...managedControllerDeps(deps, registry), referenced };
  const controllers: readonly Runnable[] = [
    connectionController({ ...shared, connections: registry }, options.connection),
    indexController(shared),
    indexTemplateController(shared),
    componentTemplateController(shared),
    roleController(shared),
    roleBindingController(shared),
    userController(shared),
    actionGroupController(shared),
    tenantController(shared),
    dataStreamController(shared),
    snapshotRepositoryController(shared),
    snapshotPolicyController(shared),
    snapshotRestoreController(shared),
  ];
  return { controllers, registry };
}
