/**
 * Desired vs observed state of one index, and the requests that bring it to the spec. Pure.
 *
 * - Settings are managed if listed: only keys the spec names are compared and updated; settings it leaves out
 *   keep whatever OpenSearch has. `numberOfShards` is fixed once the index exists (`ShardCountImmutable`), and a
 *   few other static settings ({@link STATIC_SETTINGS}) too (`SettingImmutable`); any other static setting is
 *   refused by OpenSearch itself, which the client reports as a terminal error.
 * - Mappings follow `mapping-diff.ts`: additive changes are applied, a conflict (`MappingConflict`) refuses the
 *   whole plan, so nothing at all changes.
 * - Aliases: missing or different desired aliases are (re)added; an alias is removed only if this resource added
 *   it before (recorded in status) and the spec no longer lists it. Aliases added by templates, rollover or hand
 *   are left alone.
 */
import type { JsonObject, JsonValue } from './json.ts';
import { isRecord, jsonEqual, scalarText } from './json.ts';
import { diffMappings } from './mapping-diff.ts';
import { OpenSearchReasons } from './reasons.ts';
import type { AliasSpec, IndexSettings, OpenSearchIndexSpec } from '../api/v1alpha1/index.ts';

/** An alias as OpenSearch reports it on one index. */
export interface ObservedAlias {
  readonly filter?: JsonObject;
  readonly indexRouting?: string;
  readonly searchRouting?: string;
  readonly isWriteIndex?: boolean;
}

/** An index as read from OpenSearch. */
export interface ObservedIndex {
  readonly name: string;
  readonly uuid: string;
  /** Flat settings (`index.number_of_replicas`), explicit values over defaults; values as OpenSearch returns them. */
  readonly settings: Readonly<Record<string, JsonValue>>;
  readonly mappings: JsonObject;
  readonly aliases: Readonly<Record<string, ObservedAlias>>;
}

/** The desired index, computed from the spec by {@link desiredIndex}. */
export interface DesiredIndex {
  readonly name: string;
  /** Flat settings keyed `index.*`. */
  readonly settings: Readonly<Record<string, JsonValue>>;
  readonly mappings: JsonObject | undefined;
  readonly aliases: Readonly<Record<string, AliasSpec>>;
}

/** An alias definition as OpenSearch takes it (create-index body, templates, `_aliases` add actions). */
export interface AliasBody {
  readonly filter?: JsonObject;
  readonly routing?: string;
  readonly is_write_index?: boolean;
}

/** One action of the `_aliases` API. */
export type AliasAction =
  | { readonly add: AliasBody & { readonly index: string; readonly alias: string } }
  | { readonly remove: { readonly index: string; readonly alias: string } };

/** The body of a create-index request. */
export interface CreateIndexBody {
  readonly settings: Readonly<Record<string, JsonValue>>;
  readonly mappings?: JsonObject;
  readonly aliases?: Readonly<Record<string, AliasBody>>;
}

/** Why a plan is refused; terminal until the spec changes. */
export type IndexRefusalReason = typeof OpenSearchReasons.shardCountImmutable | typeof OpenSearchReasons.settingImmutable | typeof OpenSearchReasons.mappingConflict;

/** The outcome of {@link planIndex}. */
export type IndexPlan =
  | {
      readonly kind: 'refused';
      readonly reason: IndexRefusalReason;
      /** Names each offending setting or field path. */
      readonly message: string;
      readonly diff: readonly string[];
    }
  | {
      readonly kind: 'apply';
      readonly upToDate: boolean;
      /** One human line per difference (no secrets in indices). */
      readonly diff: readonly string[];
      /** Dynamic settings to put, flat; `undefined` when none change. */
      readonly settings: Readonly<Record<string, JsonValue>> | undefined;
      /** Put-mapping body; `undefined` when the mapping is up to date. */
      readonly mappings: JsonObject | undefined;
      readonly aliasActions: readonly AliasAction[];
      /** The aliases this resource manages after the plan is applied, for its status. */
      readonly appliedAliases: readonly string[];
    };

/** Settings that cannot change on an open index; changing one is refused with `SettingImmutable`. */
export const STATIC_SETTINGS: readonly string[] = [
  'index.number_of_routing_shards',
  'index.routing_partition_size',
  'index.codec',
  'index.soft_deletes.enabled',
  'index.store.type',
  'index.replication.type',
  'index.sort.',
  'index.analysis.',
];

const SHARDS = 'index.number_of_shards';

/**
 * Flattens {@link IndexSettings} to OpenSearch's flat form: `numberOfShards` → `index.number_of_shards`, and so
 * on; keys of the `index` map gain the `index.` prefix when they lack it, nested objects become dotted keys, and
 * `null` values are dropped (left unmanaged). Pure.
 */
