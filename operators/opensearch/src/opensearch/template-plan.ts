/**
 * Index templates (`_index_template`) and component templates (`_component_template`): the request body of a
 * spec, and whether what OpenSearch holds matches it. A template is owned whole, so "update" is a put of the full
 * body. Pure.
 */
import { aliasBody, flattenSettings } from './index-plan.ts';
import type { AliasBody } from './index-plan.ts';
import type { JsonObject, JsonValue } from './json.ts';
import { isRecord, jsonEqual, scalarText, sortedUnique } from './json.ts';
import type { ComponentTemplateBody, IndexTemplateBody, TemplateContent } from '../api/v1alpha1/index.ts';

/** The `template` part as OpenSearch takes it: flat settings, mappings, aliases. */
export interface TemplateWire {
  readonly settings?: Readonly<Record<string, JsonValue>>;
  readonly mappings?: JsonObject;
  readonly aliases?: Readonly<Record<string, AliasBody>>;
}

/** A composable index template request body. */
export interface IndexTemplateWire {
  readonly index_patterns: readonly string[];
  readonly template?: TemplateWire;
  readonly composed_of?: readonly string[];
  readonly priority?: number;
  readonly version?: number;
  readonly _meta?: JsonObject;
  /** Present: matching names are data streams. */
  readonly data_stream?: { readonly timestamp_field: { readonly name: string } };
}

/** The timestamp field of a data stream when its template names none (OpenSearch's default). */
export const DEFAULT_TIMESTAMP_FIELD = '@timestamp';

/** A component template request body. */
export interface ComponentTemplateWire {
  readonly template: TemplateWire;
  readonly version?: number;
  readonly _meta?: JsonObject;
}

/** The request body of an index template spec. Pure. */
export function indexTemplateWire(body: IndexTemplateBody): IndexTemplateWire {
  return {
    index_patterns: [...body.indexPatterns],
    ...(body.template === undefined ? {} : { template: templateWire(body.template) }),
    ...(body.composedOf === undefined ? {} : { composed_of: [...body.composedOf] }),
    ...(body.priority === undefined ? {} : { priority: body.priority }),
    ...(body.version === undefined ? {} : { version: body.version }),
    ...(body._meta === undefined ? {} : { _meta: body._meta }),
    ...(body.dataStream === undefined ? {} : { data_stream: { timestamp_field: { name: body.dataStream.timestampField ?? DEFAULT_TIMESTAMP_FIELD } } }),
  };
}

/** The request body of a component template spec. Pure. */
export function componentTemplateWire(body: ComponentTemplateBody): ComponentTemplateWire {
  return {
    template: templateWire(body.template),
    ...(body.version === undefined ? {} : { version: body.version }),
    ...(body._meta === undefined ? {} : { _meta: body._meta }),
  };
}

/**
 * Compares a desired index template with the one OpenSearch returned (`index_template` of the GET answer), or
 * `undefined` when absent. Settings compare flat and as strings, index patterns as a set, `composed_of` in order
 * (it is the merge order). Returns the human differences; empty means up to date. Pure.
 */
export function diffIndexTemplate(desired: IndexTemplateWire, observed: JsonObject | undefined): string[] {
  if (observed === undefined) return ['template: missing'];
  const diff: string[] = [];
  if (!jsonEqual(sortedUnique(desired.index_patterns), sortedUnique(strings(observed['index_patterns'])))) diff.push('indexPatterns: differ');
  if (!jsonEqual(desired.composed_of ?? [], strings(observed['composed_of']))) diff.push('composedOf: differ');
  for (const key of ['priority', 'version', '_meta'] as const) {
    if (!jsonEqual(desired[key], observed[key], true)) diff.push(`${key}: differ`);
  }
  const observedStream = observed['data_stream'];
  const observedField = isRecord(observedStream) && isRecord(observedStream['timestamp_field']) ? observedStream['timestamp_field']['name'] : undefined;
  if (desired.data_stream === undefined ? observedStream !== undefined : observedField !== desired.data_stream.timestamp_field.name) diff.push('dataStream: differ');
  diff.push(...diffTemplate(desired.template ?? {}, observed['template']));
  return diff;
}

/** Compares a desired component template with the one OpenSearch returned (`component_template`). Pure. */
export function diffComponentTemplate(desired: ComponentTemplateWire, observed: JsonObject | undefined): string[] {
  if (observed === undefined) return ['template: missing'];
  const diff: string[] = [];
  for (const key of ['version', '_meta'] as const) {
    if (!jsonEqual(desired[key], observed[key], true)) diff.push(`${key}: differ`);
  }
  diff.push(...diffTemplate(desired.template, observed['template']));
  return diff;
}

function templateWire(content: TemplateContent): TemplateWire {
  const settings = flattenSettings(content.settings);
  const aliases = Object.entries(content.aliases ?? {});
  return {
    ...(Object.keys(settings).length === 0 ? {} : { settings }),
    ...(content.mappings === undefined ? {} : { mappings: content.mappings }),
    ...(aliases.length === 0 ? {} : { aliases: Object.fromEntries(aliases.map(([name, alias]) => [name, aliasBody(alias)])) }),
  };
}

function diffTemplate(desired: TemplateWire, observedValue: JsonValue | undefined): string[] {
  const observed = isRecord(observedValue) ? (observedValue) : {};
  const diff: string[] = [];
  if (!jsonEqual(desired.settings ?? {}, flatten('', observed['settings']), true)) diff.push('template.settings: differ');
  if (!jsonEqual(desired.mappings ?? {}, observed['mappings'] ?? {}, true)) diff.push('template.mappings: differ');
  if (!jsonEqual(normalAliases(desired.aliases ?? {}), normalAliases(observed['aliases']), true)) diff.push('template.aliases: differ');
  return diff;
}

// OpenSearch returns template settings nested (`{ index: { number_of_shards: "1" } }`); the spec's are flat.
function flatten(prefix: string, value: JsonValue | undefined): Record<string, JsonValue> {
  if (!isRecord(value)) return prefix === '' || value === undefined ? {} : { [prefix]: value };
  const flat: Record<string, JsonValue> = {};
  for (const [key, child] of Object.entries(value)) Object.assign(flat, flatten(prefix === '' ? key : `${prefix}.${key}`, child));
  return flat;
}

// `routing` is stored as index and search routing; compare in that form.
function normalAliases(value: unknown): JsonObject {
  if (!isRecord(value)) return {};
  const out: Record<string, JsonValue> = {};
  for (const [name, alias] of Object.entries(value)) {
    const fields = isRecord(alias) ? alias : {};
    const routing = fields['routing'];
    const normal: Record<string, JsonValue> = {};
    for (const [key, field] of Object.entries(fields)) if (key !== 'routing') normal[key] = field as JsonValue;
    if (routing !== undefined) {
      normal['index_routing'] = scalarText(routing);
      normal['search_routing'] = scalarText(routing);
    }
    out[name] = normal;
  }
  return out;
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
