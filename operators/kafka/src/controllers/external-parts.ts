import type { KubernetesObject } from '@kubernetes/client-node';
import { finalizerRunner, releasingWhenConnectionGone, statusWriterFor } from '@domain-operators/reconcile';
import type { ClaimIndex, Client, CreateClaims, ExternalAdapter, ExternalResourceDeps, Recorder, ResourceType, WritePriority } from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/index.ts';

/** The finalizer the operator puts on KafkaTopics and KafkaUsers. */
export const FINALIZER = `${GROUP}/finalizer`;

/** What the KafkaTopic and KafkaUser reconcilers hand to {@link kafkaExternalDeps}. */
export interface KafkaExternalParts {
  readonly client: Client;
  readonly events: Recorder;
  /** The process's urgent writes: every status patch is tracked there, so Events trail them. */
  readonly priority?: Pick<WritePriority, 'track'>;
  readonly now?: () => Date;
  readonly random?: () => number;
}

/** The kind-specific parts of {@link kafkaExternalDeps}. */
export interface KafkaKindParts<T extends KubernetesObject, D, O> {
  readonly type: ResourceType<T>;
  readonly adapter: ExternalAdapter<T, D, O>;
  /** The kind's claim index (the runtime's `connectionClaimIndex`). */
  readonly claims: ClaimIndex<T>;
  /** What the kind's external object is called in the `ConnectionGone` Event: `topic`, `user`. */
  readonly noun: string;
  /** The claims ledger, for a kind that claims its creates there instead of in status (topics). */
  readonly createClaims?: CreateClaims;
}

/**
 * The runtime parts of a Kafka kind's `ExternalResourceReconciler`: the adapter (a delete whose KafkaConnection is
 * gone releases the resource with a `ConnectionGone` Event, the runtime's `releasingWhenConnectionGone`), the claim
 * index, the operator's finalizer (`kafka.domain-operators.io/finalizer`), the status writer (one merge patch of the
 * changed fields, or none, resolving to the apiserver's reply so the runtime reads its own writes; urgent in
 * `priority`), the Event recorder, the claims ledger when the kind has one, and the clock and randomness when given (tests). No I/O.
 */
export function kafkaExternalDeps<T extends KubernetesObject, D, O>(parts: KafkaExternalParts, kind: KafkaKindParts<T, D, O>): ExternalResourceDeps<T, D, O> {
  return {
    adapter: releasingWhenConnectionGone(kind.adapter, parts.events, { connectionKind: 'KafkaConnection', system: 'Kafka', noun: kind.noun }),
    claims: kind.claims,
    finalizer: finalizerRunner(FINALIZER, { client: parts.client, type: kind.type, recorder: parts.events, group: GROUP }),
    status: statusWriterFor(parts.client, kind.type, parts.priority),
    events: parts.events,
    ...(kind.createClaims !== undefined && { createClaims: kind.createClaims }),
    ...(parts.now !== undefined && { now: parts.now }),
    ...(parts.random !== undefined && { random: parts.random }),
  };
}