export function flattenSettings(settings: IndexSettings | undefined): Record<string, JsonValue> {
  const flat: Record<string, JsonValue> = {};
  if (settings === undefined) return flat;
  const walk = (prefix: string, value: JsonValue): void => {
    if (isRecord(value)) {
      for (const [key, child] of Object.entries(value)) walk(`${prefix}.${key}`, child);
    } else if (value !== null) {
      flat[prefix.startsWith('index.') ? prefix : `index.${prefix}`] = value;
    }
  };
  for (const [key, value] of Object.entries(settings.index ?? {})) walk(key, value);
  if (settings.numberOfShards !== undefined) flat[SHARDS] = settings.numberOfShards;
  if (settings.numberOfReplicas !== undefined) flat['index.number_of_replicas'] = settings.numberOfReplicas;
  if (settings.refreshInterval !== undefined) flat['index.refresh_interval'] = settings.refreshInterval;
  return flat;
}

/** The desired index for a resolved name and spec. Pure. */
export function desiredIndex(name: string, spec: Pick<OpenSearchIndexSpec, 'settings' | 'mappings' | 'aliases'>): DesiredIndex {
  return { name, settings: flattenSettings(spec.settings), mappings: spec.mappings, aliases: spec.aliases ?? {} };
}

/** The alias definition OpenSearch takes in a create-index body or an index template. Pure. */
export function aliasBody(alias: AliasSpec): AliasBody {
  return {
    ...(alias.filter === undefined ? {} : { filter: alias.filter }),
    ...(alias.routing === undefined ? {} : { routing: alias.routing }),
    ...(alias.isWriteIndex === undefined ? {} : { is_write_index: alias.isWriteIndex }),
  };
}

/** The create-index request for a desired index: settings, mappings and aliases in one call. Pure. */
export function createIndexBody(desired: DesiredIndex): CreateIndexBody {
  const aliases = Object.entries(desired.aliases);
  return {
    settings: desired.settings,
    ...(desired.mappings === undefined ? {} : { mappings: desired.mappings }),
    ...(aliases.length === 0 ? {} : { aliases: Object.fromEntries(aliases.map(([name, alias]) => [name, aliasBody(alias)])) }),
  };
}

/**
 * Plans the update of an existing index. `appliedAliases` are the aliases this resource added before (from its
 * status). A refusal plans nothing at all. Pure.
 */
export function planIndex(desired: DesiredIndex, observed: ObservedIndex, appliedAliases: readonly string[] = []): IndexPlan {
  const diff: string[] = [];
  const settings: Record<string, JsonValue> = {};
  const immutable: string[] = [];
  let shardChange: string | undefined;
  for (const [key, want] of Object.entries(desired.settings)) {
    const have = observed.settings[key];
    if (jsonEqual(want, have, true)) continue;
    const line = `settings.${key}: want ${show(want)}, have ${show(have)}`;
    diff.push(line);
    if (key === SHARDS) shardChange = line;
    else if (STATIC_SETTINGS.some((name) => (name.endsWith('.') ? key.startsWith(name) : key === name))) immutable.push(line);
    else settings[key] = want;
  }
  if (shardChange !== undefined) {
    return { kind: 'refused', reason: OpenSearchReasons.shardCountImmutable, message: `the number of shards is fixed once an index exists (${shardChange})`, diff };
  }
  if (immutable.length > 0) {
    return { kind: 'refused', reason: OpenSearchReasons.settingImmutable, message: `static settings cannot change on an existing index: ${immutable.join('; ')}`, diff };
  }

  const mapping = diffMappings(desired.mappings, observed.mappings);
  if (mapping.conflicts.length > 0) {
    return { kind: 'refused', reason: OpenSearchReasons.mappingConflict, message: mapping.conflicts.join('; '), diff: [...diff, ...mapping.conflicts] };
  }
  diff.push(...mapping.changes);

  const aliasActions: AliasAction[] = [];
  for (const [alias, want] of Object.entries(desired.aliases)) {
    const have = observed.aliases[alias];
    if (have !== undefined && aliasMatches(want, have)) continue;
    aliasActions.push({ add: { index: observed.name, alias, ...aliasBody(want) } });
    diff.push(have === undefined ? `aliases.${alias}: add` : `aliases.${alias}: update`);
  }
  for (const alias of appliedAliases) {
    if (!(alias in desired.aliases) && alias in observed.aliases) {
      aliasActions.push({ remove: { index: observed.name, alias } });
      diff.push(`aliases.${alias}: remove`);
    }
  }

  return {
    kind: 'apply',
    upToDate: diff.length === 0,
    diff,
    settings: Object.keys(settings).length === 0 ? undefined : settings,
    mappings: mapping.body,
    aliasActions,
    appliedAliases: Object.keys(desired.aliases).sort(),
  };
}

function aliasMatches(want: AliasSpec, have: ObservedAlias): boolean {
  return (
    jsonEqual(want.filter, have.filter) &&
    want.routing === have.indexRouting &&
    want.routing === have.searchRouting &&
    (want.isWriteIndex === undefined || want.isWriteIndex === have.isWriteIndex)
  );
}

function show(value: JsonValue | undefined): string {
  return value === undefined ? 'unset' : scalarText(value);
}
