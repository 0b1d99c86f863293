/**
 * What an `OpenSearchSnapshotRestore` will create, computed before any write: the snapshot's indices selected by
 * the spec's patterns, renamed as OpenSearch will rename them, and every resulting name checked against the
 * namespace's tenancy. Pure.
 *
 * OpenSearch renames each restored index with Java's `String.replaceAll(rename_pattern, rename_replacement)`. This
 * module computes the same names with a JavaScript `RegExp`, and so accepts only the part of the regular-expression
 * language on which the two engines agree for the names involved (printable ASCII, no line terminators). Refused,
 * with a message naming the construct, because Java and JavaScript read them differently or one lacks them:
 * - lookbehind `(?<=…)`, `(?<!…)` (Java allows only bounded ones), named groups `(?<n>…)` and `\k<n>` (Java's names
 *   are narrower; use numbered groups), atomic groups `(?>…)`, inline flags `(?i)` and any other `(?…` but `(?:`,
 *   `(?=` and `(?!`;
 * - possessive quantifiers (`*+`, `++`, `?+`, `{n}+`), a `{` that does not start a quantifier (JavaScript reads it
 *   as a literal, Java refuses it);
 * - escapes other than `\d \D \w \W \s \S \b \B` and escaped punctuation: `\Q…\E`, `\A`, `\z`, `\Z`, `\G`,
 *   `\p{…}`, `\h`, `\v`, `\R`, `\x…`, `\u…`, `\0`, `\c…`, back-references `\1`…;
 * - inside `[…]`: a nested `[`, `&&` (Java's intersection), a `]` or `^]` first (an empty class in JavaScript);
 * - in the replacement: `${name}`, a `$` not followed by a group number, a group number the pattern does not have
 *   (Java throws), and a trailing `\`. Java's `\x` (a literal `x`) and greedy multi-digit `$12` are reproduced.
 * A snapshot index whose name is not printable ASCII is never renamed here (refused), since the engines differ on
 * what a character is beyond it.
 */
import { Reasons } from '@domain-operators/reconcile';
import type { JsonObject } from './json.ts';
import { OpenSearchReasons } from './reasons.ts';
import type { RestoreBody } from './snapshot-types.ts';
import type { Tenancy } from './tenancy.ts';
import { indexPatternProblems, resolveName, TENANCY_VIOLATION } from './tenancy.ts';

/** One index of the snapshot and the name it is restored under. */
export interface RestoreTarget {
  readonly source: string;
  readonly target: string;
}

/** What {@link planRestore} reads from the spec. */
export interface RestoreRequest {
  readonly indices: readonly string[];
  readonly renamePattern?: string | undefined;
  readonly renameReplacement?: string | undefined;
  readonly includeAliases?: boolean | undefined;
}

/** A plan: the indices to restore, or why nothing may be restored (a condition reason and a human message). */
export type RestorePlan =
  | { readonly kind: 'restore'; readonly targets: readonly RestoreTarget[] }
  | { readonly kind: 'refused'; readonly reason: string; readonly message: string };

/**
 * Plans a restore from the snapshot's index list: every spec pattern must be inside the tenancy (`patternProblem`:
 * the source indices are the namespace's own); the snapshot indices matching a pattern (`*` any run, `?` one
 * character) are selected, and a pattern without wildcards must name an index of the snapshot; each is renamed as
 * OpenSearch will ({@link javaReplaceAll}); every target must be a valid index name inside the prefix
 * (`resolveName`), and no two may coincide. `includeAliases` is refused: a snapshot's aliases cannot be read before
 * restoring it, so they could not be checked against the prefix. Reasons: `TenancyViolation`, `InvalidSpec`,
 * `IndexNotInSnapshot`. Pure.
 */
