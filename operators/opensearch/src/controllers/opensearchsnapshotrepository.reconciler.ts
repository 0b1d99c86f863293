/**
 * `OpenSearchSnapshotRepository` (cluster-scoped, a platform admin's) → one snapshot repository registered on its
 * connection, owned whole (type and settings). It is registered without OpenSearch's own verification and then, when
 * `verify` is true (the default), verified by the verify API at every create, update and drift check: the nodes that
 * verified it are `status.verifiedNodes`; a failed verification is `RepositoryVerificationFailed` with OpenSearch's
 * message, retried. A registration OpenSearch refuses (unknown type, an `fs` location outside `path.repo`) is
 * `RepositoryRefused`, retried. Unregistered by hand, it is registered again at the next drift check, with an Event.
 * `deletionPolicy: Delete` unregisters it with the resource (its snapshots stay in the storage); `Retain`, the
 * default, leaves it registered. Snapshots are never deleted here.
 *
 * The kind has no namespace: its external name is `<connection>/<repositoryName>` with no tenancy prefix (the
 * connection's tenancy rules are about namespaces), and the repository's own `tenancy` only says which namespaces'
 * policies and restores may use it.
 */
import type { Controller, DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation, ExternalStatusFields } from '@domain-operators/reconcile';
import type { ExternalCreation, ExternalUpdate } from '@domain-operators/reconcile';
import { connectionExternalName, managedController, parseConnectionExternalName } from '@domain-operators/reconcile';
import type { OpenSearchSnapshotRepository } from '../api/v1alpha1/index.ts';
import { openSearchSnapshotRepositories } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import { registrationFailure, verificationFailure } from '../opensearch/repository-errors.ts';
import { compareRepository, repositoryBody } from '../opensearch/repository-plan.ts';
import type { ObservedRepository, RepositoryBody } from '../opensearch/snapshot-types.ts';
import { repositoryNameOf } from '../opensearch/snapshot-tenancy.ts';
import type { Connections } from './connection-registry.ts';
import type { ManagedControllerDeps } from './managed-controller.ts';
import { connectedAs } from './managed-controller.ts';

/** The desired repository: where, its name, its body, and whether to verify it. */
export interface RepositoryDesired {
  readonly connection: string;
  readonly name: string;
  readonly body: RepositoryBody;
  readonly verify: boolean;
}

/** The external name of a repository resource: `<connection>/<repositoryName>`. Pure. */
export function repositoryExternalName(object: OpenSearchSnapshotRepository): string {
  return connectionExternalName(object.spec.connectionRef.name, repositoryNameOf(object));
}

/** The desired repository of a resource (`verify` defaults to true). Pure. */
export function repositoryDesired(object: OpenSearchSnapshotRepository): RepositoryDesired {
  return { connection: object.spec.connectionRef.name, name: repositoryNameOf(object), body: repositoryBody(object.spec), verify: object.spec.verify ?? true };
}

/** The part of the OpenSearch API the adapter of snapshot repositories calls: its small interface, bound to the resource's connection. */
export type RepositoryApi = Pick<OpenSearchApi, 'deleteRepository' | 'getRepository' | 'putRepository' | 'verifyRepository'>;

/**
 * The {@link ExternalAdapter} of snapshot repositories. Reports `repositoryName` and `verifiedNodes` (removed when
 * `verify` is false). Verification runs only on a registration that matches the spec (in `observe`) or was just
 * made (in `create`, `update`): it writes and removes a test file in the storage, never a snapshot.
 */
export class RepositoryAdapter implements ExternalAdapter<OpenSearchSnapshotRepository, RepositoryDesired, ObservedRepository, RepositoryApi> {
  /** Reads the registration and compares it; when it matches and `verify` is on, verifies it (a failure is thrown). */
  async observe(desired: RepositoryDesired, context: ExternalContext<OpenSearchSnapshotRepository, RepositoryApi>): Promise<ExternalObservation<ObservedRepository>> {
    const api = await context.client();
    const observed = await api.getRepository(desired.name, { signal: context.signal });
    if (observed === undefined) return { exists: false };
    const comparison = compareRepository(desired.body, observed);
    const status = comparison.upToDate ? await verified(api, desired, context.signal) : { repositoryName: desired.name };
    return { exists: true, upToDate: comparison.upToDate, diff: comparison.diff, observed, status };
  }

  /** Registers the repository (OpenSearch's verification off), then verifies it when `verify` is on. */
  async create(desired: RepositoryDesired, context: ExternalContext<OpenSearchSnapshotRepository, RepositoryApi>): Promise<ExternalCreation> {
    const api = await context.client();
    try {
      await api.putRepository(desired.name, desired.body, { signal: context.signal });
    } catch (err) {
      throw registrationFailure(err);
    }
    return { status: await verified(api, desired, context.signal) };
  }

  /** Registers the whole repository again (it is owned whole), then verifies it. */
  update(desired: RepositoryDesired, _observed: ObservedRepository, context: ExternalContext<OpenSearchSnapshotRepository, RepositoryApi>): Promise<ExternalUpdate> {
    return this.create(desired, context);
  }

  /** Unregisters the repository (absent is fine); its snapshots stay in the storage. */
  async delete(target: DeleteTarget<RepositoryDesired>, context: ExternalContext<OpenSearchSnapshotRepository, RepositoryApi>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    await (await context.client()).deleteRepository(name, { signal: context.signal });
  }
}

/** The status fields after a verification (or without one when `verify` is off); a failure is thrown classified. */
async function verified(api: RepositoryApi, desired: RepositoryDesired, signal: AbortSignal): Promise<ExternalStatusFields> {
  if (!desired.verify) return { repositoryName: desired.name, verifiedNodes: null };
  try {
    return { repositoryName: desired.name, verifiedNodes: await api.verifyRepository(desired.name, { signal }) };
  } catch (err) {
    throw verificationFailure(err);
  }
}

/** Builds the `OpenSearchSnapshotRepository` controller (deletionPolicy Retain by default). */
export function snapshotRepositoryController(deps: ManagedControllerDeps & { readonly connections: Connections }): Controller<OpenSearchSnapshotRepository> {
  return managedController(deps, {
    name: 'opensearchsnapshotrepository',
    type: openSearchSnapshotRepositories.type,
    finalizer: 'snapshot-repository',
    adapter: new RepositoryAdapter(),
    externalName: repositoryExternalName,
    connect: (object) => connectedAs(repositoryDesired(object)),
    defaultDeletionPolicy: 'Retain',
    deletionPolicy: (object) => object.spec.deletionPolicy,
  });
}
