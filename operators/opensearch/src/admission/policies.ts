// The OpenSearch operator's tenancy rules at admission (issue #20, ADR 0029): the part of opensearch/tenancy.ts that
// needs only the object, its namespace and its connection, as ValidatingAdmissionPolicies (the CEL is built by
// tenancy-cel.ts from the same constants). One policy refuses a namespace the connection does not select; one policy
// per kind refuses, in a selected namespace, what the kind's reconciler refuses with TenancyViolation before it asks
// OpenSearch. Left to the operator: other namespaces' overlapping prefixes, OpenSearch's reserved/static/hidden
// flags, and what needs another object (a snapshot repository's namespaceSelector, a role binding's OpenSearchRole,
// a restore's snapshot). The operator's checks stay the guarantee; cases.ts holds the tables both layers are tested
// against.
import { celPresent, celSelectorMatches, defineConnectionPolicy } from '@domain-operators/reconcile';
import type { AdmissionPolicy, AdmissionValidation, CustomResourceKind } from '@domain-operators/reconcile';
import {
  customResources,
  openSearchActionGroups,
  openSearchComponentTemplates,
  openSearchConnections,
  openSearchDataStreams,
  openSearchIndexTemplates,
  openSearchIndices,
  openSearchRoleBindings,
  openSearchRoles,
  openSearchSnapshotPolicies,
  openSearchSnapshotRestores,
  openSearchTenants,
  openSearchUsers,
} from '../api/v1alpha1/index.ts';
import type { NamedKind } from '../opensearch/tenancy.ts';
import { celClusterPermissionProblem, celLet, celNameProblem, celPatternProblem, celProtectedProblem, celQuoted, listRule, mapKeysRule, nestedListRule, PREFIX_VARIABLES } from './tenancy-cel.ts';

const GROUP = openSearchConnections.type.group;
const CONNECTION = { apiVersion: openSearchConnections.apiVersion, kind: openSearchConnections.kind };
const SELECTED = celSelectorMatches('params.spec.tenancy.namespaceSelector', 'namespaceObject.metadata.labels');

/** The namespaced kinds' plurals: every one of them names a connection and is judged by the namespace's tenancy on it. */
const RESOURCES = customResources.filter((kind) => kind.type.namespaced).map((kind) => kind.type.plural);

/** Every namespaced kind must come from a namespace the connection's `tenancy.namespaceSelector` selects. */
const namespaceSelected = defineConnectionPolicy({
  name: 'opensearch-namespace-selected',
  group: GROUP,
  resources: RESOURCES,
  connection: CONNECTION,
  validations: [
    {
      expression: SELECTED,
      messageExpression: `"namespace \\"" + request.namespace + "\\" is not selected by OpenSearchConnection \\"" + params.metadata.name + "\\" (tenancy.namespaceSelector)"`,
    },
  ],
});

/** What one kind's policy checks: its OpenSearch name (when it has one) and its other rules, in the reconciler's order. */
interface KindRules {
  /** The policy's name, `opensearch-<kind>`. */
  readonly policy: string;
  readonly resource: CustomResourceKind;
  /** The kind as the operator's messages name it, and the spec field of an explicit name (else prefix + metadata.name). */
  readonly name?: { readonly kind: NamedKind; readonly field: string };
  readonly validations: readonly AdmissionValidation[];
}

/**
 * A kind's policy: judged only in a namespace the connection selects (`opensearch-namespace-selected` refuses the
 * others), with the prefix variables and, for a named kind, `variables.name` (the name the operator resolves) and its
 * problem checked first.
 */
function kindPolicy(rules: KindRules): AdmissionPolicy {
  const { name } = rules;
  const named =
    name === undefined
      ? { variables: [], validations: [] }
      : {
          variables: [
            { name: 'name', expression: `has(object.spec.${name.field}) ? object.spec.${name.field} : variables.prefix + object.metadata.name` },
            { name: 'nameProblem', expression: celNameProblem(name.kind, 'variables.name') },
          ],
          validations: [{ expression: 'variables.nameProblem == ""', messageExpression: 'variables.nameProblem' }],
        };
  return defineConnectionPolicy({
    name: rules.policy,
    group: GROUP,
    resources: [rules.resource.type.plural],
    connection: CONNECTION,
    variables: [{ name: 'selected', expression: SELECTED }, ...PREFIX_VARIABLES, ...named.variables],
    when: 'variables.selected',
    validations: [...named.validations, ...rules.validations],
  });
}

/** The alias rule of an index, or of a template (`{index}…` aliases name the index being created: always inside). */
function aliasRule(map: string, field: string, indexPlaceholder: boolean): AdmissionValidation {
  return mapKeysRule(map, (k) => (indexPlaceholder ? `${k}.startsWith("{index}") ? "" : (${celNameProblem('alias', k, field)})` : celNameProblem('alias', k, field)));
}

