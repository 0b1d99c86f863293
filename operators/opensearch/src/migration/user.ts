/**
 * OpensearchUser → OpenSearchUser. Their user's name in OpenSearch is `metadata.name`; `passwordFrom` names the
 * same Secret and key ours reads, so the password (and every login) stays as it is.
 */
import { checkPrefix, NotConvertible, ourObject, optionalRecord, optionalString, optionalStrings, present, warnUnknownFields } from './kind-context.ts';
import type { KindConverter } from './kind-context.ts';

/** The attribute their operator marks its users with (the CR's UID); ours does not carry it. */
export const OPSTER_UID_ATTRIBUTE = 'k8s-uid';

/**
 * Converts one OpensearchUser. Refuses a user with `opendistroSecurityRoles` (ours clears a user's own security
 * roles, so access granted that way would be lost: move them to an OpensearchUserRoleBinding first) or without
 * `passwordFrom` (ours would generate a new password).
 */
export const convertUser: KindConverter = (input, context) => {
  const spec = input.spec;
  warnUnknownFields(spec, ['opensearchCluster', 'passwordFrom', 'opendistroSecurityRoles', 'backendRoles', 'attributes'], 'spec.', context);
  const securityRoles = optionalStrings(spec, 'opendistroSecurityRoles', 'spec.');
  if (securityRoles !== undefined) {
    throw new NotConvertible(
      `spec.opendistroSecurityRoles (${securityRoles.join(', ')}) has no counterpart: our OpenSearchUser clears a user's own security roles, which would cut the access they grant; ` +
        'move them into an OpensearchUserRoleBinding (and let their operator apply it) before converting',
    );
  }
  const passwordFrom = optionalRecord(spec, 'passwordFrom', 'spec.');
  const secretName = passwordFrom === undefined ? undefined : optionalString(passwordFrom, 'name', 'spec.passwordFrom.');
  const key = passwordFrom === undefined ? undefined : optionalString(passwordFrom, 'key', 'spec.passwordFrom.');
  if (passwordFrom === undefined || secretName === undefined || key === undefined) {
    throw new NotConvertible('spec.passwordFrom.name and spec.passwordFrom.key are required: without them ours would generate a new password');
  }
  if (passwordFrom['optional'] === true) context.warn('spec.passwordFrom.optional is not carried over: ours requires the Secret');
  const attributes = optionalRecord(spec, 'attributes', 'spec.');
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (typeof value !== 'string') throw new NotConvertible(`spec.attributes.${name} must be a string`);
    if (name !== OPSTER_UID_ATTRIBUTE) kept[name] = value;
  }
  if (attributes !== undefined && OPSTER_UID_ATTRIBUTE in attributes) {
    context.warn(`spec.attributes.${OPSTER_UID_ATTRIBUTE} is their operator's ownership mark; it is not carried over`);
  }
  checkPrefix([input.name], 'username', input, context);
  return [
    ourObject(
      'OpenSearchUser',
      input,
      {
        username: input.name,
        passwordSecretRef: { name: secretName, key },
        ...present('backendRoles', optionalStrings(spec, 'backendRoles', 'spec.')),
        ...present('attributes', Object.keys(kept).length > 0 ? kept : undefined),
      },
      context.options,
    ),
  ];
};
