import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { conditionColumn, defineCustomResource, immutable, READY_CONDITION, SYNCED_CONDITION } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { ConditionsField, ConnectionRefSchema, GROUP, ObservedGenerationField, VERSION } from './common.ts';
import { OwnershipField } from './kafkatopic.ts';
import { ClientIdQuotasSchema, userQuotaFields } from './quotas.ts';

/** ACL operation names as `kafka-acls.sh` spells them. */
export const ACL_OPERATIONS = [
  'Read',
  'Write',
  'Create',
  'Delete',
  'Alter',
  'Describe',
  'ClusterAction',
  'DescribeConfigs',
  'AlterConfigs',
  'IdempotentWrite',
  'All',
] as const;

/** One ACL rule of `KafkaUser.spec.acls`: several operations on one resource, expanded to one Kafka binding each. */
export const AclRuleSchema = Type.Object(
  {
    resource: Type.Object(
      {
        type: Type.Union([Type.Literal('topic'), Type.Literal('group'), Type.Literal('cluster'), Type.Literal('transactionalId')], {
          description: 'Kind of Kafka resource: topic, group, cluster or transactionalId.',
        }),
        name: Type.Optional(
          Type.String({ description: 'Name (or prefix, with patternType prefixed) of the resource; "*" means every resource of the type. Not used for cluster.', minLength: 1 }),
        ),
        patternType: Type.Union([Type.Literal('literal'), Type.Literal('prefixed')], {
          description: 'literal: the name exactly; prefixed: every name starting with it.',
          default: 'literal',
        }),
      },
      {
        description: 'The resource the rule applies to.',
        'x-kubernetes-validations': [{ rule: "self.type == 'cluster' || has(self.name)", message: 'resource.name is required for topic, group and transactionalId' }],
      },
    ),
    operations: Type.Array(
      Type.Union(
        ACL_OPERATIONS.map((op) => Type.Literal(op)),
        { description: `An operation: ${ACL_OPERATIONS.join(', ')}.` },
      ),
      { description: 'Operations the rule allows or denies.', minItems: 1, maxItems: ACL_OPERATIONS.length },
    ),
    host: Type.String({ description: 'Client host the rule applies to; "*" for any host.', default: '*' }),
    permission: Type.Union([Type.Literal('allow'), Type.Literal('deny')], { description: 'allow or deny; a deny wins over any allow.', default: 'allow' }),
  },
  { description: 'One ACL rule for this user (principal User:<username>).' },
);

/** The desired state of a Kafka user: `KafkaUser.spec`. */
export const KafkaUserSpec = Type.Object(
  {
    connectionRef: ConnectionRefSchema,
    username: Type.Optional(
      Type.String({
        description: 'SCRAM username. Defaults to the connection\u2019s namePrefix followed by metadata.name; an explicit name must start with that prefix. Immutable.',
        minLength: 1,
        maxLength: 200,
        'x-kubernetes-validations': [
          immutable('username is immutable: delete the KafkaUser and create a new one to use another name'),
          { rule: "self.matches('^[a-zA-Z0-9._@-]+$')", message: 'username may contain only letters, digits, ".", "_", "@" and "-"' },
        ],
      }),
    ),
    authentication: Type.Object(
      {
        type: Type.Union([Type.Literal('scram-sha-512'), Type.Literal('scram-sha-256')], { description: 'SASL/SCRAM mechanism: scram-sha-512 or scram-sha-256.' }),
        passwordSecretRef: Type.Optional(
          Type.Object(
            {
              name: Type.String({ description: 'Name of a Secret in this namespace.', minLength: 1 }),
              key: Type.String({ description: 'Key of the password in the Secret.', default: 'password' }),
            },
            {
              description:
                'Secret holding the password. Without it the operator generates a strong password into the Secret <name>-kafka-credentials. ' +
                'Changing the password in the Secret rotates the credential in Kafka.',
            },
          ),
        ),
      },
      { description: 'How the user logs in.' },
    ),
    acls: Type.Optional(Type.Array(AclRuleSchema, { description: 'ACLs of the user. The operator manages only ACLs of principal User:<username>.', maxItems: 200 })),
    quotas: Type.Optional(
      Type.Object(
        {
          ...userQuotaFields('the user\u2019s'),
          clients: Type.Optional(
            Type.Array(ClientIdQuotasSchema, {
              description: 'Quotas per client id of the user (entities user=<username>,client-id=<clientId>). An entry removed here is removed in Kafka.',
              maxItems: 100,
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['clientId'],
            }),
          ),
        },
        {
          description:
            'Client quotas of the user (entity user=<username>), and per client id. A quota removed here is removed in Kafka. ' +
            'A user that sets none gets its connection\u2019s tenancy.defaultUserQuotas; no value may exceed the connection\u2019s tenancy.maxUserQuotas ' +
            '(a key the ceiling names and the user leaves unset is set to the ceiling).',
        },
      ),
    ),
  },
  { description: 'KafkaUserSpec is the desired state of a Kafka user: its SCRAM credential, ACLs and quotas.' },
);

