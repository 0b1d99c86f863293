/** OpensearchTenant → OpenSearchTenant: their tenant's name in OpenSearch is `metadata.name`; kept on deletion (Retain). */
import { checkPrefix, ourObject, optionalString, present, warnUnknownFields } from './kind-context.ts';
import type { KindConverter } from './kind-context.ts';

/** Converts one OpensearchTenant, with `name` set to theirs and `deletionPolicy: Retain`. */
export const convertTenant: KindConverter = (input, context) => {
  warnUnknownFields(input.spec, ['opensearchCluster', 'description'], 'spec.', context);
  checkPrefix([input.name], 'tenant name', input, context);
  return [
    ourObject(
      'OpenSearchTenant',
      input,
      { name: input.name, ...present('description', optionalString(input.spec, 'description', 'spec.')), deletionPolicy: 'Retain' },
      context.options,
    ),
  ];
};
