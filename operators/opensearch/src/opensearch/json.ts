/** A JSON value as OpenSearch sends and accepts it. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject;

/** A JSON object (mappings, filters, `_meta`, template bodies). */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** True for a plain object (not null, not an array). Narrowing only; says nothing about the values. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string at `value[key]`, or `undefined` when absent or not a string. */
export function stringField(value: unknown, key: string): string | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

/** The array of strings at `value[key]` (non-strings dropped), or `[]` when absent. */
export function stringArrayField(value: unknown, key: string): string[] {
  if (!isRecord(value)) return [];
  const field = value[key];
  return Array.isArray(field) ? field.filter((item): item is string => typeof item === 'string') : [];
}

/** The boolean at `value[key]`, or `false` when absent or not `true`. */
export function flagField(value: unknown, key: string): boolean {
  return isRecord(value) && value[key] === true;
}

/**
 * Structural equality of two JSON-like values. Object key order is ignored; array order matters. Scalars compare
 * by their string form when `looseScalars` is set, because OpenSearch returns settings and some mapping
 * parameters as strings (`"1"` for `1`, `"true"` for `true`). Pure.
 */
export function jsonEqual(a: unknown, b: unknown, looseScalars = false): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i], looseScalars));
  }
  if (isRecord(a) || isRecord(b)) {
    if (!isRecord(a) || !isRecord(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (!jsonEqual(a[key], b[key], looseScalars)) return false;
    }
    return true;
  }
  if (looseScalars && a !== undefined && b !== undefined && a !== null && b !== null) return scalarText(a) === scalarText(b);
  return a === b;
}

/** The string OpenSearch would show for a scalar setting value (`1` → `"1"`, `true` → `"true"`). */
export function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** Sorted copy without duplicates; for set-like string lists (users, backend roles, permissions). */
export function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
