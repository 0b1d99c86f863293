import { describe, expect, it } from 'vitest';
import { convertOpster } from './index.ts';
import { opster, OPTIONS, ourMetadata, specErrors } from './migration.test-support.ts';

describe('OpensearchUser → OpenSearchUser', () => {
  it('keeps the name in OpenSearch, the same Secret and key, backend roles and attributes, and adopts', () => {
    const result = convertOpster(
      [opster('OpensearchUser', 'alice', { passwordFrom: { name: 'alice-password', key: 'pw' }, backendRoles: ['dev'], attributes: { team: 'a' } })],
      OPTIONS,
    );
    expect(result).toEqual({
      objects: [
        {
          apiVersion: 'opensearch.domain-operators.io/v1alpha1',
          kind: 'OpenSearchUser',
          metadata: ourMetadata('alice'),
          spec: { connectionRef: { name: 'search' }, username: 'alice', passwordSecretRef: { name: 'alice-password', key: 'pw' }, backendRoles: ['dev'], attributes: { team: 'a' } },
        },
      ],
      warnings: [],
      errors: [],
    });
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });

  it('refuses opendistroSecurityRoles, which ours would clear (lost access)', () => {
    const result = convertOpster([opster('OpensearchUser', 'bob', { passwordFrom: { name: 's', key: 'k' }, opendistroSecurityRoles: ['admin'] })], OPTIONS);
    expect(result.objects).toEqual([]);
    expect(result.errors).toEqual([{ source: 'OpensearchUser team-a/bob', message: expect.stringContaining('opendistroSecurityRoles (admin)') as string }]);
  });

  it('refuses a user without passwordFrom, since ours would generate a new password', () => {
    const result = convertOpster([opster('OpensearchUser', 'carol', {})], OPTIONS);
    expect(result.errors[0]?.message).toContain('passwordFrom');
  });

  it("drops their ownership attribute k8s-uid with a warning, and reports names outside the connection's prefix", () => {
    const result = convertOpster([opster('OpensearchUser', 'dave', { passwordFrom: { name: 's', key: 'k' }, attributes: { 'k8s-uid': 'x' } })], {
      ...OPTIONS,
      indexPrefix: '{namespace}-',
    });
    expect(result.objects[0]?.spec).not.toHaveProperty('attributes');
    expect(result.warnings.map((warning) => warning.message)).toEqual([
      expect.stringContaining('k8s-uid'),
      expect.stringContaining('username dave outside the connection\'s prefix "team-a-"'),
    ]);
  });
});
