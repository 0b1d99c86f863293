/**
 * The runtime parts of a managed kind's `ExternalResourceReconciler`, assembled in one place for every operator:
 * the adapter (a delete whose connection is gone releases the resource with a `ConnectionGone` Event), the claim
 * index, the finalizer `<group>/<finalizer>`, the status writer (one merge patch of the changed fields, or none,
 * resolving to the apiserver's reply so the runtime reads its own writes; tracked in `priority` when given), the Event
 * recorder, the claims ledger when the kind has one, and a clock and randomness for tests. No I/O.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { WritePriority } from '../observability/write-priority.ts';
import type { Recorder } from '../observability/events.ts';
import type { ClaimIndex } from '../external/external-claims.ts';
import type { ExternalAdapter } from '../external/external-adapter.ts';
import type { CreateClaims } from '../external/create-claims.ts';
import type { ExternalResourceDeps } from '../external/external-resource.ts';
import { finalizerRunner, statusWriterFor } from '../external/external-resource.ts';
import { releasingWhenConnectionGone } from './connection-gone.ts';

/** What one operator's managed kinds share: its API group and the connection kind and system they reach. */
export interface ManagedSystem {
  /** The operator's API group, e.g. `kafka.domain-operators.io`: the finalizers' prefix. */
  readonly group: string;
  /** The connection kind, e.g. `KafkaConnection`, as the `ConnectionGone` Event names it. */
  readonly connectionKind: string;
  /** The external system, e.g. `Kafka`. */
  readonly system: string;
}

/** What every managed controller of one process shares. */
export interface ManagedProcessParts {
  readonly client: Client;
  readonly events: Recorder;
  /** The process's urgent writes: every status patch is tracked there, so Events trail them; default untracked. */
  readonly priority?: Pick<WritePriority, 'track'>;
  readonly now?: () => Date;
  readonly random?: () => number;
}

/** One managed kind's own parts. */
export interface ManagedKindParts<T extends KubernetesObject, D, O, C = unknown> {
  readonly type: ResourceType<T>;
  readonly adapter: ExternalAdapter<T, D, O, C>;
  readonly claims: ClaimIndex<T>;
  /** The finalizer's name after the group (`<group>/<finalizer>`); default `finalizer`. */
  readonly finalizer?: string;
  /** What the kind's external object is called in the `ConnectionGone` Event (`topic`); absent: the name alone. */
  readonly noun?: string;
  /** The claims ledger, for a kind that claims its creates there instead of in status. */
  readonly createClaims?: CreateClaims;
}

/** See the module comment. Pure: builds objects, registers nothing. */
export function managedResourceDeps<T extends KubernetesObject, D, O, C = unknown>(system: ManagedSystem, parts: ManagedProcessParts, kind: ManagedKindParts<T, D, O, C>): ExternalResourceDeps<T, D, O, C> {
  return {
    adapter: releasingWhenConnectionGone(kind.adapter, parts.events, { connectionKind: system.connectionKind, system: system.system, ...(kind.noun !== undefined && { noun: kind.noun }) }),
    claims: kind.claims,
    finalizer: finalizerRunner(`${system.group}/${kind.finalizer ?? 'finalizer'}`, { client: parts.client, type: kind.type, recorder: parts.events, group: system.group }),
    status: statusWriterFor(parts.client, kind.type, parts.priority),
    events: parts.events,
    ...(kind.createClaims !== undefined && { createClaims: kind.createClaims }),
    ...(parts.now !== undefined && { now: parts.now }),
    ...(parts.random !== undefined && { random: parts.random }),
  };
}
