/**
 * OpensearchRole → OpenSearchRole, field by field. Their role's name in OpenSearch is `metadata.name`. Ours owns the
 * role whole, so a permission we cannot express refuses the object rather than being dropped (dropping it would
 * take the access away when ours adopts the role).
 */
import { TENANT_ACTIONS } from '../api/v1alpha1/opensearch-role.ts';
import { isRecord } from '../opensearch/json.ts';
import { checkPrefix, NotConvertible, ourObject, optionalString, optionalStrings, present, warnUnknownFields } from './kind-context.ts';
import type { KindContext, KindConverter, KindInput } from './kind-context.ts';

function list(spec: Readonly<Record<string, unknown>>, key: string): readonly Readonly<Record<string, unknown>>[] {
  const field = spec[key];
  if (field === undefined || field === null) return [];
  if (!Array.isArray(field) || !field.every((item) => isRecord(item))) throw new NotConvertible(`spec.${key} must be a list of objects`);
  return field;
}

function indexPermission(entry: Readonly<Record<string, unknown>>, at: string, input: KindInput, context: KindContext): Record<string, unknown> {
  warnUnknownFields(entry, ['indexPatterns', 'allowedActions', 'dls', 'fls', 'maskedFields'], at, context);
  const indexPatterns = optionalStrings(entry, 'indexPatterns', at);
  const allowedActions = optionalStrings(entry, 'allowedActions', at);
  if (indexPatterns === undefined || allowedActions === undefined) throw new NotConvertible(`${at}indexPatterns and ${at}allowedActions must not be empty`);
  checkPrefix(indexPatterns, `${at}indexPatterns`, input, context);
  return {
    indexPatterns,
    allowedActions,
    ...present('dls', optionalString(entry, 'dls', at)),
    ...present('fls', optionalStrings(entry, 'fls', at)),
    ...present('maskedFields', optionalStrings(entry, 'maskedFields', at)),
  };
}

function tenantPermission(entry: Readonly<Record<string, unknown>>, at: string, input: KindInput, context: KindContext): Record<string, unknown> {
  warnUnknownFields(entry, ['tenantPatterns', 'allowedActions'], at, context);
  const tenantPatterns = optionalStrings(entry, 'tenantPatterns', at);
  const allowedActions = optionalStrings(entry, 'allowedActions', at);
  if (tenantPatterns === undefined || allowedActions === undefined) throw new NotConvertible(`${at}tenantPatterns and ${at}allowedActions must not be empty`);
  const unsupported = allowedActions.filter((action) => !(TENANT_ACTIONS as readonly string[]).includes(action));
  if (unsupported.length > 0) {
    throw new NotConvertible(`${at}allowedActions ${unsupported.join(', ')}: ours grants only ${TENANT_ACTIONS.join(' and ')} on tenants`);
  }
  checkPrefix(tenantPatterns, `${at}tenantPatterns`, input, context);
  return { tenantPatterns, allowedActions };
}

/** Converts one OpensearchRole; `roleName` is set to their name so the same role is adopted. */
export const convertRole: KindConverter = (input, context) => {
  const spec = input.spec;
  warnUnknownFields(spec, ['opensearchCluster', 'clusterPermissions', 'indexPermissions', 'tenantPermissions'], 'spec.', context);
  const indexPermissions = list(spec, 'indexPermissions').map((entry, i) => indexPermission(entry, `spec.indexPermissions[${i}].`, input, context));
  const tenantPermissions = list(spec, 'tenantPermissions').map((entry, i) => tenantPermission(entry, `spec.tenantPermissions[${i}].`, input, context));
  checkPrefix([input.name], 'roleName', input, context);
  return [
    ourObject(
      'OpenSearchRole',
      input,
      {
        roleName: input.name,
        ...present('clusterPermissions', optionalStrings(spec, 'clusterPermissions', 'spec.')),
        ...present('indexPermissions', indexPermissions.length > 0 ? indexPermissions : undefined),
        ...present('tenantPermissions', tenantPermissions.length > 0 ? tenantPermissions : undefined),
      },
      context.options,
    ),
  ];
};
