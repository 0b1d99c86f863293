import { describe, expect, it } from 'vitest';
import { convertOpster } from './index.ts';
import { opster, OPTIONS, ourMetadata, specErrors } from './migration.test-support.ts';

describe('OpensearchComponentTemplate → OpenSearchComponentTemplate', () => {
  it('keeps the name and the template, flattening settings; Retain', () => {
    const result = convertOpster(
      [opster('OpensearchComponentTemplate', 'base', { template: { settings: { 'index.number_of_replicas': 2, 'index.lifecycle': { name: 'x' } } }, version: 1, _meta: { a: 1 } })],
      OPTIONS,
    );
    expect(result).toEqual({
      objects: [
        {
          apiVersion: 'opensearch.domain-operators.io/v1alpha1',
          kind: 'OpenSearchComponentTemplate',
          metadata: ourMetadata('base'),
          spec: {
            connectionRef: { name: 'search' },
            templateName: 'base',
            template: { settings: { numberOfReplicas: 2, index: { 'lifecycle.name': 'x' } } },
            version: 1,
            _meta: { a: 1 },
            deletionPolicy: 'Retain',
          },
        },
      ],
      warnings: [],
      errors: [],
    });
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });

  it('warns that allowAutoCreate is not supported', () => {
    const result = convertOpster([opster('OpensearchComponentTemplate', 'c', { name: 'c-named', template: {}, allowAutoCreate: true })], OPTIONS);
    expect(result.objects[0]?.spec).toMatchObject({ templateName: 'c-named', template: {} });
    expect(result.warnings[0]?.message).toContain('spec.allowAutoCreate is not supported');
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });
});
