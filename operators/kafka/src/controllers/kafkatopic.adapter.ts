import { isTerminalError, parseConnectionExternalName, TerminalError } from '@domain-operators/reconcile';
import type { DeleteTarget, ExternalAdapter, ExternalContext, ExternalCreation, ExternalObservation, ExternalUpdate } from '@domain-operators/reconcile';
import type { KafkaTopic } from '../api/v1alpha1/index.ts';
import { KafkaReasons } from '../kafka/reasons.ts';
import { currentReplicationFactor, planTopic } from '../kafka/topic-plan.ts';
import type { TopicPlan } from '../kafka/topic-plan.ts';
import type { KafkaAdmin } from '../kafka/admin.ts';
import type { TopicBatcher } from '../kafka/topic-batcher.ts';
import type { ClusterClients } from './kafka-client-pool.ts';

/** The desired topic in Kafka, names resolved: what {@link KafkaTopicAdapter} applies. */
export interface DesiredKafkaTopic {
  /** Name of the KafkaConnection. */
  readonly connection: string;
  readonly topicName: string;
  readonly partitions: number;
  readonly replicationFactor: number;
  readonly config: Readonly<Record<string, string>>;
}

/** What `observe` saw: the plan that brings the topic to its spec. */
export interface ObservedKafkaTopic {
  readonly plan: TopicPlan;
}

/** The ongoing replication factor change a KafkaTopic's status shows (`status.replicasChange`). */
export interface ReplicasChange {
  readonly targetReplicas: number;
  readonly state: 'Ongoing';
  readonly message: string;
}

/**
 * The status fields of a KafkaTopic that its adapter reports: what Kafka holds of the topic. `replicasChange` is
 * `null` (removed from status) when no reassignment runs. Every call that reports it reports all of it, except
 * `update`, which reports only what it changed.
 */
export interface TopicStatusFields {
  /** The id of the cluster the topic was seen on (observe) or created on (create). */
  readonly clusterId: string;
  readonly topicName: string;
  readonly topicId: string;
  readonly partitions: number;
  readonly replicationFactor: number;
  readonly replicasChange: ReplicasChange | null;
}

/** The part of the connection's clients the topic adapter calls: its small interface. */
export interface TopicClients {
  readonly admin: Pick<KafkaAdmin, 'alterTopicConfigs' | 'createPartitions' | 'deleteTopic' | 'listReassignments' | 'reassignPartitions'>;
  readonly topics: Pick<TopicBatcher, 'createTopic' | 'describeTopic' | 'describeTopicConfigs'>;
  readonly clusterInfo: ClusterClients['clusterInfo'];
}

/**
 * The {@link ExternalAdapter} of KafkaTopics, on the clients the runtime binds to the topic's connection
 * (`context.client()`): reads go through the connection's `TopicBatcher` (one Metadata and one
 * DescribeConfigs request for up to 100 topics), creations too; the rest (partitions, configs, reassignments,
 * deletion) are per topic. A refused plan (`PartitionDecreaseNotSupported`, `InvalidReplicationFactor`) changes
 * nothing: `update` throws it as a `TerminalError`. It keeps nothing between calls: `observe`, `create` and
 * `update` return the {@link TopicStatusFields} they saw or changed, and the runtime writes them with the conditions.
 */
