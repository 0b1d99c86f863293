/**
 * The one wiring of a managed kind, for every operator (crossplane's managed reconciler set up per kind): the kind's
 * informer (indexed by connection), the claim index (names computed on change), the `ExternalResourceReconciler`
 * with the runtime's finalizer, status writer and `ConnectionGone` release, one connect per reconcile behind the
 * connection's Ready gate, the client bound to the connection, and the watches every dependent has (its own spec
 * and annotations, its connection turning usable, its namespace's labels). A kind describes only what is its own.
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { IndexFunc } from '../cache/store.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { coreTypes } from '../client/resource-type.ts';
import type { Request } from '../core/request.ts';
import { requestFor } from '../core/request.ts';
import type { DeletionPolicy } from '../crd/crd.ts';
import { ControllerBuilder } from '../controller/controller.ts';
import type { Controller, ControllerOptions, InformerSource } from '../controller/controller.ts';
import { annotationsChanged, generationChanged, or } from '../controller/predicate.ts';
import type { Reconciler } from '../controller/reconciler.ts';
import type { RateLimiter } from '../queue/rate-limiter.ts';
import type { ExternalAdapter } from '../external/external-adapter.ts';
import type { CreateClaims } from '../external/create-claims.ts';
import type { Connected } from '../external/external-resource.ts';
import { ExternalResourceReconciler } from '../external/external-resource.ts';
import { connectionClaimIndex } from './claim-index.ts';
import { parseConnectionExternalName } from './external-name.ts';
import { assertNotIgnored, ignoringPattern } from './ignored-names.ts';
import type { ConnectionDependent, ConnectionObject, StoreSource } from './connection-object.ts';
import { byConnectionRef, CONNECTION_INDEX, watchConnectionDependents } from './dependents.ts';
import { managedResourceDeps } from './managed-deps.ts';
import type { ManagedProcessParts, ManagedSystem } from './managed-deps.ts';
import type { ManagedConnections } from './managed-connections.ts';

/** What every managed controller of one operator shares. */
export interface ManagedControllerDeps<K extends ConnectionObject, C> extends ManagedProcessParts {
  readonly informers: InformerSource;
  /** The manager's controller options, shared by every controller. */
  readonly controllerOptions: ControllerOptions;
  /** The operator's group, connection kind and system (finalizers, annotations, the `ConnectionGone` Event). */
  readonly system: ManagedSystem;
  /** The connection kind's type: its changes wake the dependents and move the claim index. */
  readonly connectionType: ResourceType<K>;
  readonly connections: ManagedConnections<C>;
  /** A rate limiter for each controller (its state is per controller); absent: the controller options' own. */
  rateLimiter?(): RateLimiter<string>;
}

/** One managed kind: what is its own, from its name to the extra things it watches. */
export interface ManagedKind<T extends ConnectionDependent, D, O, C> {
  /** Controller name (metrics, logs), e.g. `kafkatopic`. */
  readonly name: string;
  readonly type: ResourceType<T>;
  /** The finalizer's name after the group (`<group>/<finalizer>`); default `finalizer`. */
  readonly finalizer?: string;
  /** What the external object is called in the `ConnectionGone` Event (`topic`). */
  readonly noun?: string;
  readonly adapter: ExternalAdapter<T, D, O, C>;
  /** `<connection>/<name in the system>`, for the claim index; throws as {@link ManagedKind.connect} does. */
  externalName(object: T): string;
  /**
   * The external name and the desired spec, from one look at the caches (tenancy, the kind's own rules); the
   * connection's Ready gate runs right after it, and the client is bound by the runtime. Throws before anything
   * external is touched: `TerminalError` for what waits for a change, a retried error otherwise.
   */
  connect(object: T): Connected<D> | Promise<Connected<D>>;
  readonly defaultDeletionPolicy: DeletionPolicy;
  deletionPolicy?(object: T): DeletionPolicy | undefined;
  readonly adoptExactMatch?: boolean;
  readonly driftCheckIntervalMs?: number;
  /** See `ExternalResourceOptions.recheckedReasons`. */
  readonly recheckedReasons?: readonly string[];
  /** The claims ledger, for a kind that claims its creates there instead of in status. */
  readonly createClaims?: CreateClaims;
  /**
   * Workers for this kind at least (the shared `maxConcurrentReconciles` applies when higher): for kinds whose
   * external writes are independent per object, or batched across reconciles.
   */
  readonly minWorkers?: number;
  /** Workers for this kind at most: 1 for kinds that read-modify-write one shared external object. */
  readonly maxWorkers?: number;
  /** More indexers on the kind's informer (by Secret, by the object a binding references). */
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>>;
  /** More watches, given the builder and the kind's own indexed cache, whose `store` may be read only in map functions. */
  watches?(builder: ControllerBuilder<T>, own: StoreSource<T>): void;
  /**
   * The reconciler the controller runs, around the runtime's (a poll of work in progress, a Secret ensured first);
   * must pass `forget` through. Absent: the runtime's as it is.
   */
  around?(external: ExternalResourceReconciler<T, D, O, C>): Reconciler<T>;
}

