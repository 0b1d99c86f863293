import { describe, expect, it } from 'vitest';
import type { ObservedIndex } from './index-plan.ts';
import { createIndexBody, desiredIndex, flattenSettings, planIndex } from './index-plan.ts';

const observed: ObservedIndex = {
  name: 'team-a-logs',
  uuid: 'u1',
  settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '0', 'index.refresh_interval': '1s', 'index.max_result_window': '10000' },
  mappings: { properties: { msg: { type: 'text' } } },
  aliases: { 'team-a-read': { filter: { term: { level: 'error' } } }, 'team-a-manual': {} },
};

describe('flattenSettings', () => {
  it('maps the named fields and flattens the index map under index.', () => {
    expect(
      flattenSettings({ numberOfShards: 3, numberOfReplicas: 1, refreshInterval: '30s', index: { 'blocks.write': true, mapping: { total_fields: { limit: 2000 } }, 'index.max_result_window': 500, gone: null } }),
    ).toEqual({
      'index.number_of_shards': 3,
      'index.number_of_replicas': 1,
      'index.refresh_interval': '30s',
      'index.blocks.write': true,
      'index.mapping.total_fields.limit': 2000,
      'index.max_result_window': 500,
    });
  });
});

describe('createIndexBody', () => {
  it('carries settings, mappings and aliases in one request', () => {
    const desired = desiredIndex('team-a-logs', {
      settings: { numberOfShards: 1 },
      mappings: { properties: { msg: { type: 'text' } } },
      aliases: { 'team-a-write': { isWriteIndex: true, routing: '1' } },
    });
    expect(createIndexBody(desired)).toEqual({
      settings: { 'index.number_of_shards': 1 },
      mappings: { properties: { msg: { type: 'text' } } },
      aliases: { 'team-a-write': { routing: '1', is_write_index: true } },
    });
    expect(createIndexBody(desiredIndex('x', {}))).toEqual({ settings: {} });
  });
});

describe('planIndex', () => {
  it('is up to date when the listed settings, mappings and aliases match (strings vs numbers)', () => {
    const plan = planIndex(
      desiredIndex('team-a-logs', {
        settings: { numberOfShards: 1, numberOfReplicas: 0, refreshInterval: '1s' },
        mappings: { properties: { msg: { type: 'text' } } },
        aliases: { 'team-a-read': { filter: { term: { level: 'error' } } } },
      }),
      observed,
      ['team-a-read'],
    );
    expect(plan).toEqual({ kind: 'apply', upToDate: true, diff: [], settings: undefined, mappings: undefined, aliasActions: [], appliedAliases: ['team-a-read'] });
  });

  it('plans replica, refresh and dynamic index.* changes', () => {
    const plan = planIndex(desiredIndex('team-a-logs', { settings: { numberOfReplicas: 1, refreshInterval: '30s', index: { max_result_window: 500 } } }), observed);
    expect(plan.kind).toBe('apply');
    if (plan.kind !== 'apply') return;
    expect(plan.upToDate).toBe(false);
    expect(plan.settings).toEqual({ 'index.number_of_replicas': 1, 'index.refresh_interval': '30s', 'index.max_result_window': 500 });
    expect(plan.diff).toContain('settings.index.number_of_replicas: want 1, have 0');
  });

  it('refuses a shard count change with ShardCountImmutable and plans nothing', () => {
    const plan = planIndex(desiredIndex('team-a-logs', { settings: { numberOfShards: 3, numberOfReplicas: 1 } }), observed);
    expect(plan.kind).toBe('refused');
    if (plan.kind !== 'refused') return;
    expect(plan.reason).toBe('ShardCountImmutable');
    expect(plan.message).toContain('want 3, have 1');
  });

  it('refuses a known static setting with SettingImmutable', () => {
    const plan = planIndex(desiredIndex('team-a-logs', { settings: { index: { codec: 'best_compression' } } }), observed);
    expect(plan.kind === 'refused' && plan.reason).toBe('SettingImmutable');
  });

  it('refuses a mapping conflict with the field path and plans no other change', () => {
    const plan = planIndex(
      desiredIndex('team-a-logs', { settings: { numberOfReplicas: 1 }, mappings: { properties: { msg: { type: 'keyword' } } }, aliases: { 'team-a-new': {} } }),
      observed,
    );
    expect(plan.kind).toBe('refused');
    if (plan.kind !== 'refused') return;
    expect(plan.reason).toBe('MappingConflict');
    expect(plan.message).toContain('field msg cannot change type from text to keyword');
  });

  it('adds a mapping field', () => {
    const plan = planIndex(desiredIndex('team-a-logs', { mappings: { properties: { msg: { type: 'text' }, level: { type: 'keyword' } } } }), observed);
    expect(plan.kind === 'apply' && plan.mappings).toEqual({ properties: { level: { type: 'keyword' } } });
  });

  it('adds, updates and removes only the aliases it manages', () => {
    const plan = planIndex(
      desiredIndex('team-a-logs', { aliases: { 'team-a-read': { filter: { term: { level: 'warn' } } }, 'team-a-write': { isWriteIndex: true } } }),
      observed,
      ['team-a-read', 'team-a-old', 'team-a-gone'],
    );
    expect(plan.kind).toBe('apply');
    if (plan.kind !== 'apply') return;
    expect(plan.aliasActions).toEqual([
      { add: { index: 'team-a-logs', alias: 'team-a-read', filter: { term: { level: 'warn' } } } },
      { add: { index: 'team-a-logs', alias: 'team-a-write', is_write_index: true } },
    ]);
    expect(plan.appliedAliases).toEqual(['team-a-read', 'team-a-write']);

    const removal = planIndex(desiredIndex('team-a-logs', { aliases: {} }), observed, ['team-a-read']);
    // team-a-manual was never added by this resource: kept.
    expect(removal.kind === 'apply' && removal.aliasActions).toEqual([{ remove: { index: 'team-a-logs', alias: 'team-a-read' } }]);
    expect(removal.kind === 'apply' && removal.diff).toEqual(['aliases.team-a-read: remove']);
  });

  it('compares routing with both index and search routing', () => {
    const routed: ObservedIndex = { ...observed, aliases: { r: { indexRouting: '1', searchRouting: '1' } } };
    expect(planIndex(desiredIndex('team-a-logs', { aliases: { r: { routing: '1' } } }), routed).kind === 'apply').toBe(true);
    const same = planIndex(desiredIndex('team-a-logs', { aliases: { r: { routing: '1' } } }), routed);
    expect(same.kind === 'apply' && same.upToDate).toBe(true);
    const changed = planIndex(desiredIndex('team-a-logs', { aliases: { r: { routing: '2' } } }), routed);
    expect(changed.kind === 'apply' && changed.diff).toEqual(['aliases.r: update']);
  });
});
