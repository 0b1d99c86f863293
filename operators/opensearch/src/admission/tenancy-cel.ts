// opensearch/tenancy.ts in CEL: the same rules, the same words, for the admission policies (policies.ts). Each
// builder returns a CEL expression that evaluates to "" when the value passes and otherwise to the problem the
// TypeScript function names for it (without the field path where the caller adds one). What CEL cannot see stays with
// the operator: other namespaces' prefixes (the overlap rule) and the flags OpenSearch keeps (reserved, static,
// hidden). Pure string builders.
import { celString, celStringList } from '@domain-operators/reconcile';
import type { AdmissionVariable } from '@domain-operators/reconcile';
import { celPresent, celRenderedPrefix } from '@domain-operators/reconcile';
import type { NamedKind } from '../opensearch/tenancy.ts';
import { DEFAULT_ALLOWED_CLUSTER_PERMISSIONS, INDEX_NAME_CHARS, MAX_NAME_BYTES, PATTERN_CHARS, PROTECTED_SECURITY_NAMES, SECURITY_KINDS, SECURITY_NAME_CHARS } from '../opensearch/tenancy.ts';

/** The rendered prefix of the namespace (`variables.prefix`), and how messages name it (`variables.thePrefix`). */
export const PREFIX_VARIABLES: readonly AdmissionVariable[] = [
  { name: 'prefix', expression: celRenderedPrefix('params.spec.tenancy.indexPrefix') },
  {
    name: 'thePrefix',
    expression: `"the prefix \\"" + variables.prefix + "\\" that OpenSearchConnection \\"" + params.metadata.name + "\\" gives namespace \\"" + request.namespace + "\\""`,
  },
];

const P = 'variables.prefix';
const THE_PREFIX = 'variables.thePrefix';

/** CEL: `"<value>"`, as the operator's messages quote values. */
export function celQuoted(value: string): string {
  return `"\\"" + ${value} + "\\""`;
}

/** CEL: whether the string `value` fully matches the JavaScript regular expression `pattern` (written so that RE2 reads it the same). */
function matches(value: string, pattern: RegExp): string {
  return `${value}.matches(${celString(pattern.source)})`;
}

/** CEL: `body` with `value` bound to the identifier `name` (a one-element list mapped: CEL has no let). */
export function celLet(name: string, value: string, body: string): string {
  return `[${value}].map(${name}, ${body})[0]`;
}

/** CEL: the protected-name problem of `name` (an identifier), as `protectedProblem(kind, name)`. */
export function celProtectedProblem(kind: string, name: string): string {
  return `${name} in ${celStringList(PROTECTED_SECURITY_NAMES)} ? ${celString(`${kind} "`)} + ${name} + ${celString('" is a protected security object and is never modified')} : ""`;
}

/**
 * CEL: the problem of the name `name` (an identifier) of a `kind` object, as `resolveName` finds it (`nameProblem`):
 * empty, too long, the kind's characters, a protected security name, outside the prefix. `at` is how the message
 * names the value, `"<kind> name"` by default (`"aliases"` for an index's aliases). Other namespaces' prefixes are
 * the operator's.
 */
export function celNameProblem(kind: NamedKind, name: string, at = `${kind} name`): string {
  const prefix = `"${at} " + ${celQuoted(name)} + " "`;
  const outside = `!${name}.startsWith(${P}) ? ${prefix} + "is outside " + ${THE_PREFIX} : ""`;
  const syntax = SECURITY_KINDS.has(kind)
    ? `!${matches(name, SECURITY_NAME_CHARS)} ? ${prefix} + "may contain only letters, digits and . _ @ + -" : ${name} in ${celStringList(PROTECTED_SECURITY_NAMES)} ? (${celProtectedProblem(kind, name)}) : (${outside})`
    : `!${matches(name, INDEX_NAME_CHARS)} || ${name} == "." || ${name} == ".." ? ${prefix} + "must be lowercase letters, digits and . _ + -, not starting with . _ + -" : (${outside})`;
  return `${name} == "" ? ${celString(`${at} is empty`)} : size(bytes(${name})) > ${MAX_NAME_BYTES} ? ${prefix} + "is longer than ${MAX_NAME_BYTES} bytes" : (${syntax})`;
}

/**
 * CEL: the problem of the index or tenant pattern `pattern` (an identifier), as `patternProblem` finds it, starting
 * with the quoted pattern (the caller puts the field path before it): empty, a regular expression, attribute
 * substitution, a list, date math whose literal part is outside or not a name, other characters, outside the prefix.
 * An empty prefix allows every pattern.
 */
