import { describe, expect, it } from 'vitest';
import { convertOpster } from './index.ts';
import { opster, OPTIONS, ourMetadata, specErrors } from './migration.test-support.ts';

describe('OpensearchTenant → OpenSearchTenant', () => {
  it('keeps the name and description and retains the tenant on deletion', () => {
    const result = convertOpster([opster('OpensearchTenant', 'analytics', { description: 'dashboards of team a' })], OPTIONS);
    expect(result).toEqual({
      objects: [
        {
          apiVersion: 'opensearch.domain-operators.io/v1alpha1',
          kind: 'OpenSearchTenant',
          metadata: ourMetadata('analytics'),
          spec: { connectionRef: { name: 'search' }, name: 'analytics', description: 'dashboards of team a', deletionPolicy: 'Retain' },
        },
      ],
      warnings: [],
      errors: [],
    });
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });
});

describe('specErrors', () => {
  it('does check: a spec outside our schema is reported', () => {
    const [tenant] = convertOpster([opster('OpensearchTenant', 'x', {})], OPTIONS).objects;
    expect(specErrors({ ...tenant!, spec: { ...tenant!.spec, deletionPolicy: 'Sometimes' } })).not.toEqual([]);
    expect(specErrors({ ...tenant!, spec: { name: 'x' } })).not.toEqual([]);
  });
});
