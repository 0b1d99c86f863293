import { defineCustomResource, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, immutableOptional, managedStatusFields, READY_COLUMN, REASON_COLUMN, VERSION } from './common.ts';

/** `OpenSearchUser.spec`. */
export const OpenSearchUserSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    username: Type.Optional(
      Type.String({
        description: "The internal user name in OpenSearch. Defaults to the connection's prefix + metadata.name; an explicit name must start with the prefix. Immutable.",
        minLength: 1,
        maxLength: 255,
        'x-kubernetes-validations': [immutable('username is immutable')],
      }),
    ),
    passwordSecretRef: Type.Optional(
      Type.Object(
        {
          name: Type.String({ description: 'Name of a Secret in the same namespace.', minLength: 1 }),
          key: Type.String({ description: 'Key of the password in the Secret.', default: 'password' }),
        },
        {
          description:
            'The Secret holding the password; a change of it is applied. Absent: the operator generates a Secret <name>-opensearch-credentials (keys username, password).',
        },
      ),
    ),
    backendRoles: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Backend roles of the user.' })),
    attributes: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'User attributes (usable in DLS queries and index patterns of roles).' })),
  },
  { description: 'OpenSearchUserSpec is the desired state of one internal user.' },
);

/** `OpenSearchUser.status`. */
export const OpenSearchUserStatus = Type.Object(
  {
    ...managedStatusFields,
    username: Type.Optional(Type.String({ description: 'The internal user name in OpenSearch.' })),
    secretName: Type.Optional(Type.String({ description: 'The Secret the password comes from.' })),
    passwordApplied: Type.Optional(
      Type.Object(
        {
          salt: Type.String({ description: 'Random per user.' }),
          fingerprint: Type.String({ description: 'HMAC-SHA256 of the applied password keyed by the salt; never the password.' }),
        },
        { description: 'Which password was applied, as a salted fingerprint (OpenSearch never returns the hash), so a rotation is detected.' },
      ),
    ),
  },
  { description: 'The observed state of the user.' },
);

/** The `OpenSearchUser` kind. */
export const openSearchUsers = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchUser',
  plural: 'opensearchusers',
  singular: 'opensearchuser',
  shortNames: ['osuser'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description: "An OpenSearchUser is an internal user of OpenSearch's security plugin, with its password from a Secret.",
  spec: OpenSearchUserSpec,
  status: OpenSearchUserStatus,
  validations: [immutableOptional('username')],
  printerColumns: [
    { name: 'Username', type: 'string', jsonPath: '.status.username' },
    { name: 'Secret', type: 'string', jsonPath: '.status.secretName' },
    READY_COLUMN,
    REASON_COLUMN,
  ],
});

/** An `OpenSearchUser` object. */
export type OpenSearchUser = ResourceOf<typeof openSearchUsers>;
/** Its status. */
export type OpenSearchUserStatus = Static<typeof OpenSearchUserStatus>;
/** `OpenSearchUser.spec`. */
export type OpenSearchUserSpec = Static<typeof OpenSearchUserSpec>;
/** `status.passwordApplied`: which password was applied, as a salted fingerprint (never the password). */
export type PasswordApplied = NonNullable<OpenSearchUserStatus['passwordApplied']>;
