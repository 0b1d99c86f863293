import type { V1Namespace } from '@kubernetes/client-node';
import { connectionClaimIndex, connectionExternalName, ExternalResourceReconciler, managedResourceDeps } from '@domain-operators/reconcile';
import type { Connected } from '@domain-operators/reconcile';
import type { Client, CreateClaims, Informer, ReconcileContext, Reconciler, Recorder, Request, Result, WritePriority } from '@domain-operators/reconcile';
import { GROUP, kafkaTopics } from '../api/v1alpha1/index.ts';
import type { KafkaConnection, KafkaTopic } from '../api/v1alpha1/index.ts';
import { KafkaReasons } from '../kafka/reasons.ts';
import { resolveKafkaName, tenancyError } from '../kafka/tenancy.ts';
import type { ConnectionResolver } from './connection-resolver.ts';
import type { ClusterClients } from './kafka-client-pool.ts';
import { KAFKA_SYSTEM } from './managed-system.ts';
import { KafkaTopicAdapter } from './kafkatopic.adapter.ts';
import type { DesiredKafkaTopic, ObservedKafkaTopic } from './kafkatopic.adapter.ts';
import { ReassignmentPoll } from './reassignment-poll.ts';

/** Dependencies of a {@link KafkaTopicReconciler}. */
export interface KafkaTopicReconcilerDeps {
  readonly client: Client;
  readonly resolver: ConnectionResolver;
  readonly events: Recorder;
  /**
   * The claims ledger (ADR 0007, addendum "the claims ledger"): a topic's claim goes there before CreateTopics,
   * batched with other topics' claims, instead of a `CreatePending` status write per topic. Absent: the status claim.
   */
  readonly createClaims?: CreateClaims;
  /** The process's urgent writes (status patches), which Events wait for. */
  readonly priority?: Pick<WritePriority, 'track'>;
  /**
   * The caches the claim index follows (the runtime's `connectionClaimIndex`: names computed on change, not per
   * reconcile): the KafkaTopic informer with `CONNECTION_INDEX`, and the KafkaConnection and Namespace informers.
   */
  readonly caches: {
    readonly topics: Pick<Informer<KafkaTopic>, 'store' | 'onChange'>;
    readonly connections: Pick<Informer<KafkaConnection>, 'onChange'>;
    readonly namespaces: Pick<Informer<V1Namespace>, 'onChange'>;
  };
  readonly now?: () => Date;
  readonly random?: () => number;
}

/** Options of a {@link KafkaTopicReconciler}. */
export interface KafkaTopicReconcilerOptions {
  /** How often a topic is compared with Kafka to revert hand-made changes (default 2 min, as Strimzi's resync). */
  readonly driftCheckIntervalMs?: number;
  /** How often a reassignment in progress is checked (default 5 s). */
  readonly reassignmentPollMs?: number;
}

/**
 * Reconciles a KafkaTopic to its topic in Kafka with the runtime's {@link ExternalResourceReconciler} (finalizer,
 * adoption of a topic matching the spec or carrying `kafka.domain-operators.io/adopt: "true"`, `AlreadyExists` with
 * the diff otherwise, the older of two KafkaTopics for one topic wins, drift correction with an Event, Retain or
 * Delete on deletion) over {@link KafkaTopicAdapter}. Order per reconcile: the connection and the tenancy rule
 * first (a refusal touches nothing in Kafka), then Kafka. The topic's own status fields (topicName, topicId,
 * partitions, replicationFactor, replicasChange), as the adapter reports them, go out in the same status patch as
 * the conditions and `observedGeneration`; while a replication factor change runs it polls every
 * `reassignmentPollMs` ({@link ReassignmentPoll}). `InvalidReplicationFactor` (more replicas than brokers) is looked
 * at again at the drift-check interval, so a topic waiting for brokers follows when they join.
 */
export class KafkaTopicReconciler implements Reconciler<KafkaTopic> {
  readonly #deps: KafkaTopicReconcilerDeps;
  readonly #inner: ExternalResourceReconciler<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic, ClusterClients>;
  readonly #poll: ReassignmentPoll;

  /** Assembles the parts and subscribes the claim index to the caches' changes; no I/O. */
  constructor(deps: KafkaTopicReconcilerDeps, options: KafkaTopicReconcilerOptions = {}) {
    this.#deps = deps;
    this.#poll = new ReassignmentPoll(options.reassignmentPollMs ?? 5_000);
    const adapter = this.#poll.watch(new KafkaTopicAdapter());
    const type = kafkaTopics.type;
    this.#inner = new ExternalResourceReconciler<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic, ClusterClients>(
      managedResourceDeps(KAFKA_SYSTEM, deps, {
        type,
        adapter,
        noun: 'topic',
        claims: connectionClaimIndex({ ...deps.caches, dependents: deps.caches.topics, externalName: (object) => this.externalName(object) }),
        ...(deps.createClaims !== undefined && { createClaims: deps.createClaims }),
      }),
      {
        annotationPrefix: GROUP,
        connect: (topic) => this.connect(topic),
        client: (externalName, signal) => deps.resolver.clientsOf(externalName, signal),
        defaultDeletionPolicy: 'Retain',
        deletionPolicy: (topic) => topic.spec.deletionPolicy,
        adoptExactMatch: true,
        driftCheckIntervalMs: options.driftCheckIntervalMs ?? 120_000,
        // Too few brokers for the replication factor is a fact about the cluster as much as the spec: brokers join.
        recheckedReasons: [KafkaReasons.invalidReplicationFactor],
      },
    );
  }

  /** Drops what the runtime remembers of the topic's own status writes; the controller calls it on deletion. */
  forget(request: Request): void {
    this.#inner.forget(request);
  }

  /** See the class comment. */
  async reconcile(object: KafkaTopic, context: ReconcileContext): Promise<Result> {
    return this.#poll.reconcile(context, object.metadata.deletionTimestamp == null, () => this.#inner.reconcile(object, context));
  }

  /**
   * `<connection>/<topic>`: the topic name after the tenancy rules (explicit `topicName` inside the prefix, or prefix
   * + metadata.name). Throws `DependencyError` `ConnectionNotFound` (retried) or `TerminalError` `TenancyViolation`.
   */
  externalName(topic: KafkaTopic): string {
    return connectionExternalName(topic.spec.connectionRef.name, this.#topicName(topic));
  }

  /**
   * The external name and the desired topic from one look at the connection; throws like
   * {@link KafkaTopicReconciler.externalName}, or with the connection's reason when it does not work.
   */
  connect(topic: KafkaTopic): Connected<DesiredKafkaTopic> {
    const name = topic.spec.connectionRef.name;
    const connection = this.#deps.resolver.connection(name);
    const topicName = this.#topicName(topic, connection);
    this.#deps.resolver.assertUsable(connection);
    return {
      externalName: connectionExternalName(name, topicName),
      desired: { connection: name, topicName, partitions: topic.spec.partitions, replicationFactor: topic.spec.replicationFactor, config: topic.spec.config ?? {} },
    };
  }

  #topicName(topic: KafkaTopic, connection: KafkaConnection = this.#deps.resolver.connection(topic.spec.connectionRef.name)): string {
    const prefix = this.#deps.resolver.prefixFor(connection, topic.metadata.namespace ?? '');
    const resolved = resolveKafkaName('topicName', topic.spec.topicName, topic.metadata.name ?? '', prefix);
    if (!resolved.ok) throw tenancyError(resolved.violation);
    return resolved.value;
  }
}
