import { describe, expect, it } from 'vitest';
import { convertOpster } from './index.ts';
import { bindingName } from './role-binding.ts';
import { opster, OPTIONS, ourMetadata, specErrors } from './migration.test-support.ts';

describe('OpensearchUserRoleBinding → OpenSearchRoleBinding', () => {
  it('makes one binding per role: roleRef to a role of the batch, externalRole (with a bindableRoles warning) for others', () => {
    const result = convertOpster(
      [
        opster('OpensearchRole', 'logs-reader', { clusterPermissions: ['cluster_monitor'] }),
        opster('OpensearchUserRoleBinding', 'alice-access', { roles: ['logs-reader', 'kibana_user'], users: ['alice'], backendRoles: ['dev'] }),
      ],
      OPTIONS,
    );
    expect(result.errors).toEqual([]);
    expect(result.objects.slice(1)).toEqual([
      {
        apiVersion: 'opensearch.domain-operators.io/v1alpha1',
        kind: 'OpenSearchRoleBinding',
        metadata: ourMetadata('alice-access-logs-reader'),
        spec: { connectionRef: { name: 'search' }, roleRef: { name: 'logs-reader' }, users: ['alice'], backendRoles: ['dev'] },
      },
      {
        apiVersion: 'opensearch.domain-operators.io/v1alpha1',
        kind: 'OpenSearchRoleBinding',
        metadata: ourMetadata('alice-access-kibana-user'),
        spec: { connectionRef: { name: 'search' }, externalRole: 'kibana_user', users: ['alice'], backendRoles: ['dev'] },
      },
    ]);
    expect(result.warnings).toEqual([
      { source: 'OpensearchUserRoleBinding team-a/alice-access', message: expect.stringContaining('role kibana_user is not an OpensearchRole of this batch') as string },
    ]);
    for (const object of result.objects) expect(specErrors(object)).toEqual([]);
  });

  it('keeps the name when it binds one role, and only a role of the same namespace is a roleRef', () => {
    const role = { ...opster('OpensearchRole', 'r', {}), metadata: { name: 'r', namespace: 'elsewhere' } };
    const result = convertOpster([role, opster('OpensearchUserRoleBinding', 'b', { roles: ['r'], users: ['u'] })], OPTIONS);
    expect(result.objects[1]?.metadata.name).toBe('b');
    expect(result.objects[1]?.spec).toEqual({ connectionRef: { name: 'search' }, externalRole: 'r', users: ['u'] });
  });

  it('names bindings as DNS names', () => {
    expect(bindingName('b', 'All_Access')).toBe('b-all-access');
    expect(bindingName('b', '__')).toBe('b-role');
  });

  it('refuses a binding without roles', () => {
    expect(convertOpster([opster('OpensearchUserRoleBinding', 'b', { users: ['u'] })], OPTIONS).errors[0]?.message).toBe('spec.roles must not be empty');
  });
});