const index = kindPolicy({ policy: 'opensearch-index', resource: openSearchIndices, name: { kind: 'index', field: 'indexName' }, validations: [aliasRule('object.spec.aliases', 'aliases', false)] });

const indexTemplate = kindPolicy({
  policy: 'opensearch-index-template',
  resource: openSearchIndexTemplates,
  name: { kind: 'index template', field: 'templateName' },
  validations: [listRule('object.spec.indexPatterns', 'indexPatterns', celPatternProblem), aliasRule('object.spec.template.aliases', 'template.aliases', true)],
});

const componentTemplate = kindPolicy({
  policy: 'opensearch-component-template',
  resource: openSearchComponentTemplates,
  name: { kind: 'component template', field: 'templateName' },
  validations: [aliasRule('object.spec.template.aliases', 'template.aliases', true)],
});

const role = kindPolicy({
  policy: 'opensearch-role',
  resource: openSearchRoles,
  name: { kind: 'role', field: 'roleName' },
  validations: [
    listRule('object.spec.clusterPermissions', 'clusterPermissions', (x) => celClusterPermissionProblem(x, 'for a namespace')),
    nestedListRule('object.spec.indexPermissions', 'indexPermissions', 'indexPatterns', celPatternProblem),
    nestedListRule('object.spec.tenantPermissions', 'tenantPermissions', 'tenantPatterns', celPatternProblem),
  ],
});

const roleBinding = kindPolicy({
  policy: 'opensearch-role-binding',
  resource: openSearchRoleBindings,
  validations: [
    {
      expression: `!has(object.spec.externalRole) || (${celPresent('params.spec.tenancy.bindableRoles')} && object.spec.externalRole in params.spec.tenancy.bindableRoles)`,
      messageExpression: `"externalRole " + ${celQuoted('object.spec.externalRole')} + " is not listed in the connection's tenancy.bindableRoles"`,
    },
    { expression: `!has(object.spec.externalRole) || (${celLet('r', 'object.spec.externalRole', celProtectedProblem('role', 'r'))}) == ""`, messageExpression: celLet('r', 'object.spec.externalRole', celProtectedProblem('role', 'r')) },
    listRule('object.spec.users', 'users', (u) => `!${u}.startsWith(variables.prefix) ? ${celQuoted(u)} + " is outside " + variables.thePrefix : ""`),
  ],
});

const user = kindPolicy({
  policy: 'opensearch-user',
  resource: openSearchUsers,
  name: { kind: 'user', field: 'username' },
  validations: [
    {
      expression: `!has(object.spec.backendRoles) || !object.spec.backendRoles.exists(r, (${celProtectedProblem('backend role', 'r')}) != "")`,
      messageExpression: `object.spec.backendRoles.map(r, ${celProtectedProblem('backend role', 'r')}).filter(s, s != "")[0]`,
    },
    listRule('object.spec.backendRoles', 'backendRoles', (r) => `!${r}.startsWith(variables.prefix) ? ${celQuoted(r)} + " is outside " + variables.thePrefix : ""`),
  ],
});

const actionGroup = kindPolicy({
  policy: 'opensearch-action-group',
  resource: openSearchActionGroups,
  name: { kind: 'action group', field: 'name' },
  validations: [
    ((rule) => ({ expression: `object.spec.type != "cluster" || (${rule.expression})`, messageExpression: rule.messageExpression }))(
      listRule('object.spec.allowedActions', 'allowedActions', (x) => celClusterPermissionProblem(x, 'in a cluster action group of a namespace')),
    ),
  ],
});

const tenant = kindPolicy({
  policy: 'opensearch-tenant',
  resource: openSearchTenants,
  name: { kind: 'tenant', field: 'name' },
  // The name's syntax and prefix first (`resolveName`), then, as the adapter refuses before any write, a protected name.
  validations: [{ expression: `(${celProtectedProblem('tenant', 'variables.name')}) == ""`, messageExpression: celProtectedProblem('tenant', 'variables.name') }],
});

const dataStream = kindPolicy({ policy: 'opensearch-data-stream', resource: openSearchDataStreams, name: { kind: 'data stream', field: 'name' }, validations: [] });

const snapshotPolicy = kindPolicy({ policy: 'opensearch-snapshot-policy', resource: openSearchSnapshotPolicies, validations: [listRule('object.spec.indices', 'indices', celPatternProblem)] });

const snapshotRestore = kindPolicy({ policy: 'opensearch-snapshot-restore', resource: openSearchSnapshotRestores, validations: [listRule('object.spec.indices', 'indices', celPatternProblem)] });

/** The policies rendered into charts/opensearch-operator/templates/admission-policies.yaml (`nx run opensearch-operator:admission-policies`). */
export const admissionPolicies: readonly AdmissionPolicy[] = [
  namespaceSelected,
  index,
  indexTemplate,
  componentTemplate,
  role,
  roleBinding,
  user,
  actionGroup,
  tenant,
  dataStream,
  snapshotPolicy,
  snapshotRestore,
];
