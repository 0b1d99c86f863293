import { adminClient, installCrds, runAdmissionCases } from '@domain-operators/e2e-harness';
import { caseDisagreements, resourceType } from '@domain-operators/reconcile';
import { expect, it } from 'vitest';
import { tenancyCases } from './cases.ts';
import { admissionPolicies } from './policies.ts';

const type = (kind: string, plural: string, namespaced = true) => resourceType({ group: 'opensearch.domain-operators.io', version: 'v1alpha1', kind, plural, namespaced });

it('the admission policies decide every case of the shared table as the table says (real apiserver, dry-run create)', async () => {
  const client = await adminClient();
  await installCrds(client, 'opensearch');
  const [run] = await runAdmissionCases({
    client,
    policies: admissionPolicies,
    connection: { type: type('OpenSearchConnection', 'opensearchconnections', false), spec: { urls: ['https://opensearch.invalid:9200'], credentialsSecretRef: { namespace: 'default', name: 'none' } } },
    types: { OpenSearchIndex: type('OpenSearchIndex', 'opensearchindices'), OpenSearchRole: type('OpenSearchRole', 'opensearchroles'), OpenSearchUser: type('OpenSearchUser', 'opensearchusers') },
    tables: [tenancyCases],
  });
  if (run === undefined) throw new Error('no run');
  expect(caseDisagreements('admission', tenancyCases.cases, run.verdicts, run)).toEqual([]);
  expect(run.verdicts.find((v) => v !== undefined)).toContain(`that OpenSearchConnection "${run.connection}" gives namespace "${run.namespace}"`);
}, 90_000);