/** What the operator last applied for the user: `KafkaUser.status`. */
export const KafkaUserStatus = Type.Object(
  {
    observedGeneration: Type.Optional(ObservedGenerationField),
    conditions: Type.Optional(ConditionsField),
    externalName: Type.Optional(Type.String({ description: 'The user this resource claims, as <connection>/<username>.' })),
    ownership: Type.Optional(OwnershipField),
    username: Type.Optional(Type.String({ description: 'The SCRAM username in Kafka.' })),
    secretName: Type.Optional(Type.String({ description: 'The Secret holding the password (generated or referenced).' })),
    credential: Type.Optional(
      Type.Object(
        {
          mechanism: Type.Union([Type.Literal('SCRAM-SHA-512'), Type.Literal('SCRAM-SHA-256')], { description: 'The mechanism of the applied credential.' }),
          salt: Type.String({ description: 'Random salt of the fingerprint.' }),
          fingerprint: Type.String({ description: 'HMAC of the applied password under the salt, to detect a rotation. Never the password.' }),
          clusterId: Type.Optional(Type.String({ description: 'The id of the Kafka cluster the credential was written to; another id (a rebuilt or restored cluster) makes the operator write it again.' })),
        },
        { description: 'What the operator last applied, to notice a changed password without storing it.' },
      ),
    ),
    credentialMechanisms: Type.Optional(
      Type.Array(Type.Union([Type.Literal('SCRAM-SHA-512'), Type.Literal('SCRAM-SHA-256')]), {
        maxItems: 2,
        description:
          'The SCRAM mechanisms the operator may have written a credential for, recorded before each write: after a change of mechanism only these are removed, never a credential someone else set.',
      }),
    ),
  },
  { description: 'KafkaUserStatus is what the operator last applied for the user.' },
);

/** The KafkaUser kind: `kafkausers.kafka.domain-operators.io`. */
export const kafkaUsers = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'KafkaUser',
  plural: 'kafkausers',
  singular: 'kafkauser',
  shortNames: ['ku'],
  categories: ['kafka'],
  scope: 'Namespaced',
  description: 'A KafkaUser is a SCRAM user of the Kafka cluster its KafkaConnection names, with its ACLs and quotas, managed by the kafka operator.',
  spec: KafkaUserSpec,
  status: KafkaUserStatus,
  printerColumns: [
    { name: 'Username', type: 'string', jsonPath: '.status.username' },
    { name: 'Secret', type: 'string', jsonPath: '.status.secretName', priority: 1 },
    conditionColumn(READY_CONDITION),
    conditionColumn(SYNCED_CONDITION, 'reason'),
  ],
  validations: [{ rule: 'has(self.username) == has(oldSelf.username)', message: 'username is immutable: it cannot be added or removed after creation', fieldPath: '.username' }],
});

/** A KafkaUser object. */
export type KafkaUser = ResourceOf<typeof kafkaUsers>;
/** The spec of a KafkaUser. */
export type KafkaUserSpec = Static<typeof KafkaUserSpec>;
/** The status of a KafkaUser. */
export type KafkaUserStatus = Static<typeof KafkaUserStatus>;
/** One ACL rule of a KafkaUser, as the apiserver stores it (defaults applied: `host`, `permission`, `patternType`). */
export type KafkaAclRule = Static<typeof AclRuleSchema>;
/** The quotas of a KafkaUser (`spec.quotas`): user-level keys and per-client-id entries. */
export type KafkaUserQuotas = NonNullable<KafkaUserSpec['quotas']>;
/** The user-level quota keys alone, without per-client-id entries: what a connection's defaults and ceiling hold. */
export type KafkaUserLevelQuotas = Omit<KafkaUserQuotas, 'clients'>;
/** The SASL/SCRAM mechanism of a KafkaUser, in the spec's spelling. */
export type ScramAuthenticationType = KafkaUserSpec['authentication']['type'];
