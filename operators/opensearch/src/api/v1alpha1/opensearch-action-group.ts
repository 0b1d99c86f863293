import { defineCustomResource, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, immutableOptional, managedStatusFields, READY_COLUMN, REASON_COLUMN, VERSION } from './common.ts';

/** The types of action group the security plugin knows: where the group's actions apply. */
export const ACTION_GROUP_TYPES = ['index', 'cluster', 'kibana'] as const;

/** `OpenSearchActionGroup.spec`. */
export const OpenSearchActionGroupSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    name: Type.Optional(
      Type.String({
        description: "The action group name in OpenSearch. Defaults to the connection's prefix + metadata.name; an explicit name must start with the prefix. Immutable.",
        minLength: 1,
        maxLength: 255,
        'x-kubernetes-validations': [immutable('name is immutable')],
      }),
    ),
    type: Type.Union(
      ACTION_GROUP_TYPES.map((type) => Type.Literal(type)),
      {
        description:
          'Where the actions apply: index (index permissions of roles), cluster (cluster permissions; for a namespace only actions on the connection\'s cluster-permission allow-list) or kibana (OpenSearch Dashboards).',
      },
    ),
    allowedActions: Type.Array(Type.String({ minLength: 1 }), {
      description: 'The actions (e.g. indices:data/read/search) and other action groups (e.g. read) this group stands for.',
      minItems: 1,
    }),
    description: Type.Optional(Type.String({ description: 'A human description stored with the group.', maxLength: 1024 })),
  },
  { description: 'OpenSearchActionGroupSpec is the desired state of one action group of the security plugin.' },
);

/** `OpenSearchActionGroup.status`. */
export const OpenSearchActionGroupStatus = Type.Object(
  { ...managedStatusFields, actionGroupName: Type.Optional(Type.String({ description: 'The action group name in OpenSearch.' })) },
  { description: 'The observed state of the action group.' },
);

/** The `OpenSearchActionGroup` kind. */
export const openSearchActionGroups = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchActionGroup',
  plural: 'opensearchactiongroups',
  singular: 'opensearchactiongroup',
  shortNames: ['osag'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description:
    "An OpenSearchActionGroup is a named set of actions of OpenSearch's security plugin (_plugins/_security/api/actiongroups), named inside its namespace's prefix; roles may name it in their allowed actions.",
  spec: OpenSearchActionGroupSpec,
  status: OpenSearchActionGroupStatus,
  validations: [immutableOptional('name')],
  printerColumns: [
    { name: 'Action Group', type: 'string', jsonPath: '.status.actionGroupName' },
    { name: 'Type', type: 'string', jsonPath: '.spec.type' },
    READY_COLUMN,
    REASON_COLUMN,
  ],
});

/** An `OpenSearchActionGroup` object. */
export type OpenSearchActionGroup = ResourceOf<typeof openSearchActionGroups>;
/** Its status. */
export type OpenSearchActionGroupStatus = Static<typeof OpenSearchActionGroupStatus>;
