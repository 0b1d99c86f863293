/**
 * Their `OpensearchIndexSpec` (a template's `template`: settings and mappings as free JSON, aliases) → our
 * `TemplateContent`. Settings are flattened (`index.` dropped); shards, replicas and the refresh interval get our
 * named fields, every other setting goes to `settings.index` as a flat key, so none is lost.
 */
import { isRecord } from '../opensearch/json.ts';
import { NotConvertible, optionalBoolean, optionalRecord, optionalString, present, warnUnknownFields } from './kind-context.ts';
import type { KindContext } from './kind-context.ts';

const REFRESH_INTERVAL = /^(-1|[0-9]+(ms|s|m|h|d|nanos|micros))$/;

/** Flattens nested settings into dotted keys without the `index.` prefix, e.g. `{ index: { number_of_shards: 1 } }` → `number_of_shards`. */
export function flattenSettings(settings: Readonly<Record<string, unknown>>, prefix = ''): Map<string, unknown> {
  const flat = new Map<string, unknown>();
  for (const [key, value] of Object.entries(settings)) {
    const dotted = `${prefix}${key}`;
    if (isRecord(value)) for (const [inner, innerValue] of flattenSettings(value, `${dotted}.`)) flat.set(inner, innerValue);
    else flat.set(dotted.startsWith('index.') ? dotted.slice('index.'.length) : dotted, value);
  }
  return flat;
}

function integer(value: unknown, at: string): number {
  const parsed = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isInteger(parsed) || parsed < 0) throw new NotConvertible(`${at} must be a non-negative integer`);
  return parsed;
}

function settingsOf(settings: Readonly<Record<string, unknown>>, at: string): Record<string, unknown> {
  const flat = flattenSettings(settings);
  const result: Record<string, unknown> = {};
  const other: Record<string, unknown> = {};
  for (const [key, value] of flat) {
    if (key === 'number_of_shards') result['numberOfShards'] = integer(value, `${at}number_of_shards`);
    else if (key === 'number_of_replicas') result['numberOfReplicas'] = integer(value, `${at}number_of_replicas`);
    else if (key === 'refresh_interval' && typeof value === 'string' && REFRESH_INTERVAL.test(value)) result['refreshInterval'] = value;
    else other[key] = value;
  }
  return { ...result, ...(Object.keys(other).length > 0 && { index: other }) };
}

function aliasesOf(aliases: Readonly<Record<string, unknown>>, at: string, context: KindContext): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, alias] of Object.entries(aliases)) {
    const path = `${at}${name}.`;
    if (!isRecord(alias)) throw new NotConvertible(`${path.slice(0, -1)} must be an object`);
    warnUnknownFields(alias, ['index', 'alias', 'filter', 'routing', 'isWriteIndex'], path, context);
    for (const ignored of ['index', 'alias'] as const) {
      if (optionalString(alias, ignored, path) !== undefined) context.warn(`${path}${ignored} is not carried over: a template's alias is named by its key`);
    }
    result[name] = {
      ...present('filter', optionalRecord(alias, 'filter', path)),
      ...present('routing', optionalString(alias, 'routing', path)),
      ...present('isWriteIndex', optionalBoolean(alias, 'isWriteIndex', path)),
    };
  }
  return result;
}

/** Our `template` for their `template` at `at` (e.g. `spec.template.`), or undefined when it holds nothing. */
export function templateContent(template: Readonly<Record<string, unknown>> | undefined, at: string, context: KindContext): Record<string, unknown> | undefined {
  if (template === undefined) return undefined;
  warnUnknownFields(template, ['settings', 'mappings', 'aliases'], at, context);
  const settings = optionalRecord(template, 'settings', at);
  const mappings = optionalRecord(template, 'mappings', at);
  const aliases = optionalRecord(template, 'aliases', at);
  const content = {
    ...present('settings', settings === undefined ? undefined : settingsOf(settings, `${at}settings.`)),
    ...present('mappings', mappings),
    ...present('aliases', aliases === undefined ? undefined : aliasesOf(aliases, `${at}aliases.`, context)),
  };
  return Object.keys(content).length > 0 ? content : undefined;
}
