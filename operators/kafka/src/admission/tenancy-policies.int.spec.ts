// The shared tables of tenancy cases through the chart's ValidatingAdmissionPolicy in the real apiserver
// (runAdmissionCases: a namespace and a KafkaConnection per table, the policy bound to those namespaces only, each
// object created with a server-side dry run). The verdicts must be those of the tables, which tenancy-cases.spec.ts
// holds the operator's own checks to: so the two layers agree on every case.
import { runAdmissionCases } from '@domain-operators/e2e-harness';
import { caseDisagreements } from '@domain-operators/reconcile';
import { expect, it } from 'vitest';
import { kafkaConnections, kafkaTopics, kafkaUsers } from '../api/v1alpha1/index.ts';
import { adminCluster, installCrds } from '../test-support.int.ts';
import { admissionPolicies } from './policies.ts';
import { KAFKA_TENANCY_TABLES } from './tenancy-cases.ts';

it('the admission policy decides every case of the shared tables as they say (real apiserver, dry-run create)', async () => {
  const { client } = await adminCluster();
  await installCrds(client);
  const runs = await runAdmissionCases({
    client,
    policies: admissionPolicies,
    connection: { type: kafkaConnections.type, spec: { bootstrapServers: ['kafka:9092'] } },
    types: { KafkaTopic: kafkaTopics.type, KafkaUser: kafkaUsers.type },
    tables: KAFKA_TENANCY_TABLES,
  });
  const disagreements = runs.flatMap((run, i) => caseDisagreements('admission', KAFKA_TENANCY_TABLES[i]?.cases ?? [], run.verdicts, run));
  expect(disagreements).toEqual([]);
  expect(runs.flatMap((run) => run.verdicts)).toHaveLength(KAFKA_TENANCY_TABLES.flatMap((table) => table.cases).length);
}, 120_000);
