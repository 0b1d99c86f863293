/**
 * Desired vs observed index mappings. OpenSearch only ever extends a mapping: new fields, new sub-properties and
 * new multi-fields are accepted, a few parameters may be updated, everything else about an existing field is fixed.
 * This module decides which case a desired mapping is, before any request, so a conflict changes nothing. Pure.
 *
 * Rules:
 * - A field absent from the observed mapping is added with its whole desired definition.
 * - An existing field's `type` (absent means `object`) never changes; nor does any parameter outside
 *   {@link UPDATABLE_FIELD_PARAMETERS}, whether desired changes it, adds it or drops it. A parameter absent on one
 *   side compares equal to its default ({@link FIELD_PARAMETER_DEFAULTS}), since OpenSearch omits defaults when it
 *   returns a mapping; an unknown default counts as a conflict (safe side: nothing is sent).
 * - Observed fields and multi-fields the spec does not mention (added dynamically or by hand) are left alone.
 * - At the root, {@link UPDATABLE_ROOT_PARAMETERS} are updated; other root parameters (`_source`, `_routing`) are fixed.
 */
import type { JsonObject, JsonValue } from './json.ts';
import { isRecord, jsonEqual, scalarText } from './json.ts';

/** Field parameters the put-mapping API updates in place on an existing field. */
export const UPDATABLE_FIELD_PARAMETERS: readonly string[] = ['ignore_above', 'search_analyzer', 'search_quote_analyzer', 'meta', 'dynamic'];

/** Root mapping parameters the put-mapping API updates in place. */
export const UPDATABLE_ROOT_PARAMETERS: readonly string[] = ['dynamic', '_meta', 'date_detection', 'numeric_detection', 'dynamic_templates', 'dynamic_date_formats'];

/**
 * Defaults OpenSearch leaves out of a returned mapping, by field type (`*` for every type): for each parameter,
 * the values that mean "not set".
 */
export const FIELD_PARAMETER_DEFAULTS: Readonly<Record<string, Readonly<Record<string, readonly JsonValue[]>>>> = {
  '*': {
    index: [true],
    store: [false],
    doc_values: [true],
    enabled: [true],
    coerce: [true],
    ignore_malformed: [false],
    eager_global_ordinals: [false],
    null_value: [null],
  },
  text: { analyzer: ['default', 'standard'], fielddata: [false], norms: [true], index_options: ['positions'], position_increment_gap: [100] },
  keyword: { norms: [false], index_options: ['docs'], split_queries_on_whitespace: [false] },
  date: { format: ['strict_date_optional_time||epoch_millis'] },
};

const ROOT_DEFAULTS: Readonly<Record<string, readonly JsonValue[]>> = {
  _source: [{ enabled: true }],
  _routing: [{ required: false }],
};

/** The outcome of {@link diffMappings}. */
export interface MappingDiff {
  /** One line per conflicting change, naming the field path; non-empty means refuse and send nothing. */
  readonly conflicts: readonly string[];
  /** One human line per accepted change (`add field title`, `dynamic: want strict, have true`). */
  readonly changes: readonly string[];
  /** The put-mapping body carrying exactly the accepted changes; `undefined` when there are none (or conflicts). */
  readonly body: JsonObject | undefined;
}

/**
 * Compares a desired mapping with the observed one (`{}` for an index without mappings) under the rules above.
 * `desired` undefined means "mappings not managed": no changes. Pure.
 */
export function diffMappings(desired: JsonObject | undefined, observed: JsonObject): MappingDiff {
  if (desired === undefined) return { conflicts: [], changes: [], body: undefined };
  const conflicts: string[] = [];
  const changes: string[] = [];
  const body: Record<string, JsonValue> = {};
  for (const [key, want] of Object.entries(desired)) {
    if (key === 'properties') continue;
    const have = observed[key];
    if (sameParameter(key, want, have, ROOT_DEFAULTS)) continue;
    if (UPDATABLE_ROOT_PARAMETERS.includes(key)) {
      body[key] = want;
      changes.push(`mappings.${key}: want ${show(want)}, have ${show(have)}`);
    } else {
      conflicts.push(`mappings.${key} cannot change from ${show(have)} to ${show(want)}`);
    }
  }
  for (const key of Object.keys(observed)) {
    if (key !== 'properties' && !(key in desired) && !UPDATABLE_ROOT_PARAMETERS.includes(key) && !sameParameter(key, undefined, observed[key], ROOT_DEFAULTS)) {
      conflicts.push(`mappings.${key} cannot change from ${show(observed[key])} to the default`);
    }
  }
  const properties = diffChildren('', objectOf(desired['properties']), objectOf(observed['properties']), 'properties', conflicts, changes);
  if (properties !== undefined) body['properties'] = properties;
  const empty = Object.keys(body).length === 0;
  return { conflicts, changes: conflicts.length > 0 ? [] : changes, body: conflicts.length > 0 || empty ? undefined : body };
}

