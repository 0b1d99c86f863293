import { describe, expect, it } from 'vitest';
import { convertOpster } from './index.ts';
import { opster, OPTIONS, ourMetadata, specErrors } from './migration.test-support.ts';

describe('OpensearchIndexTemplate → OpenSearchIndexTemplate', () => {
  it('keeps spec.name as templateName and maps the template, data stream, priority and _meta; Retain', () => {
    const result = convertOpster(
      [
        opster('OpensearchIndexTemplate', 'logs', {
          name: 'logs-template',
          indexPatterns: ['logs-*'],
          dataStream: { timestamp_field: { name: '@ts' } },
          template: {
            settings: { index: { number_of_shards: '2', number_of_replicas: 1, refresh_interval: '5s', 'codec': 'best_compression' } },
            mappings: { properties: { message: { type: 'text' } } },
            aliases: { 'all-logs': { filter: { term: { level: 'error' } }, routing: '1', isWriteIndex: false } },
          },
          composedOf: ['base'],
          priority: 100,
          version: 3,
          _meta: { owner: 'team-a' },
        }),
      ],
      OPTIONS,
    );
    expect(result).toEqual({
      objects: [
        {
          apiVersion: 'opensearch.domain-operators.io/v1alpha1',
          kind: 'OpenSearchIndexTemplate',
          metadata: ourMetadata('logs'),
          spec: {
            connectionRef: { name: 'search' },
            templateName: 'logs-template',
            indexPatterns: ['logs-*'],
            template: {
              settings: { numberOfShards: 2, numberOfReplicas: 1, refreshInterval: '5s', index: { codec: 'best_compression' } },
              mappings: { properties: { message: { type: 'text' } } },
              aliases: { 'all-logs': { filter: { term: { level: 'error' } }, routing: '1', isWriteIndex: false } },
            },
            composedOf: ['base'],
            priority: 100,
            version: 3,
            _meta: { owner: 'team-a' },
            dataStream: { timestampField: '@ts' },
            deletionPolicy: 'Retain',
          },
        },
      ],
      warnings: [],
      errors: [],
    });
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });

  it('defaults templateName to metadata.name, and warns about alias fields a template does not use', () => {
    const result = convertOpster([opster('OpensearchIndexTemplate', 'plain', { indexPatterns: ['p-*'], template: { aliases: { a: { index: 'x' } } } })], OPTIONS);
    expect(result.objects[0]?.spec['templateName']).toBe('plain');
    expect(result.warnings[0]?.message).toBe("spec.template.aliases.a.index is not carried over: a template's alias is named by its key");
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });

  it('refuses a template without index patterns', () => {
    expect(convertOpster([opster('OpensearchIndexTemplate', 't', {})], OPTIONS).errors[0]?.message).toBe('spec.indexPatterns must not be empty');
  });
});
