import { isTerminalError, TerminalError } from '@domain-operators/reconcile';
import type { DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation, Recorder } from '@domain-operators/reconcile';
import type { KafkaTopic } from '../api/v1alpha1/index.ts';
import { currentReplicationFactor, planTopic } from '../kafka/topic-plan.ts';
import type { TopicPlan } from '../kafka/topic-plan.ts';
import type { ConnectionResolver } from './connection-resolver.ts';

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

/** What the status of a KafkaTopic shows about its topic in Kafka. */
export interface TopicFacts {
  readonly topicName: string;
  readonly topicId: string;
  readonly partitions: number;
  readonly replicationFactor: number;
  readonly replicasChange?: { readonly targetReplicas: number; readonly state: 'Ongoing'; readonly message: string };
}

/** Dependencies of a {@link KafkaTopicAdapter}. */
export interface KafkaTopicAdapterDeps {
  /** Only `connection` and `clients` are used. */
  readonly resolver: Pick<ConnectionResolver, 'connection' | 'clients'>;
  readonly events: Recorder;
}

/**
 * The {@link ExternalAdapter} of KafkaTopics: reads go through the connection's `TopicBatcher` (one Metadata and one
 * DescribeConfigs request for up to 100 topics), creations too; the rest (partitions, configs, reassignments,
 * deletion) are per topic. A refused plan (`PartitionDecreaseNotSupported`, `InvalidReplicationFactor`) changes
 * nothing: `update` throws it as a `TerminalError`. What it saw of each topic is kept by resource UID until the
 * reconciler takes it for the status with {@link KafkaTopicAdapter.takeStatusFields}.
 */
export class KafkaTopicAdapter implements ExternalAdapter<KafkaTopic, DesiredKafkaTopic, ObservedKafkaTopic> {
  readonly #deps: KafkaTopicAdapterDeps;
  readonly #facts = new Map<string, TopicFacts>();
  /** UIDs of the resources whose topic is being reassigned; kept apart from the facts, which go to the status. */
  readonly #reassigning = new Set<string>();

  /** Does no work. */
  constructor(deps: KafkaTopicAdapterDeps) {
    this.#deps = deps;
  }

  /**
   * The status fields from the facts recorded for `topic` since the last call (`undefined` when none), and forgets
   * them: topicName, topicId, partitions, replicationFactor, and replicasChange (`null`, i.e. removed, when no
   * reassignment runs). Not for a topic being deleted: its status is left as it was.
   */
  takeStatusFields(topic: KafkaTopic): Readonly<Record<string, unknown>> | undefined {
    const uid = topic.metadata.uid ?? '';
    const facts = this.#facts.get(uid);
    this.#facts.delete(uid);
    if (facts === undefined || topic.metadata.deletionTimestamp != null) return undefined;
    return {
      topicName: facts.topicName,
      topicId: facts.topicId,
      partitions: facts.partitions,
      replicationFactor: facts.replicationFactor,
      replicasChange: facts.replicasChange ?? null,
    };
  }

  /** Forgets everything kept for the resource `uid` (call when it is gone: a `Retain` topic is never seen deleting). */
  forget(uid: string): void {
    this.#facts.delete(uid);
    this.#reassigning.delete(uid);
  }

  /** Whether the last observe or update of the resource `uid` saw (or started) a replication factor change. */
  isReassigning(uid: string): boolean {
    return this.#reassigning.has(uid);
  }

