import { defineCustomResource, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, immutableOptional, managedStatusFields, READY_COLUMN, REASON_COLUMN, VERSION } from './common.ts';

const nonEmptyStrings = (description: string, minItems = 0) => Type.Array(Type.String({ minLength: 1 }), { description, ...(minItems > 0 && { minItems }) });

/** The actions a role may grant on a tenant: the security plugin's two Dashboards action groups. */
export const TENANT_ACTIONS = ['kibana_all_read', 'kibana_all_write'] as const;

/** `OpenSearchRole.spec`. */
export const OpenSearchRoleSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    roleName: Type.Optional(
      Type.String({
        description: "The role name in OpenSearch. Defaults to the connection's prefix + metadata.name; an explicit name must start with the prefix. Immutable.",
        minLength: 1,
        maxLength: 255,
        'x-kubernetes-validations': [immutable('roleName is immutable')],
      }),
    ),
    clusterPermissions: Type.Optional(nonEmptyStrings('Cluster permissions or action groups; a namespace may use only an allow-list (composite read/write, monitoring).')),
    indexPermissions: Type.Optional(
      Type.Array(
        Type.Object(
          {
            indexPatterns: nonEmptyStrings("Index patterns; each must start with the connection's prefix.", 1),
            allowedActions: nonEmptyStrings("Actions or action groups allowed on the matching indices, e.g. read, write, crud, or an OpenSearchActionGroup's name.", 1),
            dls: Type.Optional(Type.String({ description: 'Document-level security: a query (JSON, as a string) documents must match.' })),
            fls: Type.Optional(nonEmptyStrings('Field-level security: fields included, or excluded with a leading ~.')),
            maskedFields: Type.Optional(nonEmptyStrings('Fields whose values are masked (hashed).')),
          },
          { description: 'Permissions on the indices matching indexPatterns.' },
        ),
        { description: 'Index permissions.' },
      ),
    ),
    tenantPermissions: Type.Optional(
      Type.Array(
        Type.Object(
          {
            tenantPatterns: nonEmptyStrings("Dashboards tenant patterns; each must start with the connection's prefix.", 1),
            allowedActions: Type.Array(Type.Union(TENANT_ACTIONS.map((action) => Type.Literal(action))), {
              description: 'What the role may do in the matching tenants: kibana_all_read (view saved objects) or kibana_all_write (also create and change them).',
              minItems: 1,
            }),
          },
          { description: 'Permissions on OpenSearch Dashboards tenants.' },
        ),
        { description: 'Tenant permissions.' },
      ),
    ),
  },
  { description: 'OpenSearchRoleSpec is the desired state of one security role.' },
);

/** `OpenSearchRole.status`. */
export const OpenSearchRoleStatus = Type.Object(
  { ...managedStatusFields, roleName: Type.Optional(Type.String({ description: 'The role name in OpenSearch.' })) },
  { description: 'The observed state of the role.' },
);

/** The `OpenSearchRole` kind. */
export const openSearchRoles = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchRole',
  plural: 'opensearchroles',
  singular: 'opensearchrole',
  shortNames: ['osrole'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description: "An OpenSearchRole is a role of OpenSearch's security plugin, confined to its namespace's indices by the connection's tenancy rule.",
  spec: OpenSearchRoleSpec,
  status: OpenSearchRoleStatus,
  validations: [immutableOptional('roleName')],
  printerColumns: [{ name: 'Role', type: 'string', jsonPath: '.status.roleName' }, READY_COLUMN, REASON_COLUMN],
});

/** An `OpenSearchRole` object. */
export type OpenSearchRole = ResourceOf<typeof openSearchRoles>;
/** Its status. */
export type OpenSearchRoleStatus = Static<typeof OpenSearchRoleStatus>;
/** `OpenSearchRole.spec`. */
export type OpenSearchRoleSpec = Static<typeof OpenSearchRoleSpec>;
