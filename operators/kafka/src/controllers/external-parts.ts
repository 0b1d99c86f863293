import type { KubernetesObject } from '@kubernetes/client-node';
import { finalizerRunner, statusWriterFor } from '@domain-operators/reconcile';
import type { ClaimIndex, Client, ExternalAdapter, ExternalResourceDeps, Recorder, ResourceType, Store } from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/index.ts';

/** The finalizer the operator puts on KafkaTopics and KafkaUsers. */
export const FINALIZER = `${GROUP}/finalizer`;

/** Name of the KafkaTopic and KafkaUser store index by connection name (`byConnection` in setup.ts). */
export const CONNECTION_INDEX = 'connection';

/** What the KafkaTopic and KafkaUser reconcilers hand to {@link kafkaExternalDeps}. */
export interface KafkaExternalParts {
  readonly client: Client;
  readonly events: Recorder;
  readonly now?: () => Date;
  readonly random?: () => number;
}

/**
 * The runtime parts of a Kafka kind's `ExternalResourceReconciler`: `adapter` and `claims`, the operator's finalizer
 * (`kafka.domain-operators.io/finalizer`), the status writer (one merge patch of the changed fields, or none, resolving
 * to the apiserver's reply so the runtime reads its own writes), the Event recorder, and the clock and randomness when
 * given (tests). No I/O.
 */
export function kafkaExternalDeps<T extends KubernetesObject, D, O>(
  parts: KafkaExternalParts,
  type: ResourceType<T>,
  adapter: ExternalAdapter<T, D, O>,
  claims: ClaimIndex<T>,
): ExternalResourceDeps<T, D, O> {
  return {
    adapter,
    claims,
    finalizer: finalizerRunner(FINALIZER, { client: parts.client, type, recorder: parts.events, group: GROUP }),
    status: statusWriterFor(parts.client, type),
    events: parts.events,
    ...(parts.now !== undefined && { now: parts.now }),
    ...(parts.random !== undefined && { random: parts.random }),
  };
}

/**
 * The claimants of an external name `<connection>/<name>`: the objects in `store` (indexed by connection as
 * {@link CONNECTION_INDEX}) on that connection whose own external name is the same. An object whose external name
 * cannot be computed (`externalName` throws: tenancy, a missing connection) claims nothing. `store` is read lazily.
 */
export function claimsOnConnection<T extends KubernetesObject>(store: () => Store<T>, externalName: (object: T) => string): ClaimIndex<T> {
  return {
    claimants: (name) => {
      const connection = name.slice(0, name.indexOf('/'));
      return store()
        .byIndex(CONNECTION_INDEX, connection)
        .filter((object) => {
          try {
            return externalName(object) === name;
          } catch {
            return false;
          }
        });
    },
  };
}