  async observe(desired: DesiredKafkaTopic, context: ExternalContext<KafkaTopic>): Promise<ExternalObservation<ObservedKafkaTopic>> {
    const clients = await this.#clients(desired, context);
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
    const current = currentReplicationFactor(topic.partitions, reassignments);
    this.#record(context, {
      topicName: name,
      topicId: topic.topicId,
      partitions: topic.partitions.length,
      replicationFactor: current,
      ...(reassigning && {
        replicasChange: { targetReplicas: desired.replicationFactor, state: 'Ongoing', message: `reassigning partitions of ${name} to ${desired.replicationFactor} replicas` },
      }),
    });
    if (plan.kind === 'refused') return { exists: true, upToDate: false, diff: [plan.message], observed: { plan } };
    // A reassignment in progress is our own change under way, not a difference: the status shows it.
    const upToDate = plan.partitionCount === undefined && plan.configOps.length === 0 && plan.reassignment.length === 0;
    return { exists: true, upToDate, diff: plan.diff.filter((line) => !line.endsWith('reassignment in progress')), observed: { plan } };
  }

  async create(desired: DesiredKafkaTopic, context: ExternalContext<KafkaTopic>): Promise<void> {
    const clients = await this.#clients(desired, context);
    const created = await clients.topics.createTopic({
      name: desired.topicName,
      partitions: desired.partitions,
      replicationFactor: desired.replicationFactor,
      config: desired.config,
    });
    this.#record(context, { topicName: desired.topicName, topicId: created.topicId, partitions: desired.partitions, replicationFactor: desired.replicationFactor });
  }

  async update(desired: DesiredKafkaTopic, observed: ObservedKafkaTopic, context: ExternalContext<KafkaTopic>): Promise<void> {
    const { plan } = observed;
    if (plan.kind === 'refused') throw new TerminalError(plan.message, plan.reason);
    const clients = await this.#clients(desired, context);
    const name = desired.topicName;
    if (plan.partitionCount !== undefined) {
      try {
        await clients.admin.createPartitions(name, plan.partitionCount);
      } catch (err) {
        // The plan grows only from what Metadata said, and a broker's metadata cache trails the controller by a
        // moment: "already has N partitions" means our observation was stale (e.g. our own grow moments ago), not
        // that the spec is wrong. Retry with backoff; the next observe sees the truth (and refuses a real
        // decrease with PartitionDecreaseNotSupported).
        if (isTerminalError(err) && err.reason === 'InvalidPartitions') throw new Error(`${err.message}; the observed partition count was stale, observing again`, { cause: err });
        throw err;
      }
    }
    if (plan.configOps.length > 0) await clients.admin.alterTopicConfigs(name, plan.configOps);
    if (plan.reassignment.length > 0) {
      await clients.admin.reassignPartitions(name, plan.reassignment);
      const facts = this.#facts.get(uidOf(context));
      if (facts !== undefined) {
        this.#record(context, {
          ...facts,
          replicasChange: { targetReplicas: desired.replicationFactor, state: 'Ongoing', message: `reassigning ${plan.reassignment.length} partitions of ${name} to ${desired.replicationFactor} replicas` },
        });
      }
    }
    if (plan.partitionCount !== undefined) {
      const facts = this.#facts.get(uidOf(context));
      if (facts !== undefined) this.#facts.set(uidOf(context), { ...facts, partitions: plan.partitionCount });
    }
  }

  async delete(target: DeleteTarget<DesiredKafkaTopic>, context: ExternalContext<KafkaTopic>): Promise<void> {
    const [connectionName = '', ...rest] = target.externalName.split('/');
    const topicName = rest.join('/');
    let clients;
    try {
      const connection = this.#deps.resolver.connection(connectionName);
      clients = await this.#deps.resolver.clients(connection, context.signal);
    } catch (err) {
      if (!isTerminalError(err) || err.reason !== 'ConnectionNotFound') throw err;
      // No cluster to delete from: keeping the finalizer would only leave the namespace stuck.
      this.#deps.events.record(context.object, {
        type: 'Warning',
        reason: 'ConnectionGone',
        action: 'DeleteTopic',
        note: `KafkaConnection "${connectionName}" no longer exists; topic ${topicName} was not deleted`,
      });
      return;
    }
    await clients.admin.deleteTopic(topicName);
  }

  async #clients(desired: DesiredKafkaTopic, context: ExternalContext<KafkaTopic>) {
    return this.#deps.resolver.clients(this.#deps.resolver.connection(desired.connection), context.signal);
  }

  #record(context: ExternalContext<KafkaTopic>, facts: TopicFacts): void {
    const uid = uidOf(context);
    this.#facts.set(uid, facts);
    if (facts.replicasChange === undefined) this.#reassigning.delete(uid);
    else this.#reassigning.add(uid);
  }
}

function uidOf(context: ExternalContext<KafkaTopic>): string {
  return context.object.metadata.uid ?? '';
}
