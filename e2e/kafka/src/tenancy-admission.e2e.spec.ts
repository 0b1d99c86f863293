// Tenancy at admission (issue #20), as a team meets it: `kubectl apply` of a KafkaTopic or KafkaUser outside its
// namespace's rules is refused by the chart's ValidatingAdmissionPolicy (server-side dry run and real apply) with the
// operator's words; the same objects inside the rules are admitted and become Ready; and with the chart switched to
// [Warn, Audit] an object outside the rules is admitted with a warning, the operator still refuses it with
// TenancyViolation, and nothing reaches Kafka. The policy and binding are the chart's, rendered by helm; the binding
// is narrowed to this run's namespaces so that nothing else on the shared cluster is judged by it.
import { adminClient, adminKubeconfig, eventually, freshNamespace, installChartAdmission, kstatusNow, kubectlApply, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { Applied, ChartAdmission, OperatorProcess } from '@domain-operators/e2e-harness';
import { isNotFound } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaTopics, kafkaUsers } from './api.ts';
import { cleanUp, createConnection, kafkaUnderTest, waitForReason } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';

const id = randomSuffix();
const connection = `e2e-adm-${id}`;
const runLabel = { 'kafka-admission-e2e': id };

let client: Client;
let kafka: KafkaInfo;
let checker: KafkaChecker;
let operator: OperatorProcess | undefined;
let admission: ChartAdmission | undefined;
let kubeconfig: string;
let tenant: string;
let outsider: string;
let policyName = '';

/** `kubectl apply [--dry-run=server] -f -` of `object`, as a team runs it. */
const kubectl = (object: object, dryRun: boolean): Promise<Applied> => kubectlApply(kubeconfig, object, { dryRun });

const topic = (namespace: string, name: string, topicName?: string) => ({
  apiVersion: kafkaTopics.apiVersion,
  kind: 'KafkaTopic',
  metadata: { namespace, name },
  spec: { connectionRef: { name: connection }, partitions: 1, replicationFactor: 1, deletionPolicy: 'Delete', ...(topicName !== undefined && { topicName }) },
});
const user = (namespace: string, name: string, spec: Record<string, unknown>) => ({
  apiVersion: kafkaUsers.apiVersion,
  kind: 'KafkaUser',
  metadata: { namespace, name },
  spec: { connectionRef: { name: connection }, authentication: { type: 'scram-sha-512' }, ...spec },
});

beforeAll(async () => {
  client = await adminClient();
  kafka = await kafkaUnderTest();
  checker = new KafkaChecker(kafka);
  kubeconfig = await adminKubeconfig();
  tenant = await freshNamespace({ ...runLabel, 'kafka.domain-operators.io/tenant': id }, 'e2e-adm');
  outsider = await freshNamespace({ ...runLabel }, 'e2e-adm-out');
  await createConnection(client, kafka, {
    name: connection,
    secretNamespace: tenant,
    tenancy: { namespaceSelector: { matchLabels: { 'kafka.domain-operators.io/tenant': id } }, namePrefix: '{namespace}.', maxUserQuotas: { producerByteRate: 1_048_576 } },
  });
  admission = await installChartAdmission({ client, system: 'kafka', release: `adm-${id}`, namespaceLabels: runLabel });
  expect(admission.bindings.map((b) => b.spec['validationActions'])).toEqual([['Deny']]);
  policyName = admission.names[0] ?? '';
  // The apiserver's policy and parameter caches: wait until the policy refuses.
  await eventually(async () => ((await kubectl(topic(tenant, 'probe', 'elsewhere.probe'), true)).ok ? undefined : true), { timeoutMs: 30_000, what: 'the admission policy in effect' });
  operator = await startOperator({ system: 'kafka' });
});

afterAll(async () => {
  for (const namespace of [tenant, outsider]) {
    for (const type of [kafkaTopics.type, kafkaUsers.type] as ResourceType[]) {
      for (const object of await client.listAll(type, { namespace }).catch(() => [])) await client.delete(type, { namespace, name: object.metadata?.name ?? '' }).catch(() => undefined);
    }
  }
  await eventually(async () => ((await client.listAll(kafkaTopics.type, { namespace: tenant })).length === 0 ? true : undefined), { timeoutMs: 60_000, what: 'topics deleted through the operator' }).catch(() => undefined);
  await operator?.stop();
  await admission?.remove();
  await checker.close();
  await cleanUp(client, [tenant, outsider], [connection]);
});

