/**
 * The kinds of `opensearch.domain-operators.io/v1alpha1`. `customResources` is what the CRD writer renders into
 * `charts/opensearch-operator/crds/`. OpenSearchISMPolicy is left out: ISM does not run in testenv (ADR 0011).
 */
import type { CustomResourceKind } from '@domain-operators/reconcile';
import { ACTION_GROUP_TYPES, openSearchActionGroups } from './opensearch-action-group.ts';
import { openSearchComponentTemplates } from './opensearch-component-template.ts';
import { openSearchConnections } from './opensearch-connection.ts';
import { openSearchDataStreams } from './opensearch-data-stream.ts';
import { openSearchIndexTemplates } from './opensearch-index-template.ts';
import { openSearchIndices } from './opensearch-index.ts';
import { openSearchRoleBindings } from './opensearch-role-binding.ts';
import { openSearchRoles, TENANT_ACTIONS } from './opensearch-role.ts';
import { openSearchSnapshotPolicies, SNAPSHOT_NOW_ANNOTATION } from './opensearch-snapshot-policy.ts';
import { openSearchSnapshotRepositories } from './opensearch-snapshot-repository.ts';
import { openSearchSnapshotRestores, RESTORE_PHASES } from './opensearch-snapshot-restore.ts';
import { openSearchTenants } from './opensearch-tenant.ts';
import { openSearchUsers } from './opensearch-user.ts';

export {
  ACTION_GROUP_TYPES,
  openSearchActionGroups,
  openSearchComponentTemplates,
  openSearchConnections,
  openSearchDataStreams,
  openSearchIndexTemplates,
  openSearchIndices,
  openSearchRoleBindings,
  openSearchRoles,
  openSearchSnapshotPolicies,
  openSearchSnapshotRepositories,
  openSearchSnapshotRestores,
  openSearchTenants,
  openSearchUsers,
  RESTORE_PHASES,
  SNAPSHOT_NOW_ANNOTATION,
  TENANT_ACTIONS,
};
export type { OpenSearchActionGroup, OpenSearchActionGroupStatus } from './opensearch-action-group.ts';
export type { ComponentTemplateBody, OpenSearchComponentTemplate, OpenSearchComponentTemplateSpec, OpenSearchComponentTemplateStatus } from './opensearch-component-template.ts';
export type { OpenSearchConnection, OpenSearchConnectionSpec, OpenSearchConnectionStatus, TenancySpec } from './opensearch-connection.ts';
export type { OpenSearchDataStream, OpenSearchDataStreamStatus } from './opensearch-data-stream.ts';
export type { IndexTemplateBody, OpenSearchIndexTemplate, OpenSearchIndexTemplateSpec, OpenSearchIndexTemplateStatus } from './opensearch-index-template.ts';
export type { OpenSearchIndex, OpenSearchIndexSpec, OpenSearchIndexStatus } from './opensearch-index.ts';
export type { OpenSearchRoleBinding, OpenSearchRoleBindingSpec, OpenSearchRoleBindingStatus, RoleBindingApplied } from './opensearch-role-binding.ts';
export type { OpenSearchRole, OpenSearchRoleSpec, OpenSearchRoleStatus } from './opensearch-role.ts';
export type { OpenSearchSnapshotPolicy, OpenSearchSnapshotPolicyStatus } from './opensearch-snapshot-policy.ts';
export type { OpenSearchSnapshotRepository, OpenSearchSnapshotRepositoryStatus } from './opensearch-snapshot-repository.ts';
export type { OpenSearchSnapshotRestore, OpenSearchSnapshotRestoreStatus } from './opensearch-snapshot-restore.ts';
export type { OpenSearchTenant, OpenSearchTenantStatus } from './opensearch-tenant.ts';
export type { OpenSearchUser, OpenSearchUserSpec, OpenSearchUserStatus, PasswordApplied } from './opensearch-user.ts';

/** Every kind of this operator, in the order the CRD writer renders them. */
export const customResources: readonly CustomResourceKind[] = [
  openSearchConnections,
  openSearchIndices,
  openSearchIndexTemplates,
  openSearchComponentTemplates,
  openSearchRoles,
  openSearchRoleBindings,
  openSearchUsers,
  openSearchActionGroups,
  openSearchTenants,
  openSearchDataStreams,
  openSearchSnapshotRepositories,
  openSearchSnapshotPolicies,
  openSearchSnapshotRestores,
];
export type { AliasSpec, IndexSettings, TemplateContent, TemplateSettings } from './common.ts';
