/**
 * The wiring every kind that stands for one OpenSearch object shares: an `ExternalResourceReconciler` with the kind's
 * adapter, its finalizer, status writer and claim index, woken by changes of its own objects, of the connection it
 * uses (a connection turning Ready again retries everything on it at once instead of waiting out a backoff), of its
 * namespace's labels (tenancy) and of whatever else the kind watches.
 */
import type { KubernetesObject, V1Namespace } from '@kubernetes/client-node';
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
  BucketRateLimiter,
  byExternalName,
  ControllerBuilder,
  coreTypes,
  ExternalResourceReconciler,
  finalizerRunner,
  ItemExponentialRateLimiter,
  labelsChanged,
  MaxOfRateLimiter,
  requestFor,
  statusWriterFor,
} from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/common.ts';
import { openSearchConnections } from '../api/v1alpha1/index.ts';
import type { StoreSource } from './connection-registry.ts';
import { releasingWhenConnectionGone } from './connection-gone.ts';

/** What every managed controller of the process shares. */
export interface ManagedControllerDeps {
  readonly informers: InformerSource;
  readonly client: Client;
  readonly events: Recorder;
  /** The manager's controller options; a per-controller rate limiter is added. */
  readonly controllerOptions: ControllerOptions;
  readonly clock: Clock;
}

/** One kind: its type, adapter, names and extra wiring. */
export interface ManagedKind<T extends KubernetesObject, D, O> {
  /** Controller name (metrics, logs), e.g. `opensearchindex`. */
  readonly name: string;
  readonly type: ResourceType<T>;
  /** The finalizer's name after the group: `opensearch.domain-operators.io/<finalizer>`. */
  readonly finalizer: string;
  readonly adapter: ExternalAdapter<T, D, O>;
  /** `<connection>/<name in OpenSearch>`; throws as `ExternalResourceOptions.externalName` does. */
  externalName(object: T): string;
  desired(object: T): D | Promise<D>;
  /** The connection the object uses (`spec.connectionRef.name`). */
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

/** Index of every managed kind's informer: the connection an object uses. */
export const BY_CONNECTION = 'connection';
const BY_EXTERNAL_NAME = 'externalName';

/**
 * The rate limiter of every controller of this operator: per key 100 ms doubling to at most 60 s (controller-runtime's
 * 1000 s cap would leave a resource waiting a quarter of an hour after OpenSearch comes back), and an overall bucket
 * of 10 qps, burst 100. A new instance per call (its state is per controller).
 */
export function operatorRateLimiter(clock: Clock): RateLimiter<string> {
  return new MaxOfRateLimiter<string>(new ItemExponentialRateLimiter<string>({ baseDelayMs: 100, maxDelayMs: 60_000 }), new BucketRateLimiter<string>({ clock, qps: 10, burst: 100 }));
}

/** Builds the controller of one managed kind (registers its informers; starts nothing). */
export function managedController<T extends KubernetesObject, D, O>(deps: ManagedControllerDeps, kind: ManagedKind<T, D, O>): Controller<T> {
  const indexers: Record<string, IndexFunc<T>> = {
    ...kind.indexers,
    [BY_EXTERNAL_NAME]: byExternalName((object: T) => kind.externalName(object)),
    [BY_CONNECTION]: (object) => [kind.connectionOf(object)],
  };
  const informer = deps.informers.informerFor(kind.type, { indexers });
  const external = new ExternalResourceReconciler<T, D, O>(
    {
      adapter: releasingWhenConnectionGone(kind.adapter, deps.events),
      claims: { claimants: (externalName) => informer.store.byIndex(BY_EXTERNAL_NAME, externalName) },
      finalizer: finalizerRunner(`${GROUP}/${kind.finalizer}`, { client: deps.client, type: kind.type, recorder: deps.events, group: GROUP }),
      status: statusWriterFor(deps.client, kind.type),
      events: deps.events,
    },
    {
      annotationPrefix: GROUP,
      externalName: (object) => kind.externalName(object),
      desired: (object) => kind.desired(object),
      defaultDeletionPolicy: kind.defaultDeletionPolicy,
      ...(kind.deletionPolicy === undefined ? {} : { deletionPolicy: (object: T) => kind.deletionPolicy?.(object) }),
      ...(kind.adoptExactMatch === undefined ? {} : { adoptExactMatch: kind.adoptExactMatch }),
    },
  );
  const builder = new ControllerBuilder({ informers: deps.informers }, kind.name)
    .for(kind.type)
    .watches(openSearchConnections.type, (connection) => informer.store.byIndex(BY_CONNECTION, connection.metadata.name ?? '').map(requestFor))
    // A namespace's labels decide whether a connection admits it: relabelling one wakes its resources, so one refused
    // with TenancyViolation follows without being touched.
    .watches(coreTypes.namespace, (namespace: V1Namespace) => informer.store.list(namespace.metadata?.name ?? '').map(requestFor), { predicates: [labelsChanged] })
    .withOptions({
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