/**
 * Builds the controller of one managed kind: registers its informers and the claim index's listeners, starts nothing.
 * Woken by a spec change (a deletion moves the generation too) and annotations (adopt, paused, drift-check-interval),
 * never by status writes, its own included; by its connection's usability; by its namespace's labels; and by what
 * the kind watches.
 */
export function managedController<T extends ConnectionDependent, D, O, C, K extends ConnectionObject>(deps: ManagedControllerDeps<K, C>, kind: ManagedKind<T, D, O, C>): Controller<T> {
  const { connections, informers, system } = deps;
  const indexers: Record<string, IndexFunc<T>> = { ...kind.indexers, [CONNECTION_INDEX]: byConnectionRef };
  const own = informers.informerFor(kind.type, { indexers });
  const claims = connectionClaimIndex({
    dependents: own,
    connections: informers.informerFor(deps.connectionType),
    namespaces: informers.informerFor<V1Namespace>(coreTypes.namespace),
    externalName: (object: T) => kind.externalName(object),
  });
  const external = new ExternalResourceReconciler<T, D, O, C>(
    managedResourceDeps(system, deps, {
      type: kind.type,
      adapter: leavingIgnoredNames(kind.adapter, connections),
      claims,
      ...(kind.finalizer !== undefined && { finalizer: kind.finalizer }),
      ...(kind.noun !== undefined && { noun: kind.noun }),
      ...(kind.createClaims !== undefined && { createClaims: kind.createClaims }),
    }),
    {
      annotationPrefix: system.group,
      connect: async (object) => {
        const connected = await kind.connect(object);
        const connection = object.spec.connectionRef.name;
        assertNotIgnored(connections.ignoredNames(connection), connected.externalName, system.connectionKind);
        connections.usable(connection);
        return connected;
      },
      client: (externalName, signal) => connections.clientOf(externalName, signal),
      defaultDeletionPolicy: kind.defaultDeletionPolicy,
      ...(kind.deletionPolicy !== undefined && { deletionPolicy: (object: T) => kind.deletionPolicy?.(object) }),
      ...(kind.adoptExactMatch !== undefined && { adoptExactMatch: kind.adoptExactMatch }),
      ...(kind.driftCheckIntervalMs !== undefined && { driftCheckIntervalMs: kind.driftCheckIntervalMs }),
      ...(kind.recheckedReasons !== undefined && { recheckedReasons: kind.recheckedReasons }),
    },
  );
  const builder = watchConnectionDependents(new ControllerBuilder({ informers }, kind.name).for(kind.type, or<T>(generationChanged, annotationsChanged)), own, deps.connectionType).withOptions({
    ...deps.controllerOptions,
    maxConcurrentReconciles: workersFor(deps.controllerOptions.maxConcurrentReconciles ?? 1, kind),
    ...(deps.rateLimiter !== undefined && { rateLimiter: deps.rateLimiter() }),
  });
  kind.watches?.(builder, own);
  return builder.complete(kind.around?.(external) ?? external, { indexers });
}

/**
 * `adapter`, except that a delete of an object whose name the connection now ignores leaves it in place (it was
 * created before the pattern was added; another tool manages it now). Every other call is refused before it is made,
 * by the connect step.
 */
function leavingIgnoredNames<T extends ConnectionDependent, D, O, C>(adapter: ExternalAdapter<T, D, O, C>, connections: ManagedConnections<C>): ExternalAdapter<T, D, O, C> {
  const intent = adapter.intent?.bind(adapter);
  return {
    observe: (desired, context) => adapter.observe(desired, context),
    create: (desired, context) => adapter.create(desired, context),
    update: (desired, observed, context) => adapter.update(desired, observed, context),
    delete: async (target, context) => {
      const { connection, name } = parseConnectionExternalName(target.externalName);
      if (ignoringPattern(connections.ignoredNames(connection), name) !== undefined) {
        context.log.info({ externalName: target.externalName }, 'the connection now ignores this name: releasing the resource and leaving the object');
        return;
      }
      await adapter.delete(target, context);
    },
    ...(intent === undefined ? {} : { intent }),
    ...(adapter.marksCreator === true ? { marksCreator: true } : {}),
  };
}

/** The worker count of a kind: the shared setting, raised to `minWorkers` and capped at `maxWorkers`. Pure. */
export function workersFor(shared: number, kind: { readonly minWorkers?: number; readonly maxWorkers?: number }): number {
  return Math.min(Math.max(shared, kind.minWorkers ?? 1), kind.maxWorkers ?? Number.POSITIVE_INFINITY);
}

/** A map function waking the objects of `store()` under `index` key `key(object)`: for a kind's extra watches. */
export function dependentsBy<W, T extends ConnectionDependent>(own: StoreSource<T>, index: string, key: (object: W) => string): (object: W) => readonly Request[] {
  return (object) => own.store.byIndex(index, key(object)).map(requestFor);
}
