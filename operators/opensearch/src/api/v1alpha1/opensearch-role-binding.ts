import { defineCustomResource } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, managedStatusFields, READY_COLUMN, REASON_COLUMN, VERSION } from './common.ts';

/** `OpenSearchRoleBinding.spec`. */
export const OpenSearchRoleBindingSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    roleRef: Type.Optional(
      Type.Object({ name: Type.String({ description: 'The name of the OpenSearchRole.', minLength: 1 }) }, { description: 'An OpenSearchRole in the same namespace.' }),
    ),
    externalRole: Type.Optional(
      Type.String({ description: "An existing OpenSearch role, allowed only when the connection lists it in tenancy.bindableRoles.", minLength: 1 }),
    ),
    users: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: "Internal users to map to the role; each must start with the connection's prefix." })),
    backendRoles: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Backend roles (from the identity provider) to map to the role.' })),
  },
  { description: 'OpenSearchRoleBindingSpec maps users and backend roles to one role. Only the entries it added are ever removed from the role mapping.' },
);

/** `OpenSearchRoleBinding.status`. */
export const OpenSearchRoleBindingStatus = Type.Object(
  {
    ...managedStatusFields,
    applied: Type.Optional(
      Type.Object(
        {
          roleName: Type.String({ description: 'The OpenSearch role whose mapping holds the entries.' }),
          users: Type.Array(Type.String(), { description: 'Users this binding added to the mapping.' }),
          backendRoles: Type.Array(Type.String(), { description: 'Backend roles this binding added to the mapping.' }),
        },
        { description: 'The role-mapping entries this binding added (and removes when deleted); entries that were there before are not listed.' },
      ),
    ),
  },
  { description: 'The observed state of the binding.' },
);

/** The `OpenSearchRoleBinding` kind. */
export const openSearchRoleBindings = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchRoleBinding',
  plural: 'opensearchrolebindings',
  singular: 'opensearchrolebinding',
  shortNames: ['osrb'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description: "An OpenSearchRoleBinding adds users and backend roles to an OpenSearch role's mapping, keeping everyone else's entries.",
  spec: OpenSearchRoleBindingSpec,
  status: OpenSearchRoleBindingStatus,
  validations: [
    { rule: 'has(self.roleRef) != has(self.externalRole)', message: 'exactly one of roleRef and externalRole must be set' },
    {
      rule: '(has(self.roleRef) ? "r:" + self.roleRef.name : "e:" + self.externalRole) == (has(oldSelf.roleRef) ? "r:" + oldSelf.roleRef.name : "e:" + oldSelf.externalRole)',
      message: 'the role of a binding is immutable; create another binding',
    },
  ],
  printerColumns: [
    { name: 'Role', type: 'string', jsonPath: '.status.applied.roleName' },
    READY_COLUMN,
    REASON_COLUMN,
  ],
});

/** An `OpenSearchRoleBinding` object. */
export type OpenSearchRoleBinding = ResourceOf<typeof openSearchRoleBindings>;
/** Its status. */
export type OpenSearchRoleBindingStatus = Static<typeof OpenSearchRoleBindingStatus>;
/** `OpenSearchRoleBinding.spec`: exactly one of `roleRef` and `externalRole`. */
export type OpenSearchRoleBindingSpec = Static<typeof OpenSearchRoleBindingSpec>;
/** `status.applied`: the role-mapping entries a binding added (and may remove). */
export type RoleBindingApplied = NonNullable<OpenSearchRoleBindingStatus['applied']>;
