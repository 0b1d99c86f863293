import { describe, expect, it } from 'vitest';
import { componentTemplateWire, diffComponentTemplate, diffIndexTemplate, indexTemplateWire } from './template-plan.ts';

describe('indexTemplateWire and diffIndexTemplate', () => {
  const desired = indexTemplateWire({
    indexPatterns: ['team-a-logs-*'],
    composedOf: ['team-a-base'],
    priority: 7,
    template: { settings: { numberOfShards: 1, refreshInterval: '5s' }, aliases: { 'team-a-all': { routing: '1' } } },
    _meta: { owner: 'team-a' },
  });

  it('builds the OpenSearch body', () => {
    expect(desired).toEqual({
      index_patterns: ['team-a-logs-*'],
      composed_of: ['team-a-base'],
      priority: 7,
      template: { settings: { 'index.number_of_shards': 1, 'index.refresh_interval': '5s' }, aliases: { 'team-a-all': { routing: '1' } } },
      _meta: { owner: 'team-a' },
    });
  });

  // The observed shape is what OpenSearch 2.19 returns from GET /_index_template/<name>.
  const observed = {
    index_patterns: ['team-a-logs-*'],
    template: { settings: { index: { number_of_shards: '1', refresh_interval: '5s' } }, aliases: { 'team-a-all': { index_routing: '1', search_routing: '1' } } },
    composed_of: ['team-a-base'],
    priority: 7,
    _meta: { owner: 'team-a' },
  };

  it('is up to date with the nested, stringified form OpenSearch returns', () => {
    expect(diffIndexTemplate(desired, observed)).toEqual([]);
  });

  it('reports differences and absence', () => {
    expect(diffIndexTemplate(desired, { ...observed, priority: 1, template: { settings: { index: { number_of_shards: '2' } } } })).toEqual([
      'priority: differ',
      'template.settings: differ',
      'template.aliases: differ',
    ]);
    expect(diffIndexTemplate(desired, undefined)).toEqual(['template: missing']);
  });
});

describe('a data stream template', () => {
  it('puts data_stream with the default timestamp field, and compares it with what OpenSearch returns', () => {
    const wire = indexTemplateWire({ indexPatterns: ['team-a-app-*'], dataStream: {} });
    expect(wire.data_stream).toEqual({ timestamp_field: { name: '@timestamp' } });
    expect(diffIndexTemplate(wire, { index_patterns: ['team-a-app-*'], data_stream: { timestamp_field: { name: '@timestamp' } } })).toEqual([]);
    expect(diffIndexTemplate(wire, { index_patterns: ['team-a-app-*'] })).toEqual(['dataStream: differ']);
    expect(diffIndexTemplate(indexTemplateWire({ indexPatterns: ['team-a-app-*'], dataStream: { timestampField: 'time' } }), { index_patterns: ['team-a-app-*'], data_stream: { timestamp_field: { name: '@timestamp' } } })).toEqual([
      'dataStream: differ',
    ]);
    expect(diffIndexTemplate(indexTemplateWire({ indexPatterns: ['team-a-app-*'] }), { index_patterns: ['team-a-app-*'], data_stream: { timestamp_field: { name: '@timestamp' } } })).toEqual(['dataStream: differ']);
  });
});

describe('componentTemplateWire and diffComponentTemplate', () => {
  it('round-trips a component template', () => {
    const desired = componentTemplateWire({ template: { settings: { numberOfReplicas: 0 }, mappings: { properties: { a: { type: 'keyword' } } } }, version: 2 });
    expect(desired).toEqual({ template: { settings: { 'index.number_of_replicas': 0 }, mappings: { properties: { a: { type: 'keyword' } } } }, version: 2 });
    const observed = { template: { settings: { index: { number_of_replicas: '0' } }, mappings: { properties: { a: { type: 'keyword' } } } }, version: 2 };
    expect(diffComponentTemplate(desired, observed)).toEqual([]);
    expect(diffComponentTemplate(desired, { ...observed, version: 3 })).toEqual(['version: differ']);
  });
});
