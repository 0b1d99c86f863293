// The shared table of tenancy cases through the chart's ValidatingAdmissionPolicy in the real apiserver: every case
// gets its own namespace and KafkaConnection, the policy is bound to this run's namespaces only, and each object is
// created with a server-side dry run. The verdicts must be those of the table, which tenancy-cases.spec.ts holds the
// operator's own checks to: so the two layers agree on every case.
import type { V1ValidatingAdmissionPolicy, V1ValidatingAdmissionPolicyBinding } from '@kubernetes/client-node';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaConnections, kafkaTopics, kafkaUsers } from '../api/v1alpha1/index.ts';
import type { KafkaConnection, KafkaTopic, KafkaUser } from '../api/v1alpha1/index.ts';
import { adminCluster, deleteIfExists, eventually, freshNamespace, installCrds, suffix } from '../test-support.int.ts';
import { kafkaTenancyPolicies } from './policies.ts';
import { CASE_CONNECTION, CASE_NAMESPACE, KAFKA_TENANCY_CASES } from './tenancy-cases.ts';
import type { KafkaTenancyCase } from './tenancy-cases.ts';

const policies = resourceType<V1ValidatingAdmissionPolicy>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', namespaced: false });
const bindings = resourceType<V1ValidatingAdmissionPolicyBinding>({
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  namespaced: false,
});

let client: Client;
const run = suffix();
const runLabel = { 'kafka-admission-int': run };
const policyName = `kafka-tenancy-int-${run}`;
/** Per case: its namespace and its connection's name. */
const placed = new Map<string, { namespace: string; connection: string }>();

beforeAll(async () => {
  client = (await adminCluster()).client;
  await installCrds(client);
  // Bound to this run's namespaces only, so other suites on the shared cluster are not affected.
  const [policy, binding] = kafkaTenancyPolicies({ name: policyName, namespaceSelector: { matchLabels: runLabel } });
  await client.create(policies, policy);
  await client.create(bindings, binding);
  for (const [index, c] of KAFKA_TENANCY_CASES.entries()) {
    const namespace = await freshNamespace(client, `adm-${index}`, { ...c.namespaceLabels, ...runLabel });
    const connection = `adm-${index}-${run}`;
    placed.set(c.title, { namespace, connection });
    if (c.tenancy === null) continue;
    const spec: KafkaConnection['spec'] = { bootstrapServers: ['kafka:9092'], ...(c.tenancy !== undefined && { tenancy: c.tenancy }) };
    await client.create(kafkaConnections.type, { apiVersion: kafkaConnections.apiVersion, kind: 'KafkaConnection', metadata: { name: connection }, spec });
  }
  // The apiserver reads the binding and the parameters (connections) from its own caches: wait until every refused
  // case is refused, so that an admitted case below proves something.
  await eventually(
    async () => {
      const verdicts = await Promise.all(KAFKA_TENANCY_CASES.filter((c) => c.refused !== undefined).map(async (c) => (await apiserverVerdict(c)).includes(expectedText(c) ?? '')));
      return verdicts.every(Boolean);
    },
    30_000,
    'the admission policy in effect with every connection',
  ).catch(() => undefined);
}, 600_000);

afterAll(async () => {
  await deleteIfExists(client, bindings, undefined, policyName);
  await deleteIfExists(client, policies, undefined, policyName);
  for (const { namespace, connection } of placed.values()) {
    await deleteIfExists(client, kafkaConnections.type, undefined, connection);
    await deleteIfExists(client, coreTypes.namespace, undefined, namespace);
  }
});

/** The apiserver's verdict on the case's object, by server-side dry run: `admitted`, or the refusal's message. */
async function apiserverVerdict(c: KafkaTenancyCase): Promise<string> {
  const where = placed.get(c.title);
  if (where === undefined) throw new Error(`case ${c.title} was not set up`);
  const metadata = { name: c.object.name, namespace: where.namespace };
  const connectionRef = { name: where.connection };
  // The case's names are written for namespace team-a: in this run's namespace they read the same.
  const object = JSON.parse(JSON.stringify(c.object).replaceAll(CASE_NAMESPACE, where.namespace)) as KafkaTenancyCase['object'];
  try {
    if (object.kind === 'KafkaTopic') {
      const topic: KafkaTopic = { apiVersion: kafkaTopics.apiVersion, kind: 'KafkaTopic', metadata, spec: { ...object.spec, connectionRef } };
      await client.create(kafkaTopics.type, topic, { dryRun: true });
    } else {
      const user: KafkaUser = { apiVersion: kafkaUsers.apiVersion, kind: 'KafkaUser', metadata, spec: { ...object.spec, connectionRef } };
      await client.create(kafkaUsers.type, user, { dryRun: true });
    }
    return 'admitted';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The case's expected text with the names this run uses for the namespace and the connection. */
function expectedText(c: KafkaTenancyCase): string | undefined {
  const where = placed.get(c.title);
  if (c.refused === undefined || where === undefined) return undefined;
  return c.refused.replaceAll(CASE_NAMESPACE, where.namespace).replaceAll(`"${CASE_CONNECTION}"`, `"${where.connection}"`);
}

describe('the shared Kafka tenancy cases, through the admission policy in the real apiserver', () => {
  it.each(KAFKA_TENANCY_CASES.map((c) => [c.title, c] as const))('%s', async (_title, c) => {
    const expected = expectedText(c);
    const verdict = await apiserverVerdict(c);
    if (expected === undefined) expect(verdict).toBe('admitted');
    else expect(verdict).toContain(expected);
  });
});
