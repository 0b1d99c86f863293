import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTerminalError } from '@domain-operators/reconcile';
import type { DesiredIndex } from './index-plan.ts';
import { createIndexBody, desiredIndex, planIndex } from './index-plan.ts';
import type { OpenSearchIndexSpec } from '../api/v1alpha1/index.ts';
import { componentTemplateWire, diffComponentTemplate, diffIndexTemplate, indexTemplateWire } from './template-plan.ts';
import type { OpenSearchFixture } from './test-support.int.ts';
import { openSearchFixture } from './test-support.int.ts';

type IndexFields = Pick<OpenSearchIndexSpec, 'settings' | 'mappings' | 'aliases'>;

describe('indices and templates against the real node', () => {
  let fx: OpenSearchFixture;
  let index: string;
  const spec: IndexFields = {
    settings: { numberOfShards: 1, numberOfReplicas: 0, refreshInterval: '5s', index: { max_result_window: 5000 } },
    mappings: { dynamic: 'strict', properties: { message: { type: 'text' }, level: { type: 'keyword' }, at: { type: 'date' } } },
    aliases: {},
  };

  beforeAll(async () => {
    fx = await openSearchFixture();
    index = `team-a-logs-${fx.suffix}`;
  });

  afterAll(async () => {
    await fx.api.deleteIndex(index);
    await fx.api.deleteIndex(`team-a-tpl-${fx.suffix}-1`);
    await fx.api.deleteIndexTemplate(`team-a-tpl-${fx.suffix}`);
    await fx.api.deleteComponentTemplate(`team-a-base-${fx.suffix}`);
    await fx.api.close();
  });

  async function plan(fields: IndexFields, applied: readonly string[] = []): Promise<ReturnType<typeof planIndex>> {
    const observed = await fx.api.getIndex(index);
    if (observed === undefined) throw new Error(`index ${index} is missing`);
    return planIndex(desiredIndex(index, fields), observed, applied);
  }

  async function apply(desired: DesiredIndex, applied: readonly string[] = []): Promise<readonly string[]> {
    const observed = await fx.api.getIndex(desired.name);
    if (observed === undefined) throw new Error('missing');
    const result = planIndex(desired, observed, applied);
    if (result.kind === 'refused') throw new Error(result.message);
    if (result.settings !== undefined) await fx.api.putIndexSettings(desired.name, result.settings);
    if (result.mappings !== undefined) await fx.api.putMapping(desired.name, result.mappings);
    await fx.api.updateAliases(result.aliasActions);
    return result.appliedAliases;
  }

  it('creates an index with settings, mappings and aliases, and reads it back up to date', async () => {
    const fields: IndexFields = { ...spec, aliases: { [`team-a-read-${fx.suffix}`]: { filter: { term: { level: 'error' } } }, [`team-a-write-${fx.suffix}`]: { isWriteIndex: true, routing: '1' } } };
    expect(await fx.api.getIndex(index)).toBeUndefined();
    const { uuid, shardsAcknowledged } = await fx.api.createIndex(index, createIndexBody(desiredIndex(index, fields)));
    expect(shardsAcknowledged).toBe(true);
    expect(uuid).toMatch(/^[\w-]{10,}$/);

    const observed = await fx.api.getIndex(index);
    expect(observed?.uuid).toBe(uuid);
    expect(observed?.settings['index.number_of_shards']).toBe('1');
    expect(observed?.settings['index.refresh_interval']).toBe('5s');
    expect(observed?.settings['index.max_result_window']).toBe('5000');
    expect(observed?.mappings).toMatchObject({ dynamic: 'strict', properties: { level: { type: 'keyword' } } });
    expect(observed?.aliases[`team-a-write-${fx.suffix}`]).toEqual({ indexRouting: '1', searchRouting: '1', isWriteIndex: true });
    expect(await plan(fields, Object.keys(fields.aliases ?? {}))).toMatchObject({ kind: 'apply', upToDate: true, diff: [] });
    expect(['green', 'yellow']).toContain(await fx.api.indexHealth(index));
  });

  it('changes replicas and a dynamic index setting', async () => {
    const fields: IndexFields = { ...spec, settings: { ...spec.settings, numberOfReplicas: 1, index: { max_result_window: 6000 } } };
    const before = await plan(fields);
    expect(before.kind === 'apply' && before.diff).toEqual([
      'settings.index.max_result_window: want 6000, have 5000',
      'settings.index.number_of_replicas: want 1, have 0',
    ]);
    await apply(desiredIndex(index, fields));
    const observed = await fx.api.getIndex(index);
    expect(observed?.settings['index.number_of_replicas']).toBe('1');
    expect(await plan(fields)).toMatchObject({ upToDate: true });
    // One node: the replica stays unassigned, the index is yellow.
    expect(await fx.api.indexHealth(index)).toBe('yellow');
  });

  it('adds a mapping field', async () => {
    const fields: IndexFields = { ...spec, mappings: { ...spec.mappings, properties: { message: { type: 'text', fields: { raw: { type: 'keyword' } } }, level: { type: 'keyword' }, at: { type: 'date' }, host: { type: 'keyword' } } } };
    const before = await plan(fields);
    expect(before.kind === 'apply' && before.mappings).toEqual({ properties: { message: { type: 'text', fields: { raw: { type: 'keyword' } } }, host: { type: 'keyword' } } });
    await apply(desiredIndex(index, fields));
    const observed = await fx.api.getIndex(index);
    expect(observed?.mappings).toMatchObject({ properties: { host: { type: 'keyword' }, message: { fields: { raw: { type: 'keyword' } } } } });
    expect(await plan(fields)).toMatchObject({ upToDate: true });
  });

  it('refuses a conflicting mapping in the plan, and maps the node’s own refusal to MappingConflict', async () => {
    const conflicting: IndexFields = { ...spec, mappings: { properties: { level: { type: 'integer' }, extra: { type: 'keyword' } } } };
    const refused = await plan(conflicting);
    expect(refused).toMatchObject({ kind: 'refused', reason: 'MappingConflict' });
    expect(refused.kind === 'refused' && refused.message).toContain('field level cannot change type from keyword to integer');

    // Sent anyway: OpenSearch refuses it, the client makes it a terminal MappingConflict with OpenSearch's reason.
    const error: unknown = await fx.api.putMapping(index, { properties: { level: { type: 'integer' } } }).catch((err: unknown) => err);
    expect(isTerminalError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'MappingConflict' });
    expect((error as Error).message).toContain('mapper [level] cannot be changed from type [keyword] to [integer]');
    // Nothing changed: no `extra` field, `level` still keyword.
    const observed = await fx.api.getIndex(index);
    expect(observed?.mappings['properties']).toMatchObject({ level: { type: 'keyword' } });
    expect(observed?.mappings['properties']).not.toHaveProperty('extra');
  });

  it('refuses a shard count change (ShardCountImmutable), and OpenSearch refuses a static setting as terminal', async () => {
    expect(await plan({ ...spec, settings: { numberOfShards: 2 } })).toMatchObject({ kind: 'refused', reason: 'ShardCountImmutable' });
    const error: unknown = await fx.api.putIndexSettings(index, { 'index.number_of_shards': 2 }).catch((err: unknown) => err);
    expect(error).toMatchObject({ name: 'TerminalError', reason: 'InvalidSpec' });
    expect((error as Error).message).toContain("Can't update non dynamic settings");
  });

  it('updates and removes only the aliases it manages', async () => {
    const read = `team-a-read-${fx.suffix}`;
    const write = `team-a-write-${fx.suffix}`;
    const manual = `team-a-manual-${fx.suffix}`;
    await fx.api.updateAliases([{ add: { index, alias: manual } }]);
    const applied = await apply(desiredIndex(index, { aliases: { [read]: { filter: { term: { level: 'warn' } } } } }), [read, write]);
    expect(applied).toEqual([read]);
    const observed = await fx.api.getIndex(index);
    expect(Object.keys(observed?.aliases ?? {}).sort()).toEqual([manual, read].sort());
    expect(observed?.aliases[read]?.filter).toEqual({ term: { level: 'warn' } });
  });

  it('an AlreadyExists create is retryable, not terminal', async () => {
    const error: unknown = await fx.api.createIndex(index, { settings: {} }).catch((err: unknown) => err);
    expect(error).toMatchObject({ name: 'OpenSearchError', reason: 'AlreadyExists' });
  });

  it('shapes a newly created index with a composable template and a component template', async () => {
    const base = `team-a-base-${fx.suffix}`;
    const template = `team-a-tpl-${fx.suffix}`;
    const component = componentTemplateWire({ template: { settings: { numberOfReplicas: 0 }, mappings: { properties: { service: { type: 'keyword' } } } }, version: 1 });
    const composable = indexTemplateWire({
      indexPatterns: [`team-a-tpl-${fx.suffix}-*`],
      composedOf: [base],
      priority: 500,
      template: { settings: { numberOfShards: 2, refreshInterval: '10s' }, aliases: { [`team-a-tpl-all-${fx.suffix}`]: {} } },
      _meta: { owner: 'int-test' },
    });
    expect(await fx.api.getComponentTemplate(base)).toBeUndefined();
    await fx.api.putComponentTemplate(base, component);
    await fx.api.putIndexTemplate(template, composable);
    expect(diffComponentTemplate(component, await fx.api.getComponentTemplate(base))).toEqual([]);
    expect(diffIndexTemplate(composable, await fx.api.getIndexTemplate(template))).toEqual([]);

    const shaped = `team-a-tpl-${fx.suffix}-1`;
    await fx.api.createIndex(shaped, { settings: {} });
    const observed = await fx.api.getIndex(shaped);
    expect(observed?.settings['index.number_of_shards']).toBe('2');
    expect(observed?.settings['index.number_of_replicas']).toBe('0');
    expect(observed?.settings['index.refresh_interval']).toBe('10s');
    expect(observed?.mappings).toMatchObject({ properties: { service: { type: 'keyword' } } });
    expect(Object.keys(observed?.aliases ?? {})).toEqual([`team-a-tpl-all-${fx.suffix}`]);

    // Changed by hand: the diff sees it.
    await fx.api.putIndexTemplate(template, { ...composable, priority: 1 });
    expect(diffIndexTemplate(composable, await fx.api.getIndexTemplate(template))).toEqual(['priority: differ']);
  });
});
