// The OpenSearch operator's tenancy rules at admission (issue #20, ADR 0029): the part of opensearch/tenancy.ts that
// needs only the object, its namespace and its connection, as ValidatingAdmissionPolicies. The operator's checks
// stay the guarantee; cases.ts holds the table both layers are tested against.
import { celRenderedPrefix, celSelectorMatches, defineConnectionPolicy } from '@domain-operators/reconcile';
import type { AdmissionVariable, AdmissionPolicy } from '@domain-operators/reconcile';

const GROUP = 'opensearch.domain-operators.io';
const CONNECTION = { apiVersion: `${GROUP}/v1alpha1`, kind: 'OpenSearchConnection' } as const;
const PREFIX: AdmissionVariable = { name: 'prefix', expression: celRenderedPrefix('params.spec.tenancy.indexPrefix') };
const GIVES = `"\\" that OpenSearchConnection \\"" + params.metadata.name + "\\" gives namespace \\"" + request.namespace + "\\""`;

/** Every namespaced kind must come from a namespace the connection's `tenancy.namespaceSelector` selects. */
const namespaceSelected = defineConnectionPolicy({
  name: 'opensearch-namespace-selected',
  group: GROUP,
  resources: ['opensearchindices', 'opensearchindextemplates', 'opensearchcomponenttemplates', 'opensearchroles', 'opensearchrolebindings', 'opensearchusers', 'opensearchactiongroups', 'opensearchtenants', 'opensearchdatastreams'],
  connection: CONNECTION,
  validations: [
    {
      expression: celSelectorMatches('params.spec.tenancy.namespaceSelector', 'namespaceObject.metadata.labels'),
      messageExpression: `"namespace \\"" + request.namespace + "\\" is not selected by OpenSearchConnection \\"" + params.metadata.name + "\\" (tenancy.namespaceSelector)"`,
    },
  ],
});

/** An index's name (`spec.indexName`, else prefix + metadata.name) starts with the prefix. */
const indexName = defineConnectionPolicy({
  name: 'opensearch-index-name',
  group: GROUP,
  resources: ['opensearchindices'],
  connection: CONNECTION,
  variables: [PREFIX, { name: 'name', expression: 'has(object.spec.indexName) ? object.spec.indexName : variables.prefix + object.metadata.name' }],
  validations: [
    {
      expression: 'variables.name.startsWith(variables.prefix)',
      messageExpression: `"index name \\"" + variables.name + "\\" is outside the prefix \\"" + variables.prefix + ${GIVES}`,
    },
  ],
});

/** A role's index patterns start with the prefix literally (an empty prefix: no rule). */
const roleIndexPatterns = defineConnectionPolicy({
  name: 'opensearch-role-index-patterns',
  group: GROUP,
  resources: ['opensearchroles'],
  connection: CONNECTION,
  variables: [
    PREFIX,
    {
      name: 'outside',
      expression: 'variables.prefix == "" || !has(object.spec.indexPermissions) ? [] : object.spec.indexPermissions.filter(p, p.indexPatterns.exists(x, !x.startsWith(variables.prefix)))',
    },
  ],
  validations: [
    {
      expression: 'size(variables.outside) == 0',
      messageExpression: `"index pattern \\"" + variables.outside[0].indexPatterns.filter(x, !x.startsWith(variables.prefix))[0] + "\\" is outside the prefix \\"" + variables.prefix + ${GIVES}`,
    },
  ],
});

/** An internal user's backend roles start with the prefix (a backend role is a claim role mappings honour). */
const userBackendRoles = defineConnectionPolicy({
  name: 'opensearch-user-backend-roles',
  group: GROUP,
  resources: ['opensearchusers'],
  connection: CONNECTION,
  variables: [PREFIX, { name: 'outside', expression: 'has(object.spec.backendRoles) ? object.spec.backendRoles.filter(r, !r.startsWith(variables.prefix)) : []' }],
  validations: [
    {
      expression: 'size(variables.outside) == 0',
      messageExpression: `"backend role \\"" + variables.outside[0] + "\\" is outside the prefix \\"" + variables.prefix + ${GIVES}`,
    },
  ],
});

/** The policies rendered into charts/opensearch-operator/templates/admission-policies.yaml. */
export const admissionPolicies: readonly AdmissionPolicy[] = [namespaceSelected, indexName, roleIndexPatterns, userBackendRoles];
