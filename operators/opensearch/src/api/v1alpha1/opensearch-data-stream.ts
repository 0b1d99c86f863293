import { defineCustomResource, deletionPolicy, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, immutableOptional, managedStatusFields, READY_COLUMN, REASON_COLUMN, VERSION } from './common.ts';

/** `OpenSearchDataStream.spec`. */
export const OpenSearchDataStreamSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    name: Type.Optional(
      Type.String({
        description:
          "The data stream name in OpenSearch. Defaults to the connection's prefix + metadata.name; an explicit name must start with the prefix. An index template with dataStream must match it. Immutable.",
        minLength: 1,
        maxLength: 255,
        'x-kubernetes-validations': [immutable('name is immutable')],
      }),
    ),
    deletionPolicy: deletionPolicy('Retain'),
  },
  { description: 'OpenSearchDataStreamSpec is the desired state of one data stream.' },
);

/** `OpenSearchDataStream.status`. */
export const OpenSearchDataStreamStatus = Type.Object(
  {
    ...managedStatusFields,
    dataStreamName: Type.Optional(Type.String({ description: 'The data stream name in OpenSearch.' })),
    generation: Type.Optional(Type.Integer({ description: 'The data stream generation: 1 when created, one more after each rollover.', minimum: 0 })),
    backingIndices: Type.Optional(Type.Array(Type.String(), { description: 'The backing indices, oldest first; the last one takes the writes.' })),
    health: Type.Optional(Type.String({ description: 'green, yellow or red: the worst health of the backing indices.' })),
    template: Type.Optional(Type.String({ description: 'The index template the data stream was created from.' })),
  },
  { description: 'The observed state of the data stream, as of the last reconcile (a rollover shows at the next drift check).' },
);

/** The `OpenSearchDataStream` kind. */
export const openSearchDataStreams = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchDataStream',
  plural: 'opensearchdatastreams',
  singular: 'opensearchdatastream',
  shortNames: ['osds'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description:
    "An OpenSearchDataStream is a data stream (_data_stream) named inside its namespace's prefix, created up front; it needs a matching OpenSearchIndexTemplate with dataStream. Its backing indices and documents are kept by default when the resource is deleted (deletionPolicy Retain).",
  spec: OpenSearchDataStreamSpec,
  status: OpenSearchDataStreamStatus,
  validations: [immutableOptional('name')],
  printerColumns: [
    { name: 'Data Stream', type: 'string', jsonPath: '.status.dataStreamName' },
    { name: 'Generation', type: 'integer', jsonPath: '.status.generation' },
    { name: 'Health', type: 'string', jsonPath: '.status.health' },
    READY_COLUMN,
    REASON_COLUMN,
  ],
});

/** An `OpenSearchDataStream` object. */
export type OpenSearchDataStream = ResourceOf<typeof openSearchDataStreams>;
/** Its status. */
export type OpenSearchDataStreamStatus = Static<typeof OpenSearchDataStreamStatus>;