export function celPatternProblem(pattern: string): string {
  const at = `${celQuoted(pattern)} + " "`;
  const literal = `${pattern}.indexOf("{") < 0 ? ${pattern}.substring(1, size(${pattern}) - 1) : ${pattern}.substring(1, ${pattern}.indexOf("{"))`;
  const dateMath = [
    `!${pattern}.endsWith(">") || ${pattern}.contains(${celString('\\')}) ? ${at} + "is not a plain date-math expression <name-{date}>" : `,
    celLet('l', literal, `!l.startsWith(${P}) ? ${at} + "resolves outside " + ${THE_PREFIX} : l.matches("[*?]") || !${matches('l', INDEX_NAME_CHARS)} ? ${at} + "has wildcards or invalid characters in its literal part" : ""`),
  ].join('');
  return [
    `${pattern} == "" ? "is empty" : ${P} == "" ? "" : `,
    `${pattern}.startsWith("/") ? ${at} + "is a regular expression, which cannot be confined to " + ${THE_PREFIX} : `,
    `${pattern}.contains(${celString('${')}) ? ${at} + "uses attribute substitution, which is resolved per request and cannot be confined" : `,
    `${pattern}.contains(",") ? ${at} + "is a list; give one pattern per entry" : `,
    `${pattern}.startsWith("<") ? (${dateMath}) : `,
    `!${matches(pattern, PATTERN_CHARS)} ? ${at} + "contains characters not allowed in index names" : `,
    `!${pattern}.startsWith(${P}) ? ${at} + "is outside " + ${THE_PREFIX} : ""`,
  ].join('');
}

/** CEL: the problem of the cluster permission or action `name` (an identifier) of a namespace: not on the allow-list, compared literally. */
export function celClusterPermissionProblem(name: string, what: string): string {
  const allowed = DEFAULT_ALLOWED_CLUSTER_PERMISSIONS.join(', ');
  return `${P} != "" && !(${name} in ${celStringList(DEFAULT_ALLOWED_CLUSTER_PERMISSIONS)}) ? ${celQuoted(name)} + ${celString(` is not allowed ${what} (allowed: ${allowed})`)} : ""`;
}

/** A rule over one list of the object: its test and its message, both CEL. */
export interface ListRule {
  readonly expression: string;
  readonly messageExpression: string;
}

/**
 * A rule over the list at `list` (a field path, possibly absent): every entry `x` must have no problem
 * (`problem('x')`, CEL as the builders above return). The message is the first problem, after `<field>[<index>] `
 * as the operator names it.
 */
export function listRule(list: string, field: string, problem: (entry: string) => string): ListRule {
  return {
    expression: `!(${celPresent(list)}) || !${list}.exists(x, (${problem('x')}) != "")`,
    messageExpression: celLet('ps', `${list}.map(x, ${problem('x')})`, celLet('s', 'ps.filter(s, s != "")[0]', `${celString(`${field}[`)} + string(ps.indexOf(s)) + "] " + s`)),
  };
}

/**
 * A rule over the lists at `inner` of each entry of the list at `outer` (e.g. each `indexPatterns` of each
 * `indexPermissions` entry): as {@link listRule}, the message naming `<outer>[i].<inner>[j]`.
 */
export function nestedListRule(outer: string, outerField: string, inner: string, problem: (entry: string) => string): ListRule {
  return {
    expression: `!(${celPresent(outer)}) || !${outer}.exists(p, p.${inner}.exists(x, (${problem('x')}) != ""))`,
    messageExpression: celLet(
      'pss',
      `${outer}.map(p, p.${inner}.map(x, ${problem('x')}))`,
      celLet('ps', 'pss.filter(ps, ps.exists(s, s != ""))[0]', celLet('s', 'ps.filter(s, s != "")[0]', `${celString(`${outerField}[`)} + string(pss.indexOf(ps)) + ${celString(`].${inner}[`)} + string(ps.indexOf(s)) + "] " + s`)),
    ),
  };
}

/**
 * A rule over the keys of the map at `map` (a field path, possibly absent): every key `k` must have no problem
 * (`problem('k')`, a complete message). The message is the first problem found (a map has no order).
 */
export function mapKeysRule(map: string, problem: (key: string) => string): ListRule {
  return {
    expression: `!(${celPresent(map)}) || !${map}.exists(k, (${problem('k')}) != "")`,
    messageExpression: `${map}.map(k, ${problem('k')}).filter(s, s != "")[0]`,
  };
}
