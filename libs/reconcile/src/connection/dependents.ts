import type { V1Namespace } from '@kubernetes/client-node';
import type { IndexFunc } from '../cache/store.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { coreTypes } from '../client/resource-type.ts';
import { getCondition, READY_CONDITION } from '../core/conditions.ts';
import { requestFor } from '../core/request.ts';
import type { ControllerBuilder } from '../controller/controller.ts';
import type { Predicate } from '../controller/predicate.ts';
import { labelsChanged } from '../controller/predicate.ts';
import type { ConnectionDependent, ConnectionObject, StoreSource } from './connection-object.ts';

/** Name of the dependents' store index by connection name ({@link byConnectionRef}); register it on their informer. */
export const CONNECTION_INDEX = 'connection';

/** Indexes a dependent under its connection's name (`spec.connectionRef.name`). Pure; one shared function. */
export const byConnectionRef: IndexFunc<ConnectionDependent> = (object) => [object.spec.connectionRef.name];

/**
 * A connection change that matters to its dependents: created, deleted, spec changed (generation), or its `Ready`
 * status flipped. Its other status writes (a health colour, a broker list) wake nobody.
 */
export const connectionUsabilityChanged: Predicate<ConnectionObject> = (event) => {
  if (event.type !== 'update') return true;
  const ready = (c: ConnectionObject): string => getCondition(c.status?.conditions, READY_CONDITION)?.status ?? 'Unknown';
  return event.object.metadata.generation !== event.oldObject.metadata.generation || ready(event.object) !== ready(event.oldObject);
};

/**
 * Adds to `builder` the two watches every dependent kind has: its connection ({@link connectionUsabilityChanged}
 * changes wake every dependent on it, through {@link CONNECTION_INDEX}, which `own`'s informer must have), and its
 * namespace (a label change wakes the namespace's dependents: the connection's namespace selector may now admit or
 * refuse them). `own.store` is read only in the map functions. Returns `builder`.
 */
export function watchConnectionDependents<T extends ConnectionDependent, K extends ConnectionObject>(
  builder: ControllerBuilder<T>,
  own: StoreSource<T>,
  connectionType: ResourceType<K>,
): ControllerBuilder<T> {
  return builder
    .watches(connectionType, (connection: K) => own.store.byIndex(CONNECTION_INDEX, connection.metadata.name ?? '').map(requestFor), {
      predicates: [connectionUsabilityChanged],
    })
    .watches(coreTypes.namespace, (namespace: V1Namespace) => own.store.list(namespace.metadata?.name ?? '').map(requestFor), { predicates: [labelsChanged] });
}