describe('tenancy at kubectl apply', () => {
  it('refuses, at server-side dry run and at real apply, each object outside the rules with the operator\u2019s words', async () => {
    const refusals: [object, string][] = [
      [topic(tenant, 'orders', 'team-b.orders'), `topicName "team-b.orders" is outside this namespace's prefix: it must start with "${tenant}." (KafkaConnection "${connection}")`],
      [topic(outsider, 'orders'), `namespace "${outsider}" is not selected by KafkaConnection "${connection}" (tenancy.namespaceSelector)`],
      [user(tenant, 'thief', { acls: [{ resource: { type: 'topic', name: '*', patternType: 'literal' }, operations: ['Read'] }] }), `acls: literal topic "*" ("*" means every resource of that type) is outside this namespace's prefix`],
      [user(tenant, 'greedy', { quotas: { producerByteRate: 10_485_760 } }), 'quotas.producerByteRate 10485760 is above the ceiling 1048576'],
    ];
    for (const [object, message] of refusals) {
      for (const dryRun of [true, false]) {
        const applied = await kubectl(object, dryRun);
        expect(applied.ok, applied.output).toBe(false);
        // What a person sees (the docs show one).
        if (dryRun) console.info(applied.output.trim());
        expect(applied.output).toContain(`ValidatingAdmissionPolicy '${policyName}' with binding '${policyName}' denied request: `);
        expect(applied.output).toContain(message);
      }
    }
    // Nothing was created, so nothing reached the operator either.
    expect(await client.listAll(kafkaTopics.type, { namespace: tenant })).toEqual([]);
    expect(await client.listAll(kafkaTopics.type, { namespace: outsider })).toEqual([]);
    expect(await client.listAll(kafkaUsers.type, { namespace: tenant })).toEqual([]);
  });

  it('admits the same objects inside the rules, and the operator makes them Ready', async () => {
    const inside = [topic(tenant, 'orders', `${tenant}.orders`), user(tenant, 'app', { acls: [{ resource: { type: 'topic', name: `${tenant}.orders`, patternType: 'literal' }, operations: ['Read'] }], quotas: { producerByteRate: 1_048_576 } })];
    for (const object of inside) {
      expect((await kubectl(object, true)).ok).toBe(true);
      const applied = await kubectl(object, false);
      expect(applied.ok, applied.output).toBe(true);
      expect(applied.output).not.toContain('Warning');
    }
    await waitForCondition(client, kafkaTopics.type, { namespace: tenant, name: 'orders' }, 'Ready', 'True', 60_000);
    await waitForCondition(client, kafkaUsers.type, { namespace: tenant, name: 'app' }, 'Ready', 'True', 60_000);
    expect(await checker.topic(`${tenant}.orders`)).toEqual({ partitions: 1, replicationFactor: 1 });
  });

  it('with the chart on [Warn, Audit], admits with a warning, and the operator still refuses with TenancyViolation and creates nothing in Kafka', async () => {
    await admission?.setValidationActions(['Warn', 'Audit']);
    const object = topic(tenant, 'stray', 'team-b.stray');
    await eventually(async () => ((await kubectl(object, true)).ok ? true : undefined), { timeoutMs: 30_000, what: 'the binding switched to Warn' });
    const applied = await kubectl(object, false);
    expect(applied.ok, applied.output).toBe(true);
    expect(applied.output).toContain(`Warning: Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${policyName}': topicName "team-b.stray" is outside this namespace's prefix`);
    const message = await waitForReason(client, kafkaTopics.type, { namespace: tenant, name: 'stray' }, { type: 'Synced', status: 'False', reason: 'TenancyViolation' });
    expect(message).toContain(`topicName "team-b.stray" is outside this namespace's prefix: it must start with "${tenant}."`);
    expect(await checker.topic('team-b.stray')).toBeUndefined();
    // A refusal that waits for a change: Failed for Flux and kpt at once, not InProgress until their timeout.
    expect((await kstatusNow(client, [object], () => kafkaTopics.type, 'Failed')).others).toEqual([]);
  });

  it('back on [Deny], lets a label change and the deletion of an object admitted under Warn through, and refuses a change of its spec', async () => {
    await admission?.setValidationActions(['Deny']);
    await eventually(async () => ((await kubectl(topic(tenant, 'probe2', 'elsewhere.probe2'), true)).ok ? undefined : true), { timeoutMs: 30_000, what: 'the binding back on Deny' });
    const request = { namespace: tenant, name: 'stray' };
    await client.patch(kafkaTopics.type, request, { type: 'merge', body: { metadata: { labels: { team: 'b' } } } });
    const changed = await kubectl({ ...topic(tenant, 'stray', 'team-b.stray'), spec: { ...topic(tenant, 'stray', 'team-b.stray').spec, partitions: 2 } }, false);
    expect(changed.ok, changed.output).toBe(false);
    expect(changed.output).toContain('topicName "team-b.stray" is outside this namespace\'s prefix');
    // The operator's finalizer comes off through the policy: the object is released.
    await client.delete(kafkaTopics.type, request);
    await eventually(async () => (await client.get(kafkaTopics.type, request).then(() => undefined, (err: unknown) => (isNotFound(err) ? true : undefined))), { timeoutMs: 60_000, what: 'the stray KafkaTopic deleted' });
    expect(await checker.topic('team-b.stray')).toBeUndefined();
  });
});
