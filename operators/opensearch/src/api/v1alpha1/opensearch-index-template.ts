import { defineCustomResource, deletionPolicy, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, immutableOptional, jsonObject, managedStatusFields, READY_COLUMN, REASON_COLUMN, TemplateContent, VERSION } from './common.ts';

/** `OpenSearchIndexTemplate.spec`: a composable `_index_template`. */
export const OpenSearchIndexTemplateSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    templateName: Type.Optional(
      Type.String({
        description: "The template name in OpenSearch. Defaults to the connection's prefix + metadata.name; an explicit name must start with the prefix. Immutable.",
        minLength: 1,
        maxLength: 255,
        'x-kubernetes-validations': [immutable('templateName is immutable')],
      }),
    ),
    indexPatterns: Type.Array(Type.String({ minLength: 1 }), {
      description: "Index name patterns the template applies to; each must start with the connection's prefix.",
      minItems: 1,
    }),
    template: Type.Optional(TemplateContent),
    composedOf: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Component templates merged in this order before template.' })),
    priority: Type.Optional(Type.Integer({ description: 'The template with the highest priority among those matching an index wins.', minimum: 0 })),
    version: Type.Optional(Type.Integer({ description: 'A version number for your own bookkeeping.', minimum: 0 })),
    _meta: Type.Optional(jsonObject('Free-form metadata stored with the template.')),
    dataStream: Type.Optional(
      Type.Object(
        {
          timestampField: Type.Optional(Type.String({ description: 'The field every document of the stream carries its time in. Default @timestamp.', minLength: 1 })),
        },
        {
          description:
            'Present (dataStream: {}): matching names are data streams, created by an OpenSearchDataStream or by the first write, whose backing indices (.ds-<name>-000001, …) get this template. Absent: matching names are plain indices.',
        },
      ),
    ),
    deletionPolicy: deletionPolicy('Delete'),
  },
  { description: 'OpenSearchIndexTemplateSpec is the desired state of one composable index template.' },
);

/** `OpenSearchIndexTemplate.status`. */
export const OpenSearchIndexTemplateStatus = Type.Object(
  { ...managedStatusFields, templateName: Type.Optional(Type.String({ description: 'The template name in OpenSearch.' })) },
  { description: 'The observed state of the template.' },
);

/** The `OpenSearchIndexTemplate` kind. */
export const openSearchIndexTemplates = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchIndexTemplate',
  plural: 'opensearchindextemplates',
  singular: 'opensearchindextemplate',
  shortNames: ['osit'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description: 'An OpenSearchIndexTemplate is a composable index template (_index_template): settings, mappings and aliases for new indices.',
  spec: OpenSearchIndexTemplateSpec,
  status: OpenSearchIndexTemplateStatus,
  validations: [immutableOptional('templateName')],
  printerColumns: [
    { name: 'Template', type: 'string', jsonPath: '.status.templateName' },
    { name: 'Patterns', type: 'string', jsonPath: '.spec.indexPatterns' },
    { name: 'Priority', type: 'integer', jsonPath: '.spec.priority' },
    READY_COLUMN,
    REASON_COLUMN,
  ],
});

/** An `OpenSearchIndexTemplate` object. */
export type OpenSearchIndexTemplate = ResourceOf<typeof openSearchIndexTemplates>;
/** Its status. */
export type OpenSearchIndexTemplateStatus = Static<typeof OpenSearchIndexTemplateStatus>;
/** `OpenSearchIndexTemplate.spec`. */
export type OpenSearchIndexTemplateSpec = Static<typeof OpenSearchIndexTemplateSpec>;
/** The composable index template body (`_index_template`) a spec stands for: the spec without the fields only we read. */
export type IndexTemplateBody = Omit<OpenSearchIndexTemplateSpec, 'connectionRef' | 'templateName' | 'deletionPolicy'>;