export function planRestore(tenancy: Tenancy, snapshot: { readonly name: string; readonly indices: readonly string[] }, request: RestoreRequest): RestorePlan {
  const patternProblems = indexPatternProblems(tenancy, 'indices', request.indices);
  if (patternProblems.length > 0) return refused(TENANCY_VIOLATION, patternProblems.join('; '));
  if (request.includeAliases === true) {
    return refused(Reasons.invalidSpec, 'includeAliases is not supported: the aliases in a snapshot cannot be read before restoring it, so they cannot be checked against the prefix; add aliases afterwards');
  }
  const missing = request.indices.filter((pattern) => !/[*?]/.test(pattern) && !snapshot.indices.includes(pattern));
  if (missing.length > 0) return refused(OpenSearchReasons.indexNotInSnapshot, `snapshot ${quote(snapshot.name)} has no index ${missing.map(quote).join(', ')}`);
  const sources = snapshot.indices.filter((index) => request.indices.some((pattern) => globMatches(pattern, index))).sort();
  if (sources.length === 0) return refused(OpenSearchReasons.indexNotInSnapshot, `no index of snapshot ${quote(snapshot.name)} matches ${request.indices.map(quote).join(', ')}`);

  let rename: ((name: string) => string) | undefined;
  if (request.renamePattern !== undefined || request.renameReplacement !== undefined) {
    if (request.renamePattern === undefined || request.renameReplacement === undefined) return refused(Reasons.invalidSpec, 'renamePattern and renameReplacement go together');
    const compiled = compileRename(request.renamePattern, request.renameReplacement);
    if (!compiled.ok) return refused(Reasons.invalidSpec, compiled.problem);
    const unusual = sources.filter((source) => !PRINTABLE_ASCII.test(source));
    if (unusual.length > 0) return refused(Reasons.invalidSpec, `index ${unusual.map(quote).join(', ')} is not printable ASCII and is not renamed by this operator`);
    rename = compiled.rename;
  }

  const targets = sources.map((source) => ({ source, target: rename === undefined ? source : rename(source) }));
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const { source, target } of targets) {
    const resolved = resolveName(tenancy, 'index', '', target);
    if (!resolved.ok) problems.push(`restoring ${quote(source)} as ${quote(target)}: ${resolved.violation.message}`);
    const earlier = seen.get(target);
    if (earlier !== undefined) problems.push(`${quote(earlier)} and ${quote(source)} would both be restored as ${quote(target)}`);
    seen.set(target, source);
  }
  if (problems.length > 0) return refused(TENANCY_VIOLATION, problems.join('; '));
  return { kind: 'restore', targets };
}

/**
 * The body of the restore call for a plan: the selected source indices by name (never the spec's patterns, so
 * OpenSearch restores exactly what was checked), the spec's rename, its index settings, no aliases, no global state.
 * Pure.
 */
export function restoreBody(targets: readonly RestoreTarget[], request: RestoreRequest & { readonly indexSettings?: JsonObject | undefined }): RestoreBody {
  const renamed = request.renamePattern !== undefined && request.renameReplacement !== undefined;
  return {
    indices: targets.map((t) => t.source),
    include_global_state: false,
    include_aliases: false,
    ...(renamed ? { rename_pattern: request.renamePattern, rename_replacement: request.renameReplacement } : {}),
    ...(request.indexSettings === undefined || Object.keys(request.indexSettings).length === 0 ? {} : { index_settings: request.indexSettings }),
  };
}

