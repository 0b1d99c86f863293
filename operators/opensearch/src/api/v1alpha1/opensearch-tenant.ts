import { defineCustomResource, deletionPolicy, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, immutableOptional, managedStatusFields, READY_COLUMN, REASON_COLUMN, VERSION } from './common.ts';

/** `OpenSearchTenant.spec`. */
export const OpenSearchTenantSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    name: Type.Optional(
      Type.String({
        description: "The tenant name in OpenSearch. Defaults to the connection's prefix + metadata.name; an explicit name must start with the prefix. Immutable.",
        minLength: 1,
        maxLength: 255,
        'x-kubernetes-validations': [immutable('name is immutable')],
      }),
    ),
    description: Type.Optional(Type.String({ description: 'A human description stored with the tenant (shown in OpenSearch Dashboards).', maxLength: 1024 })),
    deletionPolicy: deletionPolicy('Retain'),
  },
  { description: 'OpenSearchTenantSpec is the desired state of one OpenSearch Dashboards tenant.' },
);

/** `OpenSearchTenant.status`. */
export const OpenSearchTenantStatus = Type.Object(
  { ...managedStatusFields, tenantName: Type.Optional(Type.String({ description: 'The tenant name in OpenSearch.' })) },
  { description: 'The observed state of the tenant.' },
);

/** The `OpenSearchTenant` kind. */
export const openSearchTenants = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchTenant',
  plural: 'opensearchtenants',
  singular: 'opensearchtenant',
  shortNames: ['ost'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description:
    "An OpenSearchTenant is an OpenSearch Dashboards tenant (_plugins/_security/api/tenants), named inside its namespace's prefix; roles grant it through tenantPermissions. Its saved objects are kept by default when the resource is deleted (deletionPolicy Retain).",
  spec: OpenSearchTenantSpec,
  status: OpenSearchTenantStatus,
  validations: [immutableOptional('name')],
  printerColumns: [{ name: 'Tenant', type: 'string', jsonPath: '.status.tenantName' }, READY_COLUMN, REASON_COLUMN],
});

/** An `OpenSearchTenant` object. */
export type OpenSearchTenant = ResourceOf<typeof openSearchTenants>;
/** Its status. */
export type OpenSearchTenantStatus = Static<typeof OpenSearchTenantStatus>;
