/**
 * Splits index names into comma-joined URL path segments short enough for OpenSearch's request line
 * (`http.max_initial_line_length`, 4 KiB by default), so a read of many indices is a few requests, never one
 * that OpenSearch refuses for its length.
 */

/** The longest joined, URL-encoded segment a batch gets; leaves room for the rest of the request line. */
export const MAX_NAMES_SEGMENT = 3_000;

/**
 * `names` in order, grouped so that each group's URL-encoded names joined by `,` are at most `maxChars` long; a
 * single name longer than that is a group of its own. Empty input gives no groups. Pure.
 */
export function nameBatches(names: readonly string[], maxChars: number = MAX_NAMES_SEGMENT): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let length = 0;
  for (const name of names) {
    const encoded = encodeURIComponent(name).length;
    const added = current.length === 0 ? encoded : length + 1 + encoded;
    if (current.length > 0 && added > maxChars) {
      batches.push(current);
      current = [name];
      length = encoded;
    } else {
      current.push(name);
      length = added;
    }
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
