/** OpensearchIndexTemplate → OpenSearchIndexTemplate: the name in OpenSearch is `spec.name`, else `metadata.name`. */
import { checkPrefix, NotConvertible, optionalCount, optionalRecord, optionalString, optionalStrings, ourObject, present, warnUnknownFields } from './kind-context.ts';
import type { KindContext, KindConverter } from './kind-context.ts';
import { templateContent } from './template-content.ts';

function dataStreamOf(spec: Readonly<Record<string, unknown>>, context: KindContext): Record<string, unknown> | undefined {
  const dataStream = optionalRecord(spec, 'dataStream', 'spec.');
  if (dataStream === undefined) return undefined;
  warnUnknownFields(dataStream, ['timestamp_field'], 'spec.dataStream.', context);
  const field = optionalRecord(dataStream, 'timestamp_field', 'spec.dataStream.');
  const name = field === undefined ? undefined : optionalString(field, 'name', 'spec.dataStream.timestamp_field.');
  return present('timestampField', name);
}

/** Converts one OpensearchIndexTemplate; `templateName` is set to the name their operator used, kept on deletion (Retain). */
export const convertIndexTemplate: KindConverter = (input, context) => {
  const spec = input.spec;
  warnUnknownFields(spec, ['opensearchCluster', 'name', 'indexPatterns', 'dataStream', 'template', 'composedOf', 'priority', 'version', '_meta'], 'spec.', context);
  const templateName = optionalString(spec, 'name', 'spec.') ?? input.name;
  const indexPatterns = optionalStrings(spec, 'indexPatterns', 'spec.');
  if (indexPatterns === undefined) throw new NotConvertible('spec.indexPatterns must not be empty');
  checkPrefix([templateName], 'templateName', input, context);
  checkPrefix(indexPatterns, 'indexPatterns', input, context);
  return [
    ourObject(
      'OpenSearchIndexTemplate',
      input,
      {
        templateName,
        indexPatterns,
        ...present('template', templateContent(optionalRecord(spec, 'template', 'spec.'), 'spec.template.', context)),
        ...present('composedOf', optionalStrings(spec, 'composedOf', 'spec.')),
        ...present('priority', optionalCount(spec, 'priority', 'spec.', true)),
        ...present('version', optionalCount(spec, 'version', 'spec.', true)),
        ...present('_meta', optionalRecord(spec, '_meta', 'spec.')),
        ...present('dataStream', dataStreamOf(spec, context)),
        deletionPolicy: 'Retain',
      },
      context.options,
    ),
  ];
};
