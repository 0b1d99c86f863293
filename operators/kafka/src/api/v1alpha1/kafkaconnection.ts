import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { caSecretRef, conditionColumn, defineCustomResource, ignoredNamesField, loginSecretRef, READY_CONDITION } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { ConditionsField, GROUP, LabelSelectorSchema, ObservedGenerationField, VERSION } from './common.ts';
import { userQuotaFields, withinRule } from './quotas.ts';

/** How to reach a Kafka cluster and which namespaces may use it: `KafkaConnection.spec`. */
export const KafkaConnectionSpec = Type.Object(
  {
    bootstrapServers: Type.Array(
      Type.String({
        description: 'host:port of a broker.',
        minLength: 3,
        maxLength: 261,
        'x-kubernetes-validations': [{ rule: "self.matches('^([^\\\\s:]+|\\\\[[0-9a-fA-F:]+\\\\]):[0-9]{1,5}$')", message: 'a bootstrap server must be host:port' }],
      }),
      { description: 'Brokers to connect to, tried in order; one is enough, every broker knows the cluster.', minItems: 1, maxItems: 32 },
    ),
    tls: Type.Optional(
      Type.Object(
        {
          enabled: Type.Boolean({ description: 'Connect with TLS.', default: false }),
          caSecretRef: Type.Optional(caSecretRef('Secret holding the CA that signed the brokers\u2019 certificates; the system CAs when absent.')),
          insecureSkipVerify: Type.Optional(Type.Boolean({ description: 'Accept any broker certificate. For tests only.', default: false })),
        },
        { description: 'TLS towards the brokers.' },
      ),
    ),
    sasl: Type.Optional(
      Type.Object(
        {
          mechanism: Type.Union([Type.Literal('SCRAM-SHA-512'), Type.Literal('SCRAM-SHA-256'), Type.Literal('PLAIN')], {
            description: 'SASL mechanism of the operator\u2019s login: SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN.',
          }),
          secretRef: loginSecretRef('Secret holding the operator\u2019s Kafka login (a user allowed to manage topics, ACLs, quotas and SCRAM credentials).'),
        },
        { description: 'SASL login of the operator; absent for a cluster without authentication.' },
      ),
    ),
    ignoredNames: Type.Optional(ignoredNamesField('Kafka', 'topics and usernames')),
    tenancy: Type.Optional(
      Type.Object(
        {
          namespaceSelector: Type.Optional(LabelSelectorSchema),
          namePrefix: Type.Optional(
            Type.String({
              description:
                'Prefix of every name a namespace creates in Kafka (topics, usernames, ACL resources), as a template with {namespace}, ' +
                'for example "{namespace}." so that KafkaTopic orders in team-a is topic team-a.orders. Absent: no naming rule.',
              maxLength: 100,
              'x-kubernetes-validations': [
                {
                  rule: "self.matches('^[a-zA-Z0-9._-]*[{]namespace[}][._A-Z][a-zA-Z0-9._-]*$')",
                  message:
                    'namePrefix must contain {namespace} exactly once, followed by a separator that cannot occur in a namespace name ("." or "_"), ' +
                    'and otherwise only letters, digits, ".", "_" and "-" (for example "{namespace}.")',
                },
              ],
            }),
          ),
          defaultUserQuotas: Type.Optional(
            Type.Object(userQuotaFields('a user\u2019s'), {
              description: 'The quotas of every KafkaUser of a selected namespace that sets no quotas of its own (no field of spec.quotas). Absent: such a user gets none.',
            }),
          ),
          maxUserQuotas: Type.Optional(
            Type.Object(userQuotaFields('a user\u2019s'), {
              description:
                'The most a KafkaUser may set, per key, at the user level and per client id: a KafkaUser above it is refused with reason TenancyViolation and nothing is changed in Kafka. ' +
                'A key named here is never left unlimited: a user that sets no value for it (and gets none from defaultUserQuotas) gets this one.',
            }),
          ),
        },
        {
          description: 'Which namespaces may use this connection, which names they may use in Kafka, and their users\u2019 quotas.',
          'x-kubernetes-validations': [{ rule: withinRule('defaultUserQuotas', 'maxUserQuotas'), message: 'defaultUserQuotas must not exceed maxUserQuotas for any key both set' }],
        },
      ),
    ),
  },
  { description: 'KafkaConnectionSpec says how to reach a Kafka cluster and which namespaces may use it.' },
);

/** What the operator last saw of the cluster: `KafkaConnection.status`. */
export const KafkaConnectionStatus = Type.Object(
  {
    observedGeneration: Type.Optional(ObservedGenerationField),
    conditions: Type.Optional(ConditionsField),
    clusterId: Type.Optional(Type.String({ description: 'The id of the Kafka cluster.' })),
    controllerId: Type.Optional(Type.Integer({ description: 'The id of the broker the cluster reports as its controller.' })),
    brokers: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.Integer({ description: 'Broker id.' }),
            host: Type.String({ description: 'Advertised host.' }),
            port: Type.Integer({ description: 'Advertised port.' }),
            rack: Type.Optional(Type.String({ description: 'Rack, when configured.' })),
          },
          { description: 'One broker of the cluster.' },
        ),
        { description: 'The brokers of the cluster, by id.' },
      ),
    ),
  },
  { description: 'KafkaConnectionStatus is what the operator last saw of the cluster.' },
);

/** The KafkaConnection kind: `kafkaconnections.kafka.domain-operators.io`, cluster-scoped, created by the platform admin. */
export const kafkaConnections = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'KafkaConnection',
  plural: 'kafkaconnections',
  singular: 'kafkaconnection',
  shortNames: ['kc'],
  categories: ['kafka'],
  scope: 'Cluster',
  description:
    'A KafkaConnection names a Kafka cluster, the operator\u2019s login to it, and the tenancy rules for the namespaces that use it. ' +
    'KafkaTopics and KafkaUsers refer to it by name.',
  spec: KafkaConnectionSpec,
  status: KafkaConnectionStatus,
  printerColumns: [
    conditionColumn(READY_CONDITION),
    conditionColumn(READY_CONDITION, 'reason'),
    { name: 'Cluster', type: 'string', jsonPath: '.status.clusterId' },
    { name: 'Bootstrap', type: 'string', jsonPath: '.spec.bootstrapServers[0]', priority: 1 },
  ],
});

/** A KafkaConnection object. */
export type KafkaConnection = ResourceOf<typeof kafkaConnections>;
/** The spec of a KafkaConnection. */
export type KafkaConnectionSpec = Static<typeof KafkaConnectionSpec>;
/** The tenancy rule of a KafkaConnection: selected namespaces, the name prefix, users' default and ceiling quotas. */
export type KafkaTenancy = NonNullable<KafkaConnectionSpec['tenancy']>;
