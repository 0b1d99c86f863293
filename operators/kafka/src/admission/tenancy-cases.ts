// The Kafka tenancy cases (issue #20): every case is run through the chart's ValidatingAdmissionPolicy in a real
// apiserver (tenancy-policies.int.spec.ts) and through the operator's own checks (the reconcilers' name, ACL and
// quota checks, tenancy-cases.spec.ts), and both must agree on it: admitted, or refused with a message containing
// `refused`. A table is one namespace with its labels and one KafkaConnection with its tenancy. Data only.
import type { AdmissionCase, AdmissionCaseTable } from '@domain-operators/reconcile';
import type { KafkaTopicSpec, KafkaUserSpec } from '../api/v1alpha1/index.ts';

/** A case's spec: the kind's, with `connectionRef` only where the case names another connection than its table's. */
type CaseSpec<Spec extends { connectionRef: unknown }> = Omit<Spec, 'connectionRef'> & { readonly connectionRef?: Spec['connectionRef'] };

/** One case: a KafkaTopic or a KafkaUser, by `metadata.name` and spec. */
export type KafkaTenancyCase = (AdmissionCase<CaseSpec<KafkaTopicSpec>> & { readonly kind: 'KafkaTopic' }) | (AdmissionCase<CaseSpec<KafkaUserSpec>> & { readonly kind: 'KafkaUser' });

const tenant = { 'kafka.domain-operators.io/tenant': 'true' };
const prefixed = { namespaceSelector: { matchLabels: tenant }, namePrefix: '{namespace}.' };
const ceiling = { ...prefixed, maxUserQuotas: { producerByteRate: 1024, requestPercentage: 50 } };
const tiers = { namespaceSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold', 'silver'] }, { key: 'frozen', operator: 'DoesNotExist' }] } };

const topic = (title: string, topicName?: string, refused?: string, extra: Partial<CaseSpec<KafkaTopicSpec>> = {}): KafkaTenancyCase => ({
  title,
  kind: 'KafkaTopic',
  name: 'orders',
  spec: { partitions: 1, replicationFactor: 1, deletionPolicy: 'Retain', ...(topicName !== undefined && { topicName }), ...extra },
  ...(refused !== undefined && { refused }),
});
const user = (title: string, spec: Partial<Omit<KafkaUserSpec, 'connectionRef' | 'authentication'>>, refused?: string): KafkaTenancyCase => ({
  title,
  kind: 'KafkaUser',
  name: 'app',
  spec: { authentication: { type: 'scram-sha-512' }, ...spec },
  ...(refused !== undefined && { refused }),
});
type Acl = NonNullable<KafkaUserSpec['acls']>[number];
const acl = (type: Acl['resource']['type'], name: string | undefined, patternType: 'literal' | 'prefixed', operations: Acl['operations'], permission: Acl['permission'] = 'allow'): Acl => ({
  resource: { type, ...(name !== undefined && { name }), patternType },
  operations,
  host: '*',
  permission,
});

/**
 * The tables; titles are unique across them. A refusal's text leaves out what only one side can say (the operator
 * names the offending list index, CEL cannot).
 */
export const KAFKA_TENANCY_TABLES: readonly AdmissionCaseTable<KafkaTenancyCase>[] = [
  {
    tenancy: prefixed,
    namespaceLabels: tenant,
    cases: [
      topic('a topic named by metadata.name gets the prefix and is admitted'),
      topic('an explicit topic name inside the prefix is admitted', '{ns}.orders-v2'),
      topic('an explicit topic name outside the prefix is refused', 'team-b.orders', 'topicName "team-b.orders" is outside this namespace\'s prefix: it must start with "{ns}."'),
      topic('a topic name that is only the prefix is refused', '{ns}.', 'is only the prefix "{ns}."'),
      topic('an object whose connection does not exist is admitted (the operator reports ConnectionNotFound)', 'team-b.orders', undefined, { connectionRef: { name: 'no-such-connection' } }),
      user('a username outside the prefix is refused', { username: 'team-b.app' }, 'username "team-b.app" is outside this namespace\'s prefix: it must start with "{ns}."'),
      user('a literal "*" topic ACL is refused', { acls: [acl('topic', '*', 'literal', ['Read'])] }, 'literal topic "*" ("*" means every resource of that type) is outside this namespace\'s prefix'),
      user(
        'a prefixed ACL without the separator is refused',
        { acls: [acl('group', '{ns}.g', 'literal', ['Read']), acl('topic', '{ns}', 'prefixed', ['Read'])] },
        'prefixed topic "{ns}" is outside this namespace\'s prefix: it must start with "{ns}."',
      ),
      user('allowing Alter on the cluster is refused', { acls: [acl('cluster', undefined, 'literal', ['Alter', 'IdempotentWrite'])] }, 'allowing Alter on the cluster reaches every tenant\'s resources'),
      user('denying Alter on the cluster is admitted', { acls: [acl('cluster', undefined, 'literal', ['Alter'], 'deny')] }),
    ],
  },
  {
    tenancy: prefixed,
    namespaceLabels: {},
    cases: [topic('a namespace the connection does not select is refused', undefined, 'namespace "{ns}" is not selected by KafkaConnection "{connection}" (tenancy.namespaceSelector)')],
  },
  { tenancy: tiers, namespaceLabels: { tier: 'gold' }, cases: [topic('a namespace selected by matchExpressions is admitted')] },
  {
    tenancy: tiers,
    namespaceLabels: { tier: 'gold', frozen: 'yes' },
    cases: [topic('a namespace that fails one of the matchExpressions is refused', undefined, 'is not selected by KafkaConnection "{connection}"')],
  },
  { tenancy: {}, namespaceLabels: {}, cases: [topic('without tenancy any name is admitted', 'anything.goes')] },
  {
    tenancy: ceiling,
    namespaceLabels: tenant,
    cases: [
      user('a user with ACLs and quotas inside the rules is admitted', {
        acls: [acl('topic', '{ns}.orders', 'literal', ['Read', 'Write']), acl('group', '{ns}.', 'prefixed', ['Read']), acl('cluster', undefined, 'literal', ['IdempotentWrite'])],
        quotas: { producerByteRate: 1024, clients: [{ clientId: 'batch', requestPercentage: 50 }] },
      }),
      user('a user-level quota above the ceiling is refused', { quotas: { producerByteRate: 2048 } }, 'quotas.producerByteRate 2048 is above the ceiling 1024'),
      user(
        'a per-client-id quota above the ceiling is refused',
        { quotas: { clients: [{ clientId: 'ui', consumerByteRate: 1 }, { clientId: 'batch', requestPercentage: 75.5 }] } },
        '(clientId "batch").requestPercentage 75.5 is above the ceiling 50',
      ),
      user('a quota key the ceiling does not name is not limited', { quotas: { consumerByteRate: 1_000_000_000 } }),
    ],
  },
];
