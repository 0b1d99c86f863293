import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { conditionColumn, defineCustomResource, deletionPolicy, immutable, READY_CONDITION, SYNCED_CONDITION } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { ConditionsField, ConnectionRefSchema, GROUP, ObservedGenerationField, VERSION } from './common.ts';

/** The annotation-free part of ownership the external-resource runtime records in status. */
const OwnershipField = Type.Union([Type.Literal('CreatePending'), Type.Literal('Created'), Type.Literal('Adopted')], {
  description: 'Whether this resource created the object in Kafka (Created), took over an existing one (Adopted), or is creating it (CreatePending).',
});

/** The desired state of a topic: `KafkaTopic.spec`. */
export const KafkaTopicSpec = Type.Object(
  {
    connectionRef: ConnectionRefSchema,
    topicName: Type.Optional(
      Type.String({
        description:
          'Name of the topic in Kafka. Defaults to the connection\u2019s namePrefix followed by metadata.name; an explicit name must start with that prefix. Immutable.',
        minLength: 1,
        maxLength: 249,
        'x-kubernetes-validations': [
          immutable('topicName is immutable: delete the KafkaTopic and create a new one to use another name'),
          { rule: "self.matches('^[a-zA-Z0-9._-]+$')", message: 'topicName may contain only letters, digits, ".", "_" and "-"' },
          { rule: "self != '.' && self != '..'", message: 'topicName cannot be "." or ".."' },
        ],
      }),
    ),
    partitions: Type.Integer({ description: 'Number of partitions, at least 1. Can only grow: Kafka cannot remove partitions.', minimum: 1, maximum: 100000, default: 1 }),
    replicationFactor: Type.Integer({
      description: 'Replicas of each partition, at least 1 and at most the number of brokers. A change is carried out by partition reassignment, shown in status.replicasChange.',
      minimum: 1,
      maximum: 32767,
    }),
    config: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          'Topic configuration overrides, for example retention.ms: "604800000". The full set: a key removed here returns to the broker default. ' +
          'An invalid key or value is reported in the Synced condition with Kafka\u2019s own message.',
        maxProperties: 200,
      }),
    ),
    deletionPolicy: deletionPolicy('Retain'),
  },
  { description: 'KafkaTopicSpec is the desired state of a Kafka topic.' },
);

/** What the operator last saw of the topic: `KafkaTopic.status`. */
export const KafkaTopicStatus = Type.Object(
  {
    observedGeneration: Type.Optional(ObservedGenerationField),
    conditions: Type.Optional(ConditionsField),
    externalName: Type.Optional(Type.String({ description: 'The topic this resource claims, as <connection>/<topic>.' })),
    ownership: Type.Optional(OwnershipField),
    topicName: Type.Optional(Type.String({ description: 'Name of the topic in Kafka.' })),
    clusterId: Type.Optional(
      Type.String({ description: 'The id of the Kafka cluster the topic was last seen on or created on; after a cluster replacement it names the old cluster until the topic is seen on the new one.' }),
    ),
    topicId: Type.Optional(Type.String({ description: 'Kafka\u2019s id of the topic (changes when a topic of the same name is recreated).' })),
    partitions: Type.Optional(Type.Integer({ description: 'Partitions of the topic in Kafka.' })),
    replicationFactor: Type.Optional(Type.Integer({ description: 'Replicas per partition in Kafka (the smallest, while a reassignment runs).' })),
    replicasChange: Type.Optional(
      Type.Object(
        {
          targetReplicas: Type.Integer({ description: 'The replication factor being reached.' }),
          state: Type.Union([Type.Literal('Ongoing')], { description: 'Ongoing while Kafka moves data to the new replicas.' }),
          message: Type.String({ description: 'What is being moved.' }),
        },
        { description: 'A replication factor change in progress; absent when none runs.' },
      ),
    ),
  },
  { description: 'KafkaTopicStatus is what the operator last saw of the topic.' },
);

/** The KafkaTopic kind: `kafkatopics.kafka.domain-operators.io`. */
export const kafkaTopics = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'KafkaTopic',
  plural: 'kafkatopics',
  singular: 'kafkatopic',
  shortNames: ['kt'],
  categories: ['kafka'],
  scope: 'Namespaced',
  description: 'A KafkaTopic is a topic of the Kafka cluster its KafkaConnection names, managed by the kafka operator.',
  spec: KafkaTopicSpec,
  status: KafkaTopicStatus,
  printerColumns: [
    { name: 'Topic', type: 'string', jsonPath: '.status.topicName' },
    { name: 'Partitions', type: 'integer', jsonPath: '.status.partitions' },
    { name: 'RF', type: 'integer', jsonPath: '.status.replicationFactor' },
    conditionColumn(READY_CONDITION),
    conditionColumn(SYNCED_CONDITION, 'reason'),
  ],
  validations: [
    { rule: 'self.partitions >= oldSelf.partitions', message: 'partitions can only grow: Kafka cannot remove partitions from a topic', fieldPath: '.partitions' },
    { rule: 'has(self.topicName) == has(oldSelf.topicName)', message: 'topicName is immutable: it cannot be added or removed after creation', fieldPath: '.topicName' },
  ],
});

/** A KafkaTopic object. */
export type KafkaTopic = ResourceOf<typeof kafkaTopics>;
/** The spec of a KafkaTopic. */
export type KafkaTopicSpec = Static<typeof KafkaTopicSpec>;
/** The status of a KafkaTopic. */
export type KafkaTopicStatus = Static<typeof KafkaTopicStatus>;
/** The ownership values of a status, shared with KafkaUser. */
export { OwnershipField };
