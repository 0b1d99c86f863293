import { caSecretRef, defineCustomResource, ignoredNamesField, loginSecretRef } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConditionSchema, GROUP, namespaceSelector, READY_COLUMN, VERSION } from './common.ts';

/** `OpenSearchConnection.spec`. */
export const OpenSearchConnectionSpec = Type.Object(
  {
    urls: Type.Array(Type.String({ pattern: '^https?://.+' }), {
      description: 'URLs of OpenSearch nodes, e.g. https://opensearch.search.svc:9200. Requests go to any live one.',
      minItems: 1,
    }),
    credentialsSecretRef: loginSecretRef('The Secret holding the user the operator logs in as (it needs the security REST API for roles and users).'),
    tls: Type.Optional(
      Type.Object(
        {
          caSecretRef: Type.Optional(caSecretRef('The Secret holding the PEM certificate of the CA that signed the node certificates.')),
          insecureSkipVerify: Type.Optional(Type.Boolean({ description: 'Accept any server certificate. For tests only.' })),
        },
        { description: 'TLS settings for https URLs.' },
      ),
    ),
    ignoredNames: Type.Optional(ignoredNamesField('OpenSearch', 'indices, templates, roles, users, action groups, tenants, data streams, repositories')),
    tenancy: Type.Optional(
      Type.Object(
        {
          namespaceSelector: Type.Optional(namespaceSelector('Namespaces allowed to use this connection; absent means every namespace.')),
          indexPrefix: Type.Optional(
            Type.String({
              description:
                'Prefix of every name created in OpenSearch on behalf of a namespace (indices, templates, roles, users) and of every index ' +
                'pattern granted; "{namespace}" is replaced by the namespace, e.g. "{namespace}-". Empty: no name rule (trusted namespaces only).',
              maxLength: 100,
            }),
          ),
          bindableRoles: Type.Optional(
            Type.Array(Type.String({ minLength: 1 }), { description: 'Existing OpenSearch roles that an OpenSearchRoleBinding may name in externalRole.' }),
          ),
        },
        { description: 'What namespaces may do through this connection.' },
      ),
    ),
  },
  { description: 'OpenSearchConnectionSpec says how to reach one OpenSearch cluster and what namespaces may do there.' },
);

/** `OpenSearchConnection.status`. */
export const OpenSearchConnectionStatus = Type.Object(
  {
    observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation the status describes.' })),
    conditions: Type.Optional(
      Type.Array(ConditionSchema, { description: 'Ready: the cluster answers with these credentials.', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
    ),
    clusterName: Type.Optional(Type.String({ description: 'The cluster name OpenSearch reports.' })),
    version: Type.Optional(Type.String({ description: 'The OpenSearch version.' })),
    health: Type.Optional(Type.String({ description: 'Cluster health at the last check: green, yellow or red.' })),
    securityPlugin: Type.Optional(Type.Boolean({ description: 'Whether the security plugin answers (roles, role bindings and users need it).' })),
  },
  { description: 'The observed state of the connection.' },
);

/** The `OpenSearchConnection` kind (cluster-scoped). */
export const openSearchConnections = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchConnection',
  plural: 'opensearchconnections',
  singular: 'opensearchconnection',
  shortNames: ['osconn'],
  categories: CATEGORIES,
  scope: 'Cluster',
  description: 'An OpenSearchConnection is an OpenSearch cluster the operator manages objects in, with the tenancy rule for namespaces using it.',
  spec: OpenSearchConnectionSpec,
  status: OpenSearchConnectionStatus,
  printerColumns: [
    { name: 'Cluster', type: 'string', jsonPath: '.status.clusterName' },
    { name: 'Version', type: 'string', jsonPath: '.status.version' },
    { name: 'Health', type: 'string', jsonPath: '.status.health' },
    READY_COLUMN,
  ],
});

/** An `OpenSearchConnection` object. */
export type OpenSearchConnection = ResourceOf<typeof openSearchConnections>;
/** Its status. */
export type OpenSearchConnectionStatus = Static<typeof OpenSearchConnectionStatus>;
/** `OpenSearchConnection.spec`. */
export type OpenSearchConnectionSpec = Static<typeof OpenSearchConnectionSpec>;
/** The tenancy rule of a connection: which namespaces may use it, their name prefix, the roles they may bind. */
export type TenancySpec = NonNullable<OpenSearchConnectionSpec['tenancy']>;
