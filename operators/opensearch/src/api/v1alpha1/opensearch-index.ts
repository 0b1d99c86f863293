import { defineCustomResource, deletionPolicy, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { AliasSpec, CATEGORIES, ConnectionRef, GROUP, immutableOptional, IndexSettings, jsonObject, managedStatusFields, READY_COLUMN, REASON_COLUMN, VERSION } from './common.ts';

/** `OpenSearchIndex.spec`. */
export const OpenSearchIndexSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    indexName: Type.Optional(
      Type.String({
        description: "The index name in OpenSearch. Defaults to the connection's prefix + metadata.name; an explicit name must start with the prefix. Immutable.",
        minLength: 1,
        maxLength: 255,
        'x-kubernetes-validations': [immutable('indexName is immutable')],
      }),
    ),
    settings: Type.Optional(IndexSettings),
    mappings: Type.Optional(
      jsonObject('The index mappings (properties, dynamic, _meta, …). Additive changes are applied; a conflicting change (e.g. a field type) is refused with MappingConflict.'),
    ),
    aliases: Type.Optional(
      Type.Record(Type.String(), AliasSpec, { description: 'Aliases of the index, by name. Only aliases this resource added are ever removed by it.' }),
    ),
    deletionPolicy: deletionPolicy('Retain'),
  },
  { description: 'OpenSearchIndexSpec is the desired state of one index.' },
);

/** `OpenSearchIndex.status`. */
export const OpenSearchIndexStatus = Type.Object(
  {
    ...managedStatusFields,
    indexName: Type.Optional(Type.String({ description: 'The index name in OpenSearch.' })),
    uuid: Type.Optional(Type.String({ description: 'The index UUID.' })),
    health: Type.Optional(Type.String({ description: 'Index health at the last check: green, yellow or red.' })),
    aliases: Type.Optional(Type.Array(Type.String(), { description: 'The aliases this resource applied (and may remove).' })),
  },
  { description: 'The observed state of the index.' },
);

/** The `OpenSearchIndex` kind. */
export const openSearchIndices = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchIndex',
  plural: 'opensearchindices',
  singular: 'opensearchindex',
  shortNames: ['osi'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description: 'An OpenSearchIndex is an index in OpenSearch, with its settings, mappings and aliases.',
  spec: OpenSearchIndexSpec,
  status: OpenSearchIndexStatus,
  validations: [immutableOptional('indexName')],
  printerColumns: [
    { name: 'Index', type: 'string', jsonPath: '.status.indexName' },
    { name: 'Shards', type: 'integer', jsonPath: '.spec.settings.numberOfShards' },
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.settings.numberOfReplicas' },
    { name: 'Health', type: 'string', jsonPath: '.status.health' },
    READY_COLUMN,
    REASON_COLUMN,
  ],
});

/** An `OpenSearchIndex` object. */
export type OpenSearchIndex = ResourceOf<typeof openSearchIndices>;
/** Its status. */
export type OpenSearchIndexStatus = Static<typeof OpenSearchIndexStatus>;
/** `OpenSearchIndex.spec`. */
export type OpenSearchIndexSpec = Static<typeof OpenSearchIndexSpec>;
