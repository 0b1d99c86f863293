// The operator's kinds as the e2e suites address them: one place for the group, the version and the plurals.
import type { KubernetesObject } from '@kubernetes/client-node';
import { resourceType } from '@domain-operators/reconcile';
import type { Condition, ResourceType } from '@domain-operators/reconcile';

/** The API group of the OpenSearch operator's kinds. */
export const GROUP = 'opensearch.domain-operators.io';
/** `apiVersion` of every kind the suites create. */
export const API_VERSION = `${GROUP}/v1alpha1`;

/** A custom resource of this operator as the suites see it: spec and status as plain JSON. */
export interface Resource extends KubernetesObject {
  spec: Record<string, unknown>;
  status?: { observedGeneration?: number; conditions?: readonly Condition[] } & Record<string, unknown>;
}

const kind = (kindName: string, plural: string, namespaced = true): ResourceType<Resource> => resourceType<Resource>({ group: GROUP, version: 'v1alpha1', kind: kindName, plural, namespaced });

/** `OpenSearchConnection` (cluster-scoped). */
export const openSearchConnections = kind('OpenSearchConnection', 'opensearchconnections', false);
/** `OpenSearchIndex` (namespaced). */
export const openSearchIndices = kind('OpenSearchIndex', 'opensearchindices');
/** `OpenSearchIndexTemplate` (namespaced). */
export const openSearchIndexTemplates = kind('OpenSearchIndexTemplate', 'opensearchindextemplates');
/** `OpenSearchComponentTemplate` (namespaced). */
export const openSearchComponentTemplates = kind('OpenSearchComponentTemplate', 'opensearchcomponenttemplates');
/** `OpenSearchRole` (namespaced). */
export const openSearchRoles = kind('OpenSearchRole', 'opensearchroles');
/** `OpenSearchRoleBinding` (namespaced). */
export const openSearchRoleBindings = kind('OpenSearchRoleBinding', 'opensearchrolebindings');
/** `OpenSearchUser` (namespaced). */
export const openSearchUsers = kind('OpenSearchUser', 'opensearchusers');
/** `OpenSearchSnapshotRepository` (cluster-scoped). */
export const openSearchSnapshotRepositories = kind('OpenSearchSnapshotRepository', 'opensearchsnapshotrepositories', false);
/** `OpenSearchSnapshotPolicy` (namespaced). */
export const openSearchSnapshotPolicies = kind('OpenSearchSnapshotPolicy', 'opensearchsnapshotpolicies');
/** `OpenSearchSnapshotRestore` (namespaced). */
export const openSearchSnapshotRestores = kind('OpenSearchSnapshotRestore', 'opensearchsnapshotrestores');
/** `OpenSearchActionGroup` (namespaced). */
export const openSearchActionGroups = kind('OpenSearchActionGroup', 'opensearchactiongroups');
/** `OpenSearchTenant` (namespaced). */
export const openSearchTenants = kind('OpenSearchTenant', 'opensearchtenants');
/** `OpenSearchDataStream` (namespaced). */
export const openSearchDataStreams = kind('OpenSearchDataStream', 'opensearchdatastreams');

/** Every namespaced kind, for suites that clean a namespace of all of them. */
export const namespacedKinds: readonly ResourceType<Resource>[] = [
  openSearchRoleBindings,
  openSearchUsers,
  openSearchRoles,
  openSearchActionGroups,
  openSearchTenants,
  openSearchIndices,
  openSearchIndexTemplates,
  openSearchComponentTemplates,
  openSearchDataStreams,
  openSearchSnapshotPolicies,
  openSearchSnapshotRestores,
];
