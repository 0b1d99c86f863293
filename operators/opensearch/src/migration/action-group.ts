/** OpensearchActionGroup → OpenSearchActionGroup: their group's name in OpenSearch is `metadata.name`. */
import { ACTION_GROUP_TYPES } from '../api/v1alpha1/opensearch-action-group.ts';
import { checkPrefix, NotConvertible, ourObject, optionalString, optionalStrings, present, warnUnknownFields } from './kind-context.ts';
import type { KindConverter } from './kind-context.ts';

/**
 * Converts one OpensearchActionGroup. Their `type` is optional and ours is required: an absent type becomes `index`
 * with a warning (check it: OpenSearch stores what ours sends); a type OpenSearch does not know refuses the object.
 */
export const convertActionGroup: KindConverter = (input, context) => {
  const spec = input.spec;
  warnUnknownFields(spec, ['opensearchCluster', 'allowedActions', 'type', 'description'], 'spec.', context);
  const allowedActions = optionalStrings(spec, 'allowedActions', 'spec.');
  if (allowedActions === undefined) throw new NotConvertible('spec.allowedActions must not be empty');
  const type = optionalString(spec, 'type', 'spec.');
  if (type !== undefined && !(ACTION_GROUP_TYPES as readonly string[]).includes(type)) {
    throw new NotConvertible(`spec.type ${type}: ours knows ${ACTION_GROUP_TYPES.join(', ')}`);
  }
  if (type === undefined) context.warn('spec.type is not set; ours requires one and uses index: change it to cluster or kibana if the group is one');
  checkPrefix([input.name], 'action group name', input, context);
  return [
    ourObject(
      'OpenSearchActionGroup',
      input,
      { name: input.name, type: type ?? 'index', allowedActions, ...present('description', optionalString(spec, 'description', 'spec.')) },
      context.options,
    ),
  ];
};
