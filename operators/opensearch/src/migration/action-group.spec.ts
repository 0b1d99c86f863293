import { describe, expect, it } from 'vitest';
import { convertOpster } from './index.ts';
import { opster, OPTIONS, ourMetadata, specErrors } from './migration.test-support.ts';

describe('OpensearchActionGroup → OpenSearchActionGroup', () => {
  it('keeps the name, type, actions and description', () => {
    const result = convertOpster([opster('OpensearchActionGroup', 'read-only', { allowedActions: ['indices:data/read/*'], type: 'index', description: 'reads' })], OPTIONS);
    expect(result).toEqual({
      objects: [
        {
          apiVersion: 'opensearch.domain-operators.io/v1alpha1',
          kind: 'OpenSearchActionGroup',
          metadata: ourMetadata('read-only'),
          spec: { connectionRef: { name: 'search' }, name: 'read-only', type: 'index', allowedActions: ['indices:data/read/*'], description: 'reads' },
        },
      ],
      warnings: [],
      errors: [],
    });
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });

  it('defaults an absent type to index with a warning, and refuses an unknown one', () => {
    const untyped = convertOpster([opster('OpensearchActionGroup', 'g', { allowedActions: ['read'] })], OPTIONS);
    expect(untyped.objects[0]?.spec['type']).toBe('index');
    expect(untyped.warnings[0]?.message).toContain('spec.type is not set');
    expect(convertOpster([opster('OpensearchActionGroup', 'g', { allowedActions: ['read'], type: 'other' })], OPTIONS).errors[0]?.message).toContain('spec.type other');
  });
});
