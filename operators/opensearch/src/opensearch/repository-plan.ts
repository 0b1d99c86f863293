/**
 * Desired vs registered snapshot repository: the body `PUT _snapshot/<name>` takes, and the comparison with what
 * `GET _snapshot/<name>` reports. OpenSearch keeps repository settings flat (`a.b: "x"` for `{a: {b: "x"}}`) and
 * reports every value as a string, so the desired settings are flattened with dots and compared by `String(value)`.
 * A repository is owned whole: a setting registered by hand that the spec does not name is a difference too. Pure.
 */
import type { JsonObject, JsonValue } from './json.ts';
import { isRecord, scalarText } from './json.ts';
import type { ObservedRepository, RepositoryBody } from './snapshot-types.ts';

/** The spec fields a repository body is made of. */
export interface RepositorySpecPart {
  readonly type: string;
  readonly settings?: JsonObject | undefined;
}

/** What {@link compareRepository} found. `diff` names settings and values (repository settings hold no secrets: credentials live in the keystore). */
export interface RepositoryComparison {
  readonly upToDate: boolean;
  readonly diff: readonly string[];
}

/** The registration body of a spec: its type and its settings as written (OpenSearch flattens them itself). */
export function repositoryBody(spec: RepositorySpecPart): RepositoryBody {
  return { type: spec.type, settings: spec.settings ?? {} };
}

/**
 * Settings flattened as OpenSearch stores them: nested objects joined with dots, every scalar as its string
 * (`true` → `"true"`, `1` → `"1"`), an array as its items' strings joined by commas (OpenSearch's list form).
 * `null` values are left out (OpenSearch drops them). Pure.
 */
export function flattenSettings(settings: JsonObject, prefix = ''): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(settings)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (isRecord(value)) Object.assign(flat, flattenSettings(value, name));
    else if (value !== null) flat[name] = settingText(value);
  }
  return flat;
}

function settingText(value: Exclude<JsonValue, JsonObject | null>): string {
  return Array.isArray(value) ? value.map((item: JsonValue) => scalarText(item)).join(',') : scalarText(value);
}

/**
 * Compares a desired body with the registered repository: the type, then every setting of either side (both
 * flattened). Lines look like `type: want fs, have s3`, `settings.location: want /a, have /b`, `settings.compress:
 * not in the spec (registered: true)`. Pure.
 */
export function compareRepository(desired: RepositoryBody, observed: ObservedRepository): RepositoryComparison {
  const diff: string[] = [];
  if (desired.type !== observed.type) diff.push(`type: want ${desired.type}, have ${observed.type}`);
  const want = flattenSettings(desired.settings);
  const have = observed.settings;
  for (const key of [...new Set([...Object.keys(want), ...Object.keys(have)])].sort()) {
    const w = want[key];
    const h = have[key];
    if (w === h) continue;
    if (h === undefined) diff.push(`settings.${key}: want ${w ?? ''}, not registered`);
    else if (w === undefined) diff.push(`settings.${key}: not in the spec (registered: ${h})`);
    else diff.push(`settings.${key}: want ${w}, have ${h}`);
  }
  return { upToDate: diff.length === 0, diff };
}
