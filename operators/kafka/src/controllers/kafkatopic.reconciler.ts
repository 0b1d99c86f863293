import { CONNECTION_INDEX, connectionExternalName, dependentsBy } from '@domain-operators/reconcile';
import type { Connected, ControllerBuilder, CreateClaims, DeletionPolicy, ExternalAdapter, ExternalResourceReconciler, ManagedKind, Reconciler, StoreSource } from '@domain-operators/reconcile';
import { kafkaConnections, kafkaTopics } from '../api/v1alpha1/index.ts';
import type { KafkaConnection, KafkaTopic } from '../api/v1alpha1/index.ts';
import { KafkaReasons } from '../kafka/reasons.ts';
import { resolveKafkaName, tenancyError } from '../kafka/tenancy.ts';
import { clusterIdChanged } from './cluster-identity.ts';
import type { KafkaConnections } from './kafka-connections.ts';
import type { ClusterClients } from './kafka-client-pool.ts';
import { KafkaTopicAdapter } from './kafkatopic.adapter.ts';
import type { DesiredKafkaTopic, ObservedKafkaTopic } from './kafkatopic.adapter.ts';
import { ReassignmentPoll } from './reassignment-poll.ts';

/** Dependencies of a {@link KafkaTopicKind}. */
export interface KafkaTopicKindDeps {
  readonly kit: KafkaConnections;
  /**
   * The claims ledger (ADR 0007, addendum "the claims ledger"): a topic's claim goes there before CreateTopics,
   * batched with other topics' claims, instead of a `CreatePending` status write per topic. Absent: the status claim.
   */
  readonly createClaims?: CreateClaims;
}

/** Options of a {@link KafkaTopicKind}. */
export interface KafkaTopicKindOptions {
  /** How often a topic is compared with Kafka to revert hand-made changes (default 2 min, as Strimzi's resync). */
  readonly driftCheckIntervalMs?: number;
  /** How often a reassignment in progress is checked (default 5 s). */
  readonly reassignmentPollMs?: number;
  /**
   * Concurrent KafkaTopic reconciles at least (default 64): concurrency is what lets the batcher put many topics
   * into one request.
   */
  readonly minWorkers?: number;
}

/**
 * KafkaTopic as the runtime's `managedController` reconciles it, with its `ExternalResourceReconciler` (finalizer,
 * adoption of a topic matching the spec or carrying `kafka.domain-operators.io/adopt: "true"`, `AlreadyExists` with
 * the diff otherwise, the older of two KafkaTopics for one topic wins, drift correction with an Event, Retain or
 * Delete on deletion) over {@link KafkaTopicAdapter}. Order per reconcile: the connection and the tenancy rule
 * first (a refusal touches nothing in Kafka), then Kafka. The topic's own status fields (topicName, topicId,
 * partitions, replicationFactor, replicasChange), as the adapter reports them, go out in the same status patch as
 * the conditions and `observedGeneration`; while a replication factor change runs it polls every
 * `reassignmentPollMs` ({@link ReassignmentPoll}). `InvalidReplicationFactor` (more replicas than brokers) is looked
 * at again at the drift-check interval, so a topic waiting for brokers follows when they join. A new cluster id on
 * the connection (a replaced cluster) wakes every topic on it at once.
 */
export class KafkaTopicKind implements ManagedKind<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic, ClusterClients> {
  readonly name = 'kafkatopic';
  readonly type = kafkaTopics.type;
  readonly noun = 'topic';
  readonly adapter: ExternalAdapter<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic, ClusterClients>;
  readonly defaultDeletionPolicy = 'Retain';
  readonly adoptExactMatch = true;
  readonly driftCheckIntervalMs: number;
  // Too few brokers for the replication factor is a fact about the cluster as much as the spec: brokers join.
  readonly recheckedReasons = [KafkaReasons.invalidReplicationFactor];
  readonly minWorkers: number;
  readonly createClaims?: CreateClaims;
  readonly #deps: KafkaTopicKindDeps;
  readonly #poll: ReassignmentPoll;

  /** Assembles the parts; no I/O. */
  constructor(deps: KafkaTopicKindDeps, options: KafkaTopicKindOptions = {}) {
    this.#deps = deps;
    this.#poll = new ReassignmentPoll(options.reassignmentPollMs ?? 5_000);
    this.adapter = this.#poll.watch(new KafkaTopicAdapter());
    this.driftCheckIntervalMs = options.driftCheckIntervalMs ?? 120_000;
    this.minWorkers = options.minWorkers ?? 64;
    if (deps.createClaims !== undefined) this.createClaims = deps.createClaims;
  }

  /** `spec.deletionPolicy`. */
  deletionPolicy(topic: KafkaTopic): DeletionPolicy {
    return topic.spec.deletionPolicy;
  }

  /** A replaced cluster (a new `status.clusterId` on the connection) wakes every topic on it. */
  watches(builder: ControllerBuilder<KafkaTopic>, own: StoreSource<KafkaTopic>): void {
    builder.watches(kafkaConnections.type, dependentsBy(own, CONNECTION_INDEX, (c: KafkaConnection) => c.metadata.name ?? ''), { predicates: [clusterIdChanged] });
  }

  /** The runtime's reconciler, polling while a reassignment it reported runs. */
  around(external: ExternalResourceReconciler<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic, ClusterClients>): Reconciler<KafkaTopic> {
    return {
      reconcile: (object, context) => this.#poll.reconcile(context, object.metadata.deletionTimestamp == null, () => external.reconcile(object, context)),
      forget: (request) => {
        external.forget(request);
      },
    };
  }

  /**
   * `<connection>/<topic>`: the topic name after the tenancy rules (explicit `topicName` inside the prefix, or prefix
   * + metadata.name). Throws `DependencyError` `ConnectionNotFound` (retried) or `TerminalError` `TenancyViolation`.
   */
  externalName(topic: KafkaTopic): string {
    const name = topic.spec.connectionRef.name;
    return connectionExternalName(name, this.#topicName(topic, this.#deps.kit.get(name)));
  }

  /** The external name and the desired topic from one look at the connection; throws like {@link KafkaTopicKind.externalName}. */
  connect(topic: KafkaTopic): Connected<DesiredKafkaTopic> {
    const name = topic.spec.connectionRef.name;
    const topicName = this.#topicName(topic, this.#deps.kit.get(name));
    return {
      externalName: connectionExternalName(name, topicName),
      desired: { connection: name, topicName, partitions: topic.spec.partitions, replicationFactor: topic.spec.replicationFactor, config: topic.spec.config ?? {} },
    };
  }

  #topicName(topic: KafkaTopic, connection: KafkaConnection): string {
    const prefix = this.#deps.kit.tenancy(connection, topic.metadata.namespace ?? '');
    const resolved = resolveKafkaName('topicName', topic.spec.topicName, topic.metadata.name ?? '', prefix);
    if (!resolved.ok) throw tenancyError(resolved.violation);
    return resolved.value;
  }
}