export class KafkaTopicAdapter implements ExternalAdapter<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic, TopicClients> {
  /** Reads the topic (batched), its configs and, when replica counts differ from the spec, its reassignments; plans the change. */
  async observe(desired: DesiredKafkaTopic, context: ExternalContext<KafkaTopic, TopicClients>): Promise<ExternalObservation<ObservedKafkaTopic>> {
    const clients = await context.client();
    const name = desired.topicName;
    const [topic, configs] = await Promise.all([clients.topics.describeTopic(name), clients.topics.describeTopicConfigs(name)]);
    if (topic === undefined || configs === undefined) return { exists: false };
    // Only a topic whose replica counts differ can be in a reassignment, or need one; ask Kafka only then, and then ask
    // for the brokers serving now: the cached list may still hold a broker that has stopped, and a replica placed on
    // it would never catch up.
    const counts = topic.partitions.map((p) => p.replicas.length);
    const replicasDiffer = counts.some((n) => n !== desired.replicationFactor);
    const info = await clients.clusterInfo(replicasDiffer);
    const reassignments = replicasDiffer ? await clients.admin.listReassignments([name]) : [];
    const reassigning = reassignments.length > 0;
    const plan = planTopic(desired, { topic, configs, brokers: info.brokers.map((b) => b.id), reassignmentInProgress: reassigning });
    const status = {
      clusterId: info.clusterId,
      topicName: name,
      topicId: topic.topicId,
      partitions: topic.partitions.length,
      replicationFactor: currentReplicationFactor(topic.partitions, reassignments),
      replicasChange: reassigning ? { targetReplicas: desired.replicationFactor, state: 'Ongoing', message: `reassigning partitions of ${name} to ${desired.replicationFactor} replicas` } : null,
    } satisfies TopicStatusFields;
    if (plan.kind === 'refused') return { exists: true, upToDate: false, diff: [plan.message], observed: { plan }, status };
    // A reassignment in progress is our own change under way, not a difference: the status shows it.
    const upToDate = plan.partitionCount === undefined && plan.configOps.length === 0 && plan.reassignment.length === 0;
    return { exists: true, upToDate, diff: plan.diff.filter((line) => !line.endsWith('reassignment in progress')), observed: { plan }, status };
  }

  /** Creates the topic (batched) and reports it as created: the cluster, the id Kafka assigned, the spec's counts, no reassignment. */
  async create(desired: DesiredKafkaTopic, context: ExternalContext<KafkaTopic, TopicClients>): Promise<ExternalCreation> {
    const clients = await context.client();
    const created = await clients.topics.createTopic({
      name: desired.topicName,
      partitions: desired.partitions,
      replicationFactor: desired.replicationFactor,
      config: desired.config,
    });
    // The cached description, which the connection's check refreshes: the cluster this create went to.
    const { clusterId } = await clients.clusterInfo();
    const status = {
      clusterId,
      topicName: desired.topicName,
      topicId: created.topicId,
      partitions: desired.partitions,
      replicationFactor: desired.replicationFactor,
      replicasChange: null,
    } satisfies TopicStatusFields;
    return { status };
  }

  /**
   * Carries out the plan `observe` made: grows partitions, alters configs, starts a reassignment; reports the new
   * partition count and the reassignment it started (the rest of the status is what `observe` reported).
   */
  async update(desired: DesiredKafkaTopic, observed: ObservedKafkaTopic, context: ExternalContext<KafkaTopic, TopicClients>): Promise<ExternalUpdate> {
    const { plan } = observed;
    if (plan.kind === 'refused') throw new TerminalError(plan.message, plan.reason);
    const clients = await context.client();
    const name = desired.topicName;
    if (plan.partitionCount !== undefined) {
      try {
        await clients.admin.createPartitions(name, plan.partitionCount);
      } catch (err) {
        // The plan grows only from what Metadata said, and a broker's metadata cache trails the controller by a
        // moment: "already has N partitions" means our observation was stale (e.g. our own grow moments ago), not
        // that the spec is wrong. Retry with backoff; the next observe sees the truth (and refuses a real
        // decrease with PartitionDecreaseNotSupported).
        if (isTerminalError(err) && err.reason === KafkaReasons.invalidPartitions) throw new Error(`${err.message}; the observed partition count was stale, observing again`, { cause: err });
        throw err;
      }
    }
    if (plan.configOps.length > 0) await clients.admin.alterTopicConfigs(name, plan.configOps);
    if (plan.reassignment.length > 0) await clients.admin.reassignPartitions(name, plan.reassignment);
    const status = {
      ...(plan.partitionCount !== undefined && { partitions: plan.partitionCount }),
      ...(plan.reassignment.length > 0 && {
        replicasChange: { targetReplicas: desired.replicationFactor, state: 'Ongoing', message: `reassigning ${plan.reassignment.length} partitions of ${name} to ${desired.replicationFactor} replicas` },
      }),
    } satisfies Partial<TopicStatusFields>;
    return Object.keys(status).length === 0 ? {} : { status };
  }

  /** Deletes the topic; a connection that is gone is the runtime's `releasingWhenConnectionGone` (wired by the runtime's `managedResourceDeps`). */
  async delete(target: DeleteTarget<DesiredKafkaTopic>, context: ExternalContext<KafkaTopic, TopicClients>): Promise<void> {
    const { name } = parseConnectionExternalName(target.externalName);
    const clients = await context.client();
    await clients.admin.deleteTopic(name);
  }
}
