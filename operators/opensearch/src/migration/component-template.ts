/** OpensearchComponentTemplate → OpenSearchComponentTemplate: the name in OpenSearch is `spec.name`, else `metadata.name`. */
import { checkPrefix, optionalBoolean, optionalCount, optionalRecord, optionalString, ourObject, present, warnUnknownFields } from './kind-context.ts';
import type { KindConverter } from './kind-context.ts';
import { templateContent } from './template-content.ts';

/** Converts one OpensearchComponentTemplate, kept on deletion (Retain); `allowAutoCreate: true` is reported, ours has no such field. */
export const convertComponentTemplate: KindConverter = (input, context) => {
  const spec = input.spec;
  warnUnknownFields(spec, ['opensearchCluster', 'name', 'template', 'version', 'allowAutoCreate', '_meta'], 'spec.', context);
  const templateName = optionalString(spec, 'name', 'spec.') ?? input.name;
  if (optionalBoolean(spec, 'allowAutoCreate', 'spec.') === true) {
    context.warn('spec.allowAutoCreate is not supported by ours and is not carried over; index auto-creation follows the cluster setting action.auto_create_index');
  }
  checkPrefix([templateName], 'templateName', input, context);
  return [
    ourObject(
      'OpenSearchComponentTemplate',
      input,
      {
        templateName,
        template: templateContent(optionalRecord(spec, 'template', 'spec.'), 'spec.template.', context) ?? {},
        ...present('version', optionalCount(spec, 'version', 'spec.', true)),
        ...present('_meta', optionalRecord(spec, '_meta', 'spec.')),
        deletionPolicy: 'Retain',
      },
      context.options,
    ),
  ];
};
