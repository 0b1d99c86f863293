/**
 * OpensearchUserRoleBinding → one OpenSearchRoleBinding per role. A role converted in the same batch (same
 * namespace) is named by `roleRef`; any other role by `externalRole`, which the connection must list in
 * `tenancy.bindableRoles`. Ours adds entries to a role mapping and keeps the ones already there, so the mapping
 * their operator wrote is never emptied on the way.
 */
import { batchRoleKey, checkPrefix, NotConvertible, ourObject, optionalStrings, present, warnUnknownFields } from './kind-context.ts';
import type { KindConverter } from './kind-context.ts';

const MAX_NAME = 253;

/** A DNS subdomain name for the binding of `role`: `<binding>-<role>`, lowercased, other characters as `-`. */
export function bindingName(binding: string, role: string): string {
  const suffix = role
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return `${binding}-${suffix === '' ? 'role' : suffix}`.slice(0, MAX_NAME).replace(/[^a-z0-9]+$/, '');
}

/** Converts one OpensearchUserRoleBinding; keeps its name when it binds one role, else `<name>-<role>` each. */
export const convertRoleBinding: KindConverter = (input, context) => {
  const spec = input.spec;
  warnUnknownFields(spec, ['opensearchCluster', 'roles', 'users', 'backendRoles'], 'spec.', context);
  const roles = optionalStrings(spec, 'roles', 'spec.');
  if (roles === undefined) throw new NotConvertible('spec.roles must not be empty');
  const users = optionalStrings(spec, 'users', 'spec.');
  const backendRoles = optionalStrings(spec, 'backendRoles', 'spec.');
  if (users === undefined && backendRoles === undefined) context.warn('binds neither users nor backendRoles; the bindings convert but map nothing');
  if (users !== undefined) checkPrefix(users, 'users', input, context);
  const taken = new Set<string>();
  return [...new Set(roles)].map((role) => {
    let name = roles.length === 1 ? input.name : bindingName(input.name, role);
    for (let n = 2; taken.has(name); n++) name = `${bindingName(input.name, role).slice(0, MAX_NAME - 4)}-${n}`;
    taken.add(name);
    const ourRole = context.roles.get(batchRoleKey(input.namespace, role));
    if (ourRole === undefined) {
      context.warn(`role ${role} is not an OpensearchRole of this batch: it becomes externalRole, which the connection must list in tenancy.bindableRoles`);
    }
    return ourObject(
      'OpenSearchRoleBinding',
      input,
      {
        ...(ourRole === undefined ? { externalRole: role } : { roleRef: { name: ourRole } }),
        ...present('users', users),
        ...present('backendRoles', backendRoles),
      },
      context.options,
      name,
    );
  });
};
