// CEL building blocks shared by the operators' admission policies. Pure string builders.

/** A CEL string literal for `text` (double-quoted, JSON escapes, which CEL reads the same way). */
export function celString(text: string): string {
  return JSON.stringify(text);
}

/** A CEL list literal of string literals. */
export function celStringList(texts: readonly string[]): string {
  return `[${texts.map(celString).join(', ')}]`;
}

/**
 * CEL: whether the field at `path` (e.g. `params.spec.tenancy.indexPrefix`) is present, testing each field on the
 * way (`has()` tests only the last one, and selecting an absent field is an evaluation error).
 */
export function celPresent(path: string): string {
  const parts = path.split('.');
  return parts
    .slice(1)
    .map((_part, i) => `has(${parts.slice(0, i + 2).join('.')})`)
    .join(' && ');
}

/**
 * CEL: whether the labels at `labels` (a field path such as `namespaceObject.metadata.labels`, possibly absent)
 * satisfy the label selector at `selector` (a field path to a `metav1.LabelSelector`, possibly absent, as may be the
 * fields on its way). Same semantics as the runtime's `matchesSelector`: absent or empty selector matches
 * everything; `matchLabels` and `matchExpressions` (In, NotIn, Exists, DoesNotExist) are ANDed.
 */
export function celSelectorMatches(selector: string, labels: string): string {
  const has = (key: string): string => `(has(${labels}) && ${key} in ${labels})`;
  const value = (key: string): string => `${labels}[${key}]`;
  const inValues = `(${has('e.key')} && has(e.values) && ${value('e.key')} in e.values)`;
  return [
    `(!(${celPresent(selector)}) || (`,
    `(!has(${selector}.matchLabels) || ${selector}.matchLabels.all(k, ${has('k')} && ${value('k')} == ${selector}.matchLabels[k])) && `,
    `(!has(${selector}.matchExpressions) || ${selector}.matchExpressions.all(e, `,
    `e.operator == "In" ? ${inValues} : e.operator == "NotIn" ? !${inValues} : e.operator == "Exists" ? ${has('e.key')} : !${has('e.key')}`,
    `))))`,
  ].join('');
}

/**
 * CEL: the connection's rendered name prefix for the request's namespace: the string at `template` (a field path,
 * possibly absent, as may be the fields on its way: then `''`) with every `{namespace}` replaced by
 * `request.namespace`.
 */
export function celRenderedPrefix(template: string): string {
  return `${celPresent(template)} ? ${template}.replace("{namespace}", request.namespace) : ""`;
}