/** Whether `name` matches the glob `pattern`: `*` any run of characters, `?` exactly one, everything else literal. Pure. */
export function globMatches(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.*+?^${}()|[\]\\/-]/g, (c) => (c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`));
  return new RegExp(`^${source}$`, 's').test(name);
}

/** A compiled rename, or why the pattern or replacement is refused. */
export type CompiledRename = { readonly ok: true; readonly rename: (name: string) => string } | { readonly ok: false; readonly problem: string };

/**
 * Compiles `pattern` and `replacement` into the function Java's `replaceAll` computes, or refuses them (see the
 * module header for what is refused and why). Pure.
 */
export function compileRename(pattern: string, replacement: string): CompiledRename {
  const patternIssue = renamePatternProblem(pattern);
  if (patternIssue !== undefined) return { ok: false, problem: `renamePattern ${quote(pattern)}: ${patternIssue}` };
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'g');
  } catch (err) {
    return { ok: false, problem: `renamePattern ${quote(pattern)} is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}` };
  }
  const groups = groupCount(pattern);
  const parts = parseReplacement(replacement, groups);
  if (!Array.isArray(parts)) return { ok: false, problem: `renameReplacement ${quote(replacement)}: ${parts.problem}` };
  return { ok: true, rename: (name) => javaReplaceAll(name, regex, parts) };
}

/** A piece of a parsed replacement: literal text or a group number. */
export type ReplacementPart = string | { readonly group: number };

/**
 * Parses a replacement as `java.util.regex.Matcher.appendReplacement` does: `\x` is a literal `x`; `$` then digits
 * is a group reference, the first digit always, each further digit while the number stays within `groups`. Refused:
 * `${name}`, a `$` without a digit, a first group number above `groups`, a trailing `\`. Pure.
 */
export function parseReplacement(replacement: string, groups: number): ReplacementPart[] | { readonly problem: string } {
  const parts: ReplacementPart[] = [];
  let literal = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement.charAt(i);
    if (c === '\\') {
      i++;
      if (i >= replacement.length) return { problem: 'ends with an unescaped \\' };
      literal += replacement.charAt(i);
    } else if (c === '$') {
      const first = replacement.charAt(i + 1);
      if (first === '{') return { problem: 'named group references ${name} are not supported; use $1, $2, …' };
      if (!/[0-9]/.test(first)) return { problem: `"$" at ${i} is not followed by a group number (write \\$ for a literal $)` };
      let group = Number(first);
      if (group > groups) return { problem: `$${group} refers to a group the pattern does not have (it has ${groups})` };
      i++;
      while (/[0-9]/.test(replacement.charAt(i + 1))) {
        const longer = group * 10 + Number(replacement.charAt(i + 1));
        if (longer > groups) break;
        group = longer;
        i++;
      }
      if (literal !== '') parts.push(literal);
      literal = '';
      parts.push({ group });
    } else {
      literal += c;
    }
  }
  if (literal !== '') parts.push(literal);
  return parts;
}

/**
 * Java's `replaceAll` with a parsed replacement: every match, left to right (an empty match advances by one
 * character, as in both engines), replaced by the parts; a group that did not take part adds nothing. `regex` must
 * have the `g` flag. Pure.
 */
export function javaReplaceAll(name: string, regex: RegExp, parts: readonly ReplacementPart[]): string {
  return name.replace(regex, (...args: unknown[]) => {
    // The replacer gets the match, then one argument per group, then the offset and the whole string.
    const captured = args.slice(0, args.length - 2);
    return parts.map((part) => (typeof part === 'string' ? part : textOf(captured[part.group]))).join('');
  });
}

/**
 * Why `pattern` is outside the regular-expression subset on which Java and JavaScript agree (see the module
 * header), or `undefined` when it is inside. Checks syntax only; the pattern still has to compile. Pure.
 */
export function renamePatternProblem(pattern: string): string | undefined {
  if (!PRINTABLE_ASCII.test(pattern)) return 'only printable ASCII characters are supported';
  let inClass = false;
  let classStart = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    const next = pattern.charAt(i + 1);
    if (c === '\\') {
      if (next === '') return 'ends with an unescaped \\';
      if (!SAFE_ESCAPES.test(next)) return `the escape \\${next} is not supported (Java and JavaScript read it differently or one lacks it)`;
      if (inClass && /[bB]/.test(next)) return `\\${next} inside [...] is not supported`;
      i++;
      classStart = false;
      continue;
    }
    if (inClass) {
      if (classStart && c === '^') continue;
      if (classStart && c === ']') return 'a character class starting with ] is not supported (it is empty in JavaScript)';
      classStart = false;
      if (c === '[') return 'a [ inside a character class is not supported (Java nests classes); write \\[';
      if (c === '&' && next === '&') return '&& inside a character class is not supported (Java intersects classes)';
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      classStart = true;
      continue;
    }
    if (c === '(' && next === '?') {
      const kind = pattern.slice(i + 2, i + 3);
      if (kind !== ':' && kind !== '=' && kind !== '!') {
        const what = pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i) ? 'lookbehind' : kind === '<' ? 'named groups' : kind === '>' ? 'atomic groups' : 'inline flags and other (?… groups';
        return `${what} are not supported (Java and JavaScript differ); use (...), (?:...), (?=...) or (?!...)`;
      }
      continue;
    }
    if (c === '{') {
      const quantifier = /^\{[0-9]+(,[0-9]*)?\}/.exec(pattern.slice(i));
      if (quantifier === null) return `the { at ${i} does not start a quantifier {n}, {n,} or {n,m}; write \\{ for a literal brace`;
      i += quantifier[0].length - 1;
      if (pattern.charAt(i + 1) === '+') return 'possessive quantifiers are not supported (JavaScript lacks them)';
      continue;
    }
    if ((c === '*' || c === '+' || c === '?') && next === '+') return 'possessive quantifiers are not supported (JavaScript lacks them)';
  }
  if (inClass) return 'a character class is not closed';
  return undefined;
}

/** The number of capturing groups of a pattern inside the supported subset: each `(` not escaped, not in a class, not `(?`. */
function groupCount(pattern: string): number {
  // Compiling an alternative that matches the empty string yields one slot per group.
  return (new RegExp(`${pattern}|`).exec('')?.length ?? 1) - 1;
}

// Escapes on which both engines agree: the class shorthands, word boundaries, and escaped punctuation.
const SAFE_ESCAPES = /^[dDwWsSbB.\\^$|?*+()[\]{}\-/_,:;=!<>#@%&~'"`]$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function refused(reason: string, message: string): RestorePlan {
  return { kind: 'refused', reason, message };
}

function quote(text: string): string {
  return JSON.stringify(text);
}
