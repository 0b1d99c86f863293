/**
 * The wiring every kind that stands for one OpenSearch object shares: an `ExternalResourceReconciler` with the kind's
 * adapter, its finalizer, status writer and claim index, woken by changes of its own objects, of the connection it
 * uses (the runtime's `watchConnectionDependents`: a connection turning Ready again retries everything on it at once),
 * of its namespace's labels (tenancy) and of whatever else the kind watches.
 */
import type {
  Clock,
  Client,
  Controller,
  ControllerBuilder as Builder,
  ControllerOptions,
  DeletionPolicy,
  ExternalAdapter,
  IndexFunc,
  InformerSource,
  RateLimiter,
  Recorder,
  ResourceType,
} from '@domain-operators/reconcile';
import {
  annotationsChanged,
  BucketRateLimiter,
  byConnectionRef,
  CONNECTION_INDEX,
  connectionClaimIndex,
  ControllerBuilder,
  coreTypes,
  ExternalResourceReconciler,
  generationChanged,
  ItemExponentialRateLimiter,
  managedResourceDeps,
  MaxOfRateLimiter,
  or,
  watchConnectionDependents,
} from '@domain-operators/reconcile';
import type { ConnectionDependent, ManagedSystem, StoreSource } from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/common.ts';
import { openSearchConnections } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';

/** OpenSearch as the runtime's managed-resource parts see it: finalizers `opensearch.domain-operators.io/<kind>`, an `OpenSearchConnection`. */
const OPENSEARCH_SYSTEM: ManagedSystem = { group: GROUP, connectionKind: 'OpenSearchConnection', system: 'OpenSearch' };

/** What every managed controller of the process shares. */
export interface ManagedControllerDeps {
  readonly informers: InformerSource;
  readonly client: Client;
  readonly events: Recorder;
  /** The manager's controller options; a per-controller rate limiter is added. */
  readonly controllerOptions: ControllerOptions;
  readonly clock: Clock;
  /** The connections: the Ready gate before a kind's `desired`, and the client bound to each adapter call. */
  readonly connections: Pick<Connections, 'assertUsable' | 'apiOf'>;
}

/** One kind: its type, adapter, names and extra wiring. */
export interface ManagedKind<T extends ConnectionDependent, D, O> {
  /** Controller name (metrics, logs), e.g. `opensearchindex`. */
  readonly name: string;
  readonly type: ResourceType<T>;
  /** The finalizer's name after the group: `opensearch.domain-operators.io/<finalizer>`. */
  readonly finalizer: string;
  readonly adapter: ExternalAdapter<T, D, O, OpenSearchApi>;
  /** `<connection>/<name in OpenSearch>`; throws as `ExternalResourceOptions.externalName` does. */
  externalName(object: T): string;
  desired(object: T): D | Promise<D>;
  /** The connection the object uses (`spec.connectionRef.name`): the one whose Ready gates `desired`. */
  connectionOf(object: T): string;
  readonly defaultDeletionPolicy: DeletionPolicy;
  deletionPolicy?(object: T): DeletionPolicy | undefined;
  readonly adoptExactMatch?: boolean;
  /**
   * Workers for this kind at least (the shared `maxConcurrentReconciles` applies when higher). For kinds whose
   * external writes are independent per object, such as indices; never for kinds that read-modify-write a shared
   * object (role mappings), where one worker keeps the writes serial.
   */
  readonly minWorkers?: number;
  /**
   * Workers for this kind at most, whatever the shared `maxConcurrentReconciles` says: 1 for kinds that
   * read-modify-write a shared object (role bindings share a role mapping), so two of them never overwrite each other.
   */
  readonly maxWorkers?: number;
  /** More indexers on the kind's informer (e.g. by Secret). */
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>>;
  /** More watches, given the builder and the kind's own (indexed) cache, whose `store` may be read only in map functions. */
  watches?(builder: Builder<T>, own: StoreSource<T>): void;
}


/**
 * The rate limiter of every controller of this operator: per key 100 ms doubling to at most 60 s (controller-runtime's
 * 1000 s cap would leave a resource waiting a quarter of an hour after OpenSearch comes back), and an overall bucket
 * of 10 qps, burst 100. A new instance per call (its state is per controller).
 */
export function operatorRateLimiter(clock: Clock): RateLimiter<string> {
  return new MaxOfRateLimiter<string>(new ItemExponentialRateLimiter<string>({ baseDelayMs: 100, maxDelayMs: 60_000 }), new BucketRateLimiter<string>({ clock, qps: 10, burst: 100 }));
}

/**
 * Builds the controller of one managed kind (registers its informers and the claim index's listeners; starts
 * nothing). `desired` first passes the connection's Ready gate (a connection known not to work fails its resources
 * with its own reason, without a request to OpenSearch); the claim index is the runtime's `connectionClaimIndex`
 * (names computed on change); a delete whose connection is gone releases the resource with `ConnectionGone`.
 */
export function managedController<T extends ConnectionDependent, D, O>(deps: ManagedControllerDeps, kind: ManagedKind<T, D, O>): Controller<T> {
  const indexers: Record<string, IndexFunc<T>> = { ...kind.indexers, [CONNECTION_INDEX]: byConnectionRef };
  const informer = deps.informers.informerFor(kind.type, { indexers });
  const claims = connectionClaimIndex({
    dependents: informer,
    connections: deps.informers.informerFor(openSearchConnections.type),
    namespaces: deps.informers.informerFor(coreTypes.namespace),
    externalName: (object: T) => kind.externalName(object),
  });
  const external = new ExternalResourceReconciler<T, D, O, OpenSearchApi>(
    managedResourceDeps(OPENSEARCH_SYSTEM, deps, { type: kind.type, adapter: kind.adapter, claims, finalizer: kind.finalizer }),
    {
      annotationPrefix: GROUP,
      connect: async (object) => {
        const externalName = kind.externalName(object);
        deps.connections.assertUsable(kind.connectionOf(object));
        return { externalName, desired: await kind.desired(object) };
      },
      client: (externalName) => deps.connections.apiOf(externalName),
      defaultDeletionPolicy: kind.defaultDeletionPolicy,
      ...(kind.deletionPolicy === undefined ? {} : { deletionPolicy: (object: T) => kind.deletionPolicy?.(object) }),
      ...(kind.adoptExactMatch === undefined ? {} : { adoptExactMatch: kind.adoptExactMatch }),
    },
  );
  // Woken by a spec change (a deletion moves the generation too), annotations (adopt, paused, drift-check-interval)
  // and what is watched below; not by status writes, its own included, which would observe OpenSearch once more
  // after every create (the index benchmark: 2 reconciles and 5 requests per index instead of 1 and 3).
  const primary = or<T>(generationChanged, annotationsChanged);
  const builder = watchConnectionDependents(new ControllerBuilder({ informers: deps.informers }, kind.name).for(kind.type, primary), informer, openSearchConnections.type).withOptions({
    ...deps.controllerOptions,
    maxConcurrentReconciles: workersFor(deps.controllerOptions.maxConcurrentReconciles ?? 1, kind),
    rateLimiter: operatorRateLimiter(deps.clock),
  });
  kind.watches?.(builder, informer);
  return builder.complete(external, { indexers });
}

/** The worker count of a kind: the shared setting, raised to `minWorkers` and capped at `maxWorkers`. Pure. */
export function workersFor(shared: number, kind: { readonly minWorkers?: number; readonly maxWorkers?: number }): number {
  return Math.min(Math.max(shared, kind.minWorkers ?? 1), kind.maxWorkers ?? Number.POSITIVE_INFINITY);
}
