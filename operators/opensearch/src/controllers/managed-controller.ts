/**
 * OpenSearch's side of the runtime's one managed-controller wiring (`managedController`): its group, connection kind
 * and rate limiter, the registry as the connections every kind reaches, and the `connect` of a kind whose desired
 * state names its connection and its name in OpenSearch.
 */
import type { Clock, Connected, ManagedControllerDeps as RuntimeManagedDeps, ManagedProcessParts, ManagedSystem, RateLimiter } from '@domain-operators/reconcile';
import { BucketRateLimiter, connectionExternalName, ItemExponentialRateLimiter, MaxOfRateLimiter } from '@domain-operators/reconcile';
import type { ControllerOptions, InformerSource } from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/common.ts';
import { openSearchConnections } from '../api/v1alpha1/index.ts';
import type { OpenSearchConnection } from '../api/v1alpha1/index.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { Connections } from './connection-registry.ts';

/** OpenSearch as the runtime's managed-resource parts see it: finalizers `opensearch.domain-operators.io/<kind>`, an `OpenSearchConnection`. */
const OPENSEARCH_SYSTEM: ManagedSystem = { group: GROUP, connectionKind: 'OpenSearchConnection', system: 'OpenSearch' };

/** What every managed controller of the process shares: the runtime's, with the registry as the connections. */
export interface ManagedControllerDeps extends RuntimeManagedDeps<OpenSearchConnection, OpenSearchApi> {
  readonly connections: Connections;
  readonly clock: Clock;
}

/** The process's parts a {@link ManagedControllerDeps} is made of. */
export interface ManagedProcess extends ManagedProcessParts {
  readonly informers: InformerSource;
  readonly controllerOptions: ControllerOptions;
  readonly clock: Clock;
}

/** The shared deps of OpenSearch's managed controllers, over `connections`. Pure. */
export function managedControllerDeps(process: ManagedProcess, connections: Connections): ManagedControllerDeps {
  return { ...process, system: OPENSEARCH_SYSTEM, connectionType: openSearchConnections.type, connections, rateLimiter: () => operatorRateLimiter(process.clock) };
}

/**
 * The rate limiter of every controller of this operator: per key 100 ms doubling to at most 60 s (controller-runtime's
 * 1000 s cap would leave a resource waiting a quarter of an hour after OpenSearch comes back), and an overall bucket
 * of 10 qps, burst 100. A new instance per call (its state is per controller).
 */
export function operatorRateLimiter(clock: Clock): RateLimiter<string> {
  return new MaxOfRateLimiter<string>(new ItemExponentialRateLimiter<string>({ baseDelayMs: 100, maxDelayMs: 60_000 }), new BucketRateLimiter<string>({ clock, qps: 10, burst: 100 }));
}

/** A kind's `connect` from its desired state, which names its connection and its name: `<connection>/<name>`. Pure. */
export function connectedAs<D extends { readonly connection: string; readonly name: string }>(desired: D): Connected<D> {
  return { externalName: connectionExternalName(desired.connection, desired.name), desired };
}
