import type { KafkaConnectionSpec, KafkaTopicSpec, KafkaUserSpec } from '../api/v1alpha1/index.ts';

/**
 * The one table of Kafka tenancy cases (issue #20): every case is run through the chart's ValidatingAdmissionPolicies
 * in a real apiserver and through the operator's own checks (the reconcilers' name, ACL and quota checks), and both
 * must agree on it: admitted, or refused with a message containing `refused`. Each case is one namespace, one
 * KafkaConnection named {@link CASE_CONNECTION} (or none) and one KafkaTopic or KafkaUser. Data only.
 */

/** The name of the KafkaConnection every case's object refers to. */
export const CASE_CONNECTION = 'main';

/** The namespace every case's object lives in (a test renames it; messages are written for this name). */
export const CASE_NAMESPACE = 'team-a';

/** The object a case admits or refuses: a KafkaTopic or a KafkaUser, by `metadata.name` and spec. */
export type CaseObject =
  | { readonly kind: 'KafkaTopic'; readonly name: string; readonly spec: Omit<KafkaTopicSpec, 'connectionRef'> }
  | { readonly kind: 'KafkaUser'; readonly name: string; readonly spec: Omit<KafkaUserSpec, 'connectionRef'> };

/** One case of the table. */
export interface KafkaTenancyCase {
  /** What the case shows, as a test title. */
  readonly title: string;
  /** The connection's tenancy; `null` when the connection does not exist (then nothing is refused at admission). */
  readonly tenancy: KafkaConnectionSpec['tenancy'] | null;
  /** The labels of the namespace. */
  readonly namespaceLabels: Readonly<Record<string, string>>;
  readonly object: CaseObject;
  /** Absent: admitted. Otherwise the text both refusals contain (the policy's message and the operator's). */
  readonly refused?: string;
}

const tenant = { 'kafka.domain-operators.io/tenant': 'true' };
const prefixed = { namespaceSelector: { matchLabels: tenant }, namePrefix: '{namespace}.' };
const ceiling = { ...prefixed, maxUserQuotas: { producerByteRate: 1024, requestPercentage: 50 } };
const topic = (name: string, topicName?: string): CaseObject => ({ kind: 'KafkaTopic', name, spec: { partitions: 1, replicationFactor: 1, deletionPolicy: 'Retain', ...(topicName !== undefined && { topicName }) } });
const user = (name: string, spec: Partial<Omit<KafkaUserSpec, 'connectionRef' | 'authentication'>> = {}): CaseObject => ({
  kind: 'KafkaUser',
  name,
  spec: { authentication: { type: 'scram-sha-512' }, ...spec },
});
type Acl = NonNullable<KafkaUserSpec['acls']>[number];
const acl = (type: Acl['resource']['type'], name: string | undefined, patternType: 'literal' | 'prefixed', operations: Acl['operations'], permission: Acl['permission'] = 'allow'): Acl => ({
  resource: { type, ...(name !== undefined && { name }), patternType },
  operations,
  host: '*',
  permission,
});

/**
 * The cases; titles are unique. A refusal's text leaves out what only one side can say (the operator names the
 * offending list index, CEL cannot).
 */