/** Diffs a `properties` or `fields` map; returns the changed children for the body, or `undefined`. */
function diffChildren(
  parent: string,
  desired: JsonObject,
  observed: JsonObject,
  kind: 'properties' | 'fields',
  conflicts: string[],
  changes: string[],
): JsonObject | undefined {
  const out: Record<string, JsonValue> = {};
  for (const [name, wantValue] of Object.entries(desired)) {
    const path = parent === '' ? name : `${parent}.${name}`;
    const want = objectOf(wantValue);
    const haveValue = observed[name];
    if (!isRecord(haveValue)) {
      out[name] = want;
      changes.push(`mappings: add ${kind === 'fields' ? 'multi-field' : 'field'} ${path}${typeof want['type'] === 'string' ? ` (${want['type']})` : ''}`);
      continue;
    }
    const changed = diffField(path, want, objectOf(haveValue), conflicts, changes);
    if (changed !== undefined) out[name] = changed;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Diffs one existing field; returns its put-mapping definition when something in it changes. */
function diffField(path: string, desired: JsonObject, observed: JsonObject, conflicts: string[], changes: string[]): JsonObject | undefined {
  const wantType = typeOf(desired);
  const haveType = typeOf(observed);
  if (wantType !== haveType) {
    conflicts.push(`mappings: field ${path} cannot change type from ${haveType} to ${wantType}`);
    return undefined;
  }
  // Start from what OpenSearch has, so the put-mapping request restates every fixed parameter unchanged.
  const definition: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(observed)) {
    if (key !== 'properties' && key !== 'fields') definition[key] = value;
  }
  const defaults = { ...FIELD_PARAMETER_DEFAULTS['*'], ...FIELD_PARAMETER_DEFAULTS[haveType] };
  let changed = false;
  const keys = new Set([...Object.keys(desired), ...Object.keys(observed)]);
  for (const key of keys) {
    if (key === 'type' || key === 'properties' || key === 'fields') continue;
    const want = desired[key];
    const have = observed[key];
    if (sameParameter(key, want, have, defaults)) continue;
    if (UPDATABLE_FIELD_PARAMETERS.includes(key)) {
      // An updatable parameter the spec leaves out is not managed: keep what OpenSearch has.
      if (want === undefined) continue;
      definition[key] = want;
      changed = true;
      changes.push(`mappings: field ${path} ${key}: want ${show(want)}, have ${show(have)}`);
    } else {
      conflicts.push(`mappings: field ${path} cannot change ${key} from ${show(have)} to ${show(want)}`);
    }
  }
  const properties = diffChildren(path, objectOf(desired['properties']), objectOf(observed['properties']), 'properties', conflicts, changes);
  const fields = diffChildren(path, objectOf(desired['fields']), objectOf(observed['fields']), 'fields', conflicts, changes);
  if (properties !== undefined) definition['properties'] = properties;
  if (fields !== undefined) definition['fields'] = fields;
  return changed || properties !== undefined || fields !== undefined ? definition : undefined;
}

function sameParameter(key: string, want: JsonValue | undefined, have: JsonValue | undefined, defaults: Readonly<Record<string, readonly JsonValue[]>>): boolean {
  if (jsonEqual(want, have, true)) return true;
  const known = defaults[key] ?? [];
  const isDefault = (value: JsonValue): boolean => known.some((candidate) => jsonEqual(candidate, value, true));
  if (want === undefined && have !== undefined) return isDefault(have);
  if (have === undefined && want !== undefined) return isDefault(want);
  return false;
}

function typeOf(field: JsonObject): string {
  const type = field['type'];
  return typeof type === 'string' ? type : 'object';
}

function objectOf(value: JsonValue | undefined): JsonObject {
  return isRecord(value) ? (value) : {};
}

function show(value: JsonValue | undefined): string {
  if (value === undefined) return 'default';
  return isRecord(value) || Array.isArray(value) ? JSON.stringify(value) : scalarText(value);
}
