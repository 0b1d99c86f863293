import { defineCustomResource, deletionPolicy, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, immutableOptional, jsonObject, managedStatusFields, READY_COLUMN, REASON_COLUMN, TemplateContent, VERSION } from './common.ts';

/** `OpenSearchComponentTemplate.spec`: a `_component_template`. */
export const OpenSearchComponentTemplateSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    templateName: Type.Optional(
      Type.String({
        description: "The component template name in OpenSearch. Defaults to the connection's prefix + metadata.name; an explicit name must start with the prefix. Immutable.",
        minLength: 1,
        maxLength: 255,
        'x-kubernetes-validations': [immutable('templateName is immutable')],
      }),
    ),
    template: TemplateContent,
    version: Type.Optional(Type.Integer({ description: 'A version number for your own bookkeeping.', minimum: 0 })),
    _meta: Type.Optional(jsonObject('Free-form metadata stored with the template.')),
    deletionPolicy: deletionPolicy('Delete'),
  },
  { description: 'OpenSearchComponentTemplateSpec is the desired state of one component template.' },
);

/** `OpenSearchComponentTemplate.status`. */
export const OpenSearchComponentTemplateStatus = Type.Object(
  { ...managedStatusFields, templateName: Type.Optional(Type.String({ description: 'The component template name in OpenSearch.' })) },
  { description: 'The observed state of the component template.' },
);

/** The `OpenSearchComponentTemplate` kind. */
export const openSearchComponentTemplates = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchComponentTemplate',
  plural: 'opensearchcomponenttemplates',
  singular: 'opensearchcomponenttemplate',
  shortNames: ['osct'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description: 'An OpenSearchComponentTemplate is a reusable part of index templates (_component_template).',
  spec: OpenSearchComponentTemplateSpec,
  status: OpenSearchComponentTemplateStatus,
  validations: [immutableOptional('templateName')],
  printerColumns: [{ name: 'Template', type: 'string', jsonPath: '.status.templateName' }, READY_COLUMN, REASON_COLUMN],
});

/** An `OpenSearchComponentTemplate` object. */
export type OpenSearchComponentTemplate = ResourceOf<typeof openSearchComponentTemplates>;
/** Its status. */
export type OpenSearchComponentTemplateStatus = Static<typeof OpenSearchComponentTemplateStatus>;
/** `OpenSearchComponentTemplate.spec`. */
export type OpenSearchComponentTemplateSpec = Static<typeof OpenSearchComponentTemplateSpec>;
/** The component template body (`_component_template`) a spec stands for: the spec without the fields only we read. */
export type ComponentTemplateBody = Omit<OpenSearchComponentTemplateSpec, 'connectionRef' | 'templateName' | 'deletionPolicy'>;