export const KAFKA_TENANCY_CASES: readonly KafkaTenancyCase[] = [
  { title: 'a topic named by metadata.name gets the prefix and is admitted', tenancy: prefixed, namespaceLabels: tenant, object: topic('orders') },
  { title: 'an explicit topic name inside the prefix is admitted', tenancy: prefixed, namespaceLabels: tenant, object: topic('orders', 'team-a.orders-v2') },
  {
    title: 'an explicit topic name outside the prefix is refused',
    tenancy: prefixed,
    namespaceLabels: tenant,
    object: topic('orders', 'team-b.orders'),
    refused: 'topicName "team-b.orders" is outside this namespace\'s prefix: it must start with "team-a."',
  },
  { title: 'a topic name that is only the prefix is refused', tenancy: prefixed, namespaceLabels: tenant, object: topic('orders', 'team-a.'), refused: 'is only the prefix "team-a."' },
  {
    title: 'a namespace the connection does not select is refused',
    tenancy: prefixed,
    namespaceLabels: {},
    object: topic('orders'),
    refused: 'namespace "team-a" is not selected by KafkaConnection "main" (tenancy.namespaceSelector)',
  },
  {
    title: 'a namespace selected by matchExpressions is admitted',
    tenancy: { namespaceSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold', 'silver'] }, { key: 'frozen', operator: 'DoesNotExist' }] } },
    namespaceLabels: { tier: 'gold' },
    object: topic('orders'),
  },
  {
    title: 'a namespace that fails one of the matchExpressions is refused',
    tenancy: { namespaceSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold', 'silver'] }, { key: 'frozen', operator: 'DoesNotExist' }] } },
    namespaceLabels: { tier: 'gold', frozen: 'yes' },
    object: topic('orders'),
    refused: 'is not selected by KafkaConnection "main"',
  },
  { title: 'without tenancy any name is admitted', tenancy: {}, namespaceLabels: {}, object: topic('orders', 'anything.goes') },
  { title: 'an object whose connection does not exist is admitted (the operator reports ConnectionNotFound)', tenancy: null, namespaceLabels: {}, object: topic('orders', 'team-b.orders') },
  { title: 'a user with ACLs and quotas inside the rules is admitted', tenancy: ceiling, namespaceLabels: tenant, object: user('app', { acls: [acl('topic', 'team-a.orders', 'literal', ['Read', 'Write']), acl('group', 'team-a.', 'prefixed', ['Read']), acl('cluster', undefined, 'literal', ['IdempotentWrite'])], quotas: { producerByteRate: 1024, clients: [{ clientId: 'batch', requestPercentage: 50 }] } }) },
  {
    title: 'a username outside the prefix is refused',
    tenancy: prefixed,
    namespaceLabels: tenant,
    object: user('app', { username: 'team-b.app' }),
    refused: 'username "team-b.app" is outside this namespace\'s prefix: it must start with "team-a."',
  },
  { title: 'a literal "*" topic ACL is refused', tenancy: prefixed, namespaceLabels: tenant, object: user('app', { acls: [acl('topic', '*', 'literal', ['Read'])] }), refused: 'literal topic "*" ("*" means every resource of that type) is outside this namespace\'s prefix' },
  {
    title: 'a prefixed ACL without the separator is refused',
    tenancy: prefixed,
    namespaceLabels: tenant,
    object: user('app', { acls: [acl('group', 'team-a.g', 'literal', ['Read']), acl('topic', 'team-a', 'prefixed', ['Read'])] }),
    refused: 'prefixed topic "team-a" is outside this namespace\'s prefix: it must start with "team-a."',
  },
  {
    title: 'allowing Alter on the cluster is refused',
    tenancy: prefixed,
    namespaceLabels: tenant,
    object: user('app', { acls: [acl('cluster', undefined, 'literal', ['Alter', 'IdempotentWrite'])] }),
    refused: 'allowing Alter on the cluster reaches every tenant\'s resources',
  },
  { title: 'denying Alter on the cluster is admitted', tenancy: prefixed, namespaceLabels: tenant, object: user('app', { acls: [acl('cluster', undefined, 'literal', ['Alter'], 'deny')] }) },
  {
    title: 'a user-level quota above the ceiling is refused',
    tenancy: ceiling,
    namespaceLabels: tenant,
    object: user('app', { quotas: { producerByteRate: 2048 } }),
    refused: 'quotas.producerByteRate 2048 is above the ceiling 1024',
  },
  {
    title: 'a per-client-id quota above the ceiling is refused',
    tenancy: ceiling,
    namespaceLabels: tenant,
    object: user('app', { quotas: { clients: [{ clientId: 'ui', consumerByteRate: 1 }, { clientId: 'batch', requestPercentage: 75.5 }] } }),
    refused: '(clientId "batch").requestPercentage 75.5 is above the ceiling 50',
  },
  { title: 'a quota key the ceiling does not name is not limited', tenancy: ceiling, namespaceLabels: tenant, object: user('app', { quotas: { consumerByteRate: 1_000_000_000 } }) },
];
