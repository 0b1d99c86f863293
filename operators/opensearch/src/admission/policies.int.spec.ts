// The shared tables of OpenSearch tenancy cases through the chart's ValidatingAdmissionPolicies in the real apiserver
// (runAdmissionCases: a namespace and an OpenSearchConnection per table, the policies bound to those namespaces only,
// each object created with a server-side dry run). The verdicts must be those of the tables, which cases.spec.ts holds
// the operator's own checks to: so the two layers agree on every case.
import { adminClient, installCrds, runAdmissionCases } from '@domain-operators/e2e-harness';
import { caseDisagreements, resourceType } from '@domain-operators/reconcile';
import { expect, it } from 'vitest';
import { tenancyTables } from './cases.ts';
import { admissionPolicies } from './policies.ts';

const type = (kind: string, plural: string, namespaced = true) => resourceType({ group: 'opensearch.domain-operators.io', version: 'v1alpha1', kind, plural, namespaced });

it('the admission policies decide every case of the shared tables as they say (real apiserver, dry-run create)', async () => {
  const client = await adminClient();
  await installCrds(client, 'opensearch');
  const runs = await runAdmissionCases({
    client,
    policies: admissionPolicies,
    connection: { type: type('OpenSearchConnection', 'opensearchconnections', false), spec: { urls: ['https://opensearch.invalid:9200'], credentialsSecretRef: { namespace: 'default', name: 'none' } } },
    types: {
      OpenSearchIndex: type('OpenSearchIndex', 'opensearchindices'),
      OpenSearchIndexTemplate: type('OpenSearchIndexTemplate', 'opensearchindextemplates'),
      OpenSearchComponentTemplate: type('OpenSearchComponentTemplate', 'opensearchcomponenttemplates'),
      OpenSearchRole: type('OpenSearchRole', 'opensearchroles'),
      OpenSearchRoleBinding: type('OpenSearchRoleBinding', 'opensearchrolebindings'),
      OpenSearchUser: type('OpenSearchUser', 'opensearchusers'),
      OpenSearchActionGroup: type('OpenSearchActionGroup', 'opensearchactiongroups'),
      OpenSearchTenant: type('OpenSearchTenant', 'opensearchtenants'),
      OpenSearchDataStream: type('OpenSearchDataStream', 'opensearchdatastreams'),
      OpenSearchSnapshotPolicy: type('OpenSearchSnapshotPolicy', 'opensearchsnapshotpolicies'),
      OpenSearchSnapshotRestore: type('OpenSearchSnapshotRestore', 'opensearchsnapshotrestores'),
    },
    tables: tenancyTables,
  });
  expect(runs.flatMap((run, i) => caseDisagreements('admission', tenancyTables[i]?.cases ?? [], run.verdicts, run))).toEqual([]);
  // The policies name the connection that gives the prefix, which the operator's words leave out.
  const first = runs[0];
  expect(first?.verdicts.find((v) => v?.includes('is outside the prefix'))).toContain(`that OpenSearchConnection "${first?.connection ?? ''}" gives namespace "${first?.namespace ?? ''}"`);
}, 120_000);
