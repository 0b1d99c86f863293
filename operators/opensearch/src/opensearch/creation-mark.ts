/**
 * The creation mark of an index: the UID of the OpenSearchIndex whose create made it, and the aliases that create
 * added, kept in the index's mapping `_meta` under {@link CREATION_MARK_KEY}. It is written in the same request that
 * creates the index, so it is the claim (ADR 0007 addendum): no status write is needed before the create, and after a
 * crash between the create and the status write the index is recognised as this resource's own. The operator never
 * compares it with a spec (it is left out before planning) and never rewrites it.
 */
import type { JsonObject } from './json.ts';
import { isRecord } from './json.ts';

/** The key of the mark inside `mappings._meta`. */
export const CREATION_MARK_KEY = 'domain-operators.io/created-by';

/** What the mark records. */
export interface CreationMark {
  /** The UID of the resource whose create made the index. */
  readonly uid: string;
  /** The aliases that create added (what the resource may later remove). */
  readonly aliases: readonly string[];
}

/** `mappings` with the mark added to its `_meta` (keeping the spec's own `_meta` keys). Pure. */
export function withCreationMark(mappings: JsonObject | undefined, mark: CreationMark): JsonObject {
  const meta = isRecord(mappings?.['_meta']) ? mappings['_meta'] : {};
  return { ...mappings, _meta: { ...meta, [CREATION_MARK_KEY]: { uid: mark.uid, aliases: [...mark.aliases] } } };
}

/** The mark in observed `mappings`, or `undefined` when there is none (or it is not one of ours). Pure. */
export function creationMarkOf(mappings: JsonObject): CreationMark | undefined {
  const meta = mappings['_meta'];
  const mark = isRecord(meta) ? meta[CREATION_MARK_KEY] : undefined;
  if (!isRecord(mark) || typeof mark['uid'] !== 'string' || mark['uid'] === '') return undefined;
  const aliases = Array.isArray(mark['aliases']) ? mark['aliases'].filter((a): a is string => typeof a === 'string') : [];
  return { uid: mark['uid'], aliases };
}

/** Observed `mappings` without the mark (and without `_meta` when the mark was all of it), for planning. Pure. */
export function withoutCreationMark(mappings: JsonObject): JsonObject {
  const meta = mappings['_meta'];
  if (!isRecord(meta) || !(CREATION_MARK_KEY in meta)) return mappings;
  const { [CREATION_MARK_KEY]: _mark, ...rest } = meta;
  const { _meta: _old, ...others } = mappings;
  return Object.keys(rest).length === 0 ? others : { ...others, _meta: rest };
}
