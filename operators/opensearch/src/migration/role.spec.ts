import { describe, expect, it } from 'vitest';
import { convertOpster } from './index.ts';
import { opster, OPTIONS, ourMetadata, specErrors } from './migration.test-support.ts';

describe('OpensearchRole → OpenSearchRole', () => {
  it('maps every permission field by field, with roleName set to their name', () => {
    const result = convertOpster(
      [
        opster('OpensearchRole', 'logs-reader', {
          clusterPermissions: ['cluster_composite_ops_ro'],
          indexPermissions: [{ indexPatterns: ['logs-*'], allowedActions: ['read'], dls: '{"term":{"public":true}}', fls: ['~secret'], maskedFields: ['email'] }],
          tenantPermissions: [{ tenantPatterns: ['team-a'], allowedActions: ['kibana_all_read'] }],
        }),
      ],
      OPTIONS,
    );
    expect(result).toEqual({
      objects: [
        {
          apiVersion: 'opensearch.domain-operators.io/v1alpha1',
          kind: 'OpenSearchRole',
          metadata: ourMetadata('logs-reader'),
          spec: {
            connectionRef: { name: 'search' },
            roleName: 'logs-reader',
            clusterPermissions: ['cluster_composite_ops_ro'],
            indexPermissions: [{ indexPatterns: ['logs-*'], allowedActions: ['read'], dls: '{"term":{"public":true}}', fls: ['~secret'], maskedFields: ['email'] }],
            tenantPermissions: [{ tenantPatterns: ['team-a'], allowedActions: ['kibana_all_read'] }],
          },
        },
      ],
      warnings: [],
      errors: [],
    });
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });

  it('refuses a tenant action ours cannot grant rather than dropping access', () => {
    const result = convertOpster([opster('OpensearchRole', 'r', { tenantPermissions: [{ tenantPatterns: ['t'], allowedActions: ['kibana_all_read', 'custom'] }] })], OPTIONS);
    expect(result.objects).toEqual([]);
    expect(result.errors[0]?.message).toContain('allowedActions custom');
  });

  it('warns about a field it does not know and about patterns outside the prefix', () => {
    const result = convertOpster([opster('OpensearchRole', 'team-a-r', { indexPermissions: [{ indexPatterns: ['logs-*'], allowedActions: ['read'], extra: 1 }] })], {
      ...OPTIONS,
      indexPrefix: '{namespace}-',
    });
    expect(result.warnings.map((warning) => warning.message)).toEqual([
      'spec.indexPermissions[0].extra is not a field we know; it is not carried over',
      expect.stringContaining('spec.indexPermissions[0].indexPatterns logs-* outside'),
    ]);
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });
});
