// Test support: validates converted objects against our TypeBox spec schemas and builds their v1 objects.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { OpenSearchActionGroupSpec } from '../api/v1alpha1/opensearch-action-group.ts';
import { OpenSearchComponentTemplateSpec } from '../api/v1alpha1/opensearch-component-template.ts';
import { OpenSearchIndexTemplateSpec } from '../api/v1alpha1/opensearch-index-template.ts';
import { OpenSearchRoleBindingSpec } from '../api/v1alpha1/opensearch-role-binding.ts';
import { OpenSearchRoleSpec } from '../api/v1alpha1/opensearch-role.ts';
import { OpenSearchSnapshotPolicySpec } from '../api/v1alpha1/opensearch-snapshot-policy.ts';
import { OpenSearchTenantSpec } from '../api/v1alpha1/opensearch-tenant.ts';
import { OpenSearchUserSpec } from '../api/v1alpha1/opensearch-user.ts';
import type { ConvertedObject } from './types.ts';

const SPECS: Readonly<Record<string, TSchema>> = {
  OpenSearchUser: OpenSearchUserSpec,
  OpenSearchRole: OpenSearchRoleSpec,
  OpenSearchRoleBinding: OpenSearchRoleBindingSpec,
  OpenSearchTenant: OpenSearchTenantSpec,
  OpenSearchActionGroup: OpenSearchActionGroupSpec,
  OpenSearchIndexTemplate: OpenSearchIndexTemplateSpec,
  OpenSearchComponentTemplate: OpenSearchComponentTemplateSpec,
  OpenSearchSnapshotPolicy: OpenSearchSnapshotPolicySpec,
};

/** The schema errors of `object`'s spec against our spec schema of its kind, as `path: message` (empty: valid). */
export function specErrors(object: ConvertedObject): readonly string[] {
  const schema = SPECS[object.kind];
  if (schema === undefined) return [`no spec schema for ${object.kind}`];
  if (Value.Check(schema, object.spec)) return [];
  return [...Value.Errors(schema, object.spec)].map((error) => `${error.path}: ${error.message}`);
}

/** One of their objects, `opensearch.opster.io/v1`, in namespace `team-a`. */
export function opster(kind: string, name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'opensearch.opster.io/v1', kind, metadata: { name, namespace: 'team-a' }, spec: { opensearchCluster: { name: 'my-cluster' }, ...spec } };
}

/** The metadata every converted object of `name` in `team-a` has. */
export function ourMetadata(name: string): ConvertedObject['metadata'] {
  return { name, namespace: 'team-a', annotations: { 'opensearch.domain-operators.io/adopt': 'true' } };
}

/** The options the specs convert with. */
export const OPTIONS = { connection: 'search' } as const;
