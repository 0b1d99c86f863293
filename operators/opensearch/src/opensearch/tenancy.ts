/**
 * The tenancy rule (issue #7): what a namespace may name and grant in OpenSearch through a connection. Pure.
 *
 * Decisions (precise, so that a team allowed to create an `OpenSearchRole` in its namespace cannot grant itself
 * the cluster):
 * - The prefix is the connection's `tenancy.indexPrefix` with `{namespace}` replaced. An empty prefix means no
 *   name rule (only for trusted namespaces); protected security objects stay untouchable even then.
 * - A name (index, alias, template, role, user) must start with the prefix; the default is prefix + metadata.name.
 * - An index pattern (roles, templates) is inside the tenancy iff it starts with the prefix literally. As the
 *   prefix holds no wildcard, every index the pattern can match then starts with the prefix too. Hence `*`,
 *   `team-*`, `*-logs`, `team-a*` (for prefix `team-a-`) and `team-b-*` are all refused.
 * - Refused outright, because what they match cannot be bounded statically: regular expressions (`/…/`), user
 *   attribute substitution (`${user.name}`, `${attr.…}`), comma lists, and characters OpenSearch forbids in
 *   index names. Date math (`<team-a-logs-{now/d}>`) is allowed when the literal text before the first `{`
 *   starts with the prefix and holds no wildcard or escape: the resolved name is that literal followed by a date.
 * - Namespace names contain `-`, so with the template `{namespace}-` the prefix `team-a-` is itself a prefix of
 *   `team-a-b-` (namespace `team-a-b`). The caller passes the other namespaces; a name or pattern that could
 *   reach a longer foreign prefix is refused (`team-a-*` while `team-a-b` exists). A separator that cannot occur
 *   in namespace names (`{namespace}.` or `{namespace}_`) avoids the overlap altogether.
 * - Tenant patterns of roles follow the same rule as index patterns; role-binding users must start with the
 *   prefix (a binding's backend roles come from the identity provider and are not checked: they widen who holds
 *   the team's own role, nothing more).
 * - An internal user's backend roles must start with the prefix too: a backend role is a claim that existing role
 *   mappings honour (the demo configuration maps backend role `admin` to `all_access`), so a free choice would let
 *   a team grant its user any role mapped to a backend role.
 * - Cluster permissions must be on an allow-list ({@link DEFAULT_ALLOWED_CLUSTER_PERMISSIONS}), compared
 *   literally: `cluster_all`, `*`, `cluster:admin/*` or `restapi:admin/*` would grant the whole cluster.
 * - Protected security objects ({@link PROTECTED_SECURITY_NAMES}, and anything the API reports as reserved,
 *   static or hidden) are never written, whatever the prefix or `bindableRoles` say.
 */
import { ConnectionReasons, foreignPrefixes, renderNamePrefix, TerminalError } from '@domain-operators/reconcile';
import type { AliasSpec, ComponentTemplateBody, IndexTemplateBody, OpenSearchRoleBindingSpec, OpenSearchRoleSpec, TenancySpec } from '../api/v1alpha1/index.ts';

/** The condition reason of every refusal made here: the runtime's `ConnectionReasons.tenancyViolation`. */
export const TENANCY_VIOLATION = ConnectionReasons.tenancyViolation;

/** A refusal: the spec asks for something outside its namespace's tenancy. Nothing may be written. */
export interface TenancyViolation {
  readonly reason: typeof TENANCY_VIOLATION;
  /** Human text naming each offending field and value. Contains no secrets (specs hold none). */
  readonly message: string;
}

/** The security objects no resource may ever write, whatever the connection's tenancy says. */
export const PROTECTED_SECURITY_NAMES: readonly string[] = [
  'all_access',
  'security_manager',
  'security_rest_api_access',
  'security_rest_api_full_access',
  'admin',
  'kibanaserver',
];

/**
 * Cluster permissions a namespaced role may hold by default: the composite read/write operations (bulk, mget,
 * msearch, scroll) and monitoring. Action groups are compared by name, never expanded.
 */
export const DEFAULT_ALLOWED_CLUSTER_PERMISSIONS: readonly string[] = [
  'cluster_composite_ops',
  'cluster_composite_ops_ro',
  'cluster_monitor',
  'indices:data/read/mget',
  'indices:data/read/msearch',
  'indices:data/read/scroll',
  'indices:data/read/scroll/clear',
  'indices:data/write/bulk',
];

/** The rule for one namespace on one connection, computed once by {@link tenancyFor}. */
export interface Tenancy {
  readonly namespace: string;
  /** Rendered prefix; `''` means no name rule. */
  readonly prefix: string;
  /** Other namespaces' prefixes that start with this one (overlaps to keep out of), each with its namespace. */
  readonly foreignPrefixes: readonly { readonly namespace: string; readonly prefix: string }[];
  readonly bindableRoles: readonly string[];
  readonly allowedClusterPermissions: readonly string[];
}

/** Options of {@link tenancyFor}. */
export interface TenancyOptions {
  /** Replaces {@link DEFAULT_ALLOWED_CLUSTER_PERMISSIONS}. */
  readonly allowedClusterPermissions?: readonly string[];
}

/** What the kinds name in OpenSearch, for messages and per-kind syntax rules. */
export type NamedKind = 'index' | 'alias' | 'index template' | 'component template' | 'role' | 'user' | 'action group' | 'tenant' | 'data stream';

/** The security plugin's objects, as messages name them. */
export type SecurityKind = 'role' | 'role mapping' | 'user' | 'action group' | 'tenant';

/**
 * The kinds whose names follow the security plugin's rules (letters, digits, `. _ @ + -`) instead of index names'.
 * Tenants are not among them: roles grant them by tenant patterns, which follow index patterns' rules (lowercase),
 * so a tenant name must be one a pattern can name.
 */
export const SECURITY_KINDS: ReadonlySet<NamedKind> = new Set<NamedKind>(['role', 'user', 'action group']);

/** A resolved name, or why it is refused. */
export type NameResult = { readonly ok: true; readonly name: string } | { readonly ok: false; readonly violation: TenancyViolation };

/** An index, alias, template or tenant name: lowercase letters, digits and `. _ + -` (none of `\ / * ? " < > | , # :` or space), not starting with `. _ + -`. */
export const INDEX_NAME_CHARS = /^[a-z0-9][a-z0-9._+-]*$/;
/** The characters of an index pattern: those of index names and the wildcards `*` and `?`. */
export const PATTERN_CHARS = /^[a-z0-9._+*?-]+$/;
/** A role, user or action group name: letters, digits and `. _ @ + -`. */
export const SECURITY_NAME_CHARS = /^[A-Za-z0-9._@+-]+$/;
/** The longest name OpenSearch takes, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;

/** Builds the {@link TerminalError} a reconciler throws for a violation (reason `TenancyViolation`). */
export function tenancyError(violation: TenancyViolation): TerminalError {
  return new TerminalError(violation.message, violation.reason);
}

/** A violation with the given problems joined into one message. */
export function violation(problems: readonly string[]): TenancyViolation {
  return { reason: TENANCY_VIOLATION, message: problems.join('; ') };
}

/**
 * Renders the prefix template for a namespace: every `{namespace}` is replaced, any other brace refuses the
 * template, and the result must be empty or a valid start of an index name. Pure.
 */
export function renderPrefix(template: string | undefined, namespace: string): NameResult {
  if (template === undefined || template === '') return { ok: true, name: '' };
  const rendered = renderNamePrefix(template, namespace);
  if (/[{}]/.test(rendered)) return refuse(`indexPrefix ${quote(template)} may only contain the placeholder {namespace}`);
  if (!INDEX_NAME_CHARS.test(rendered)) {
    return refuse(`indexPrefix ${quote(template)} renders to ${quote(rendered)}, which cannot start an index name (lowercase letters, digits, . _ + -)`);
  }
  return { ok: true, name: rendered };
}

/**
 * The tenancy of `namespace` on a connection. `otherNamespaces` are the namespaces that may also use the
 * connection (those its namespaceSelector admits); the ones whose prefix extends this one become
 * {@link Tenancy.foreignPrefixes}. Returns a violation when the prefix template is unusable. Pure.
 */
export function tenancyFor(
  spec: TenancySpec | undefined,
  namespace: string,
  otherNamespaces: readonly string[] = [],
  options: TenancyOptions = {},
): { readonly ok: true; readonly tenancy: Tenancy } | { readonly ok: false; readonly violation: TenancyViolation } {
  const own = renderPrefix(spec?.indexPrefix, namespace);
  if (!own.ok) return own;
  return {
    ok: true,
    tenancy: {
      namespace,
      prefix: own.name,
      foreignPrefixes: foreignPrefixes(spec?.indexPrefix, namespace, otherNamespaces),
      bindableRoles: spec?.bindableRoles ?? [],
      allowedClusterPermissions: options.allowedClusterPermissions ?? DEFAULT_ALLOWED_CLUSTER_PERMISSIONS,
    },
  };
}

/**
 * The OpenSearch name of a resource: `explicit` when given, else prefix + `metadataName`. Refused when it does
 * not start with the prefix, reaches into another namespace's prefix, is a protected security name, or breaks
 * the kind's syntax (index, alias and template names: lowercase, at most 255 bytes, none of `\ / * ? " < > | , #
 * :` or space; role and user names: letters, digits and `. _ @ + -`). Pure.
 */
export function resolveName(tenancy: Tenancy, kind: NamedKind, metadataName: string, explicit?: string): NameResult {
  const name = explicit ?? `${tenancy.prefix}${metadataName}`;
  const problem = nameProblem(tenancy, kind, name);
  return problem === undefined ? { ok: true, name } : refuse(problem);
}

/**
 * Checks one index or tenant pattern against the rules in this module's header; `field` names it in the message
 * (`indexPermissions[0].indexPatterns[1]`). Returns the problem, or `undefined` when the pattern is inside. Pure.
 */
export function patternProblem(tenancy: Tenancy, field: string, pattern: string): string | undefined {
  const at = `${field} ${quote(pattern)}`;
  if (pattern === '') return `${field} is empty`;
  if (tenancy.prefix === '') return undefined;
  if (pattern.startsWith('/')) return `${at} is a regular expression, which cannot be confined to the prefix ${quote(tenancy.prefix)}`;
  if (pattern.includes('${')) return `${at} uses attribute substitution, which is resolved per request and cannot be confined`;
  if (pattern.includes(',')) return `${at} is a list; give one pattern per entry`;
  if (pattern.startsWith('<')) return dateMathProblem(tenancy, at, pattern);
  if (!PATTERN_CHARS.test(pattern)) return `${at} contains characters not allowed in index names`;
  if (!pattern.startsWith(tenancy.prefix)) return `${at} is outside the prefix ${quote(tenancy.prefix)}`;
  return foreignProblem(tenancy, at, pattern);
}

/**
 * Checks a list of index patterns named by `field` (a snapshot policy's or a restore's `indices`): the problems of
 * each entry, `<field>[i]`, as {@link patternProblem} finds them, in order. Pure.
 */
export function indexPatternProblems(tenancy: Tenancy, field: string, patterns: readonly string[]): string[] {
  return patterns.flatMap((pattern, i) => {
    const problem = patternProblem(tenancy, `${field}[${i}]`, pattern);
    return problem === undefined ? [] : [problem];
  });
}

/** Checks an `OpenSearchIndex`'s alias names (the index name itself goes through {@link resolveName}). Pure. */
export function checkIndexAliases(tenancy: Tenancy, aliases: Readonly<Record<string, AliasSpec>> | undefined): TenancyViolation | undefined {
  return verdict(aliasProblems(tenancy, 'aliases', aliases, false));
}

/**
 * Checks an index template body: every `indexPatterns` entry is a pattern inside the prefix, and every alias in
 * `template.aliases` starts with the prefix or with `{index}` (replaced by a matching index's name, which is
 * inside). `composedOf` is not checked: a component template only shapes indices this template matches. Pure.
 */
export function checkIndexTemplate(tenancy: Tenancy, body: IndexTemplateBody): TenancyViolation | undefined {
  const problems: string[] = [];
  if (body.indexPatterns.length === 0) problems.push('indexPatterns is empty');
  body.indexPatterns.forEach((pattern, i) => {
    push(problems, patternProblem(tenancy, `indexPatterns[${i}]`, pattern));
  });
  problems.push(...aliasProblems(tenancy, 'template.aliases', body.template?.aliases, true));
  return verdict(problems);
}

/** Checks a component template body: its aliases, as for {@link checkIndexTemplate}. Pure. */
export function checkComponentTemplate(tenancy: Tenancy, body: ComponentTemplateBody): TenancyViolation | undefined {
  return verdict(aliasProblems(tenancy, 'template.aliases', body.template.aliases, true));
}

/** Checks a role's permissions: index and tenant patterns inside the prefix, cluster permissions allow-listed. Pure. */
export function checkRole(tenancy: Tenancy, spec: OpenSearchRoleSpec): TenancyViolation | undefined {
  const problems: string[] = [];
  (spec.clusterPermissions ?? []).forEach((permission, i) => {
    if (tenancy.prefix !== '' && !tenancy.allowedClusterPermissions.includes(permission)) {
      problems.push(`clusterPermissions[${i}] ${quote(permission)} is not allowed for a namespace (allowed: ${tenancy.allowedClusterPermissions.join(', ')})`);
    }
  });
  (spec.indexPermissions ?? []).forEach((permission, i) => {
    if (permission.indexPatterns.length === 0) problems.push(`indexPermissions[${i}].indexPatterns is empty`);
    permission.indexPatterns.forEach((pattern, j) => {
      push(problems, patternProblem(tenancy, `indexPermissions[${i}].indexPatterns[${j}]`, pattern));
    });
  });
  (spec.tenantPermissions ?? []).forEach((permission, i) => {
    permission.tenantPatterns.forEach((pattern, j) => {
      push(problems, patternProblem(tenancy, `tenantPermissions[${i}].tenantPatterns[${j}]`, pattern));
    });
  });
  return verdict(problems);
}

/**
 * Checks an action group's actions: a `cluster` group of a namespace (non-empty prefix) may hold only actions on the
 * cluster-permission allow-list, compared literally as for roles, so naming it cannot widen what a namespace's
 * roles may grant on the cluster. `index` and `kibana` groups may hold any action: a role applies them only to its
 * own index and tenant patterns, which the prefix bounds. Pure.
 */
export function checkActionGroup(tenancy: Tenancy, spec: { readonly type: string; readonly allowedActions: readonly string[] }): TenancyViolation | undefined {
  const problems: string[] = [];
  if (spec.type === 'cluster' && tenancy.prefix !== '') {
    spec.allowedActions.forEach((action, i) => {
      if (!tenancy.allowedClusterPermissions.includes(action)) {
        problems.push(`allowedActions[${i}] ${quote(action)} is not allowed in a cluster action group of a namespace (allowed: ${tenancy.allowedClusterPermissions.join(', ')})`);
      }
    });
  }
  return verdict(problems);
}

/**
 * Checks a role binding: exactly one of `roleRef` and `externalRole`; an external role must be listed in
 * `bindableRoles` and not protected; users must start with the prefix. `roleName` is the OpenSearch role the
 * binding maps (the referenced `OpenSearchRole`'s resolved name, or `externalRole`). Pure.
 */
export function checkRoleBinding(tenancy: Tenancy, spec: OpenSearchRoleBindingSpec): TenancyViolation | undefined {
  const problems: string[] = [];
  if ((spec.roleRef === undefined) === (spec.externalRole === undefined)) problems.push('exactly one of roleRef and externalRole must be set');
  if (spec.externalRole !== undefined) {
    if (!tenancy.bindableRoles.includes(spec.externalRole)) {
      problems.push(`externalRole ${quote(spec.externalRole)} is not listed in the connection's tenancy.bindableRoles`);
    }
    push(problems, protectedProblem('role', spec.externalRole));
  }
  (spec.users ?? []).forEach((user, i) => {
    if (!user.startsWith(tenancy.prefix)) problems.push(`users[${i}] ${quote(user)} is outside the prefix ${quote(tenancy.prefix)}`);
    else push(problems, foreignProblem(tenancy, `users[${i}] ${quote(user)}`, user));
  });
  return verdict(problems);
}

/**
 * Checks an internal user: each backend role must start with the prefix (and stay out of longer foreign
 * prefixes), and none may be a protected name. An empty prefix (a trusted namespace) allows any backend role
 * except the protected names. Pure.
 */
export function checkUser(tenancy: Tenancy, spec: { readonly backendRoles?: readonly string[] | undefined }): TenancyViolation | undefined {
  const problems: string[] = [];
  (spec.backendRoles ?? []).forEach((role, i) => {
    const at = `backendRoles[${i}] ${quote(role)}`;
    push(problems, protectedProblem('backend role', role));
    if (!role.startsWith(tenancy.prefix)) problems.push(`${at} is outside the prefix ${quote(tenancy.prefix)}`);
    else push(problems, foreignProblem(tenancy, at, role));
  });
  return verdict(problems);
}

/**
 * Refuses to touch a protected security object: a name in {@link PROTECTED_SECURITY_NAMES}, or an object the
 * security API reports as reserved, static or hidden (`flags` from its GET; absent when it does not exist). Pure.
 */
export function checkSecurityObject(
  kind: SecurityKind,
  name: string,
  flags?: { readonly reserved?: boolean; readonly static?: boolean; readonly hidden?: boolean },
): TenancyViolation | undefined {
  const problem = protectedProblem(kind, name);
  if (problem !== undefined) return violation([problem]);
  const marked = (['reserved', 'static', 'hidden'] as const).filter((flag) => flags?.[flag] === true);
  return marked.length > 0 ? violation([`${kind} ${quote(name)} is ${marked.join(' and ')} in OpenSearch and is never modified`]) : undefined;
}

/**
 * True when some string starting with `prefix` matches the glob `pattern` (`*` any run, `?` one character),
 * i.e. the pattern reaches into names under that prefix. Simulates the glob's automaton over the prefix: any
 * state still alive afterwards can spell out the rest of the pattern. Pure.
 */
export function globReachesPrefix(pattern: string, prefix: string): boolean {
  let states = closure(pattern, new Set([0]));
  for (const char of prefix) {
    const next = new Set<number>();
    for (const i of states) {
      const token = pattern[i];
      if (token === undefined) continue;
      if (token === '*') next.add(i);
      else if (token === '?' || token === char) next.add(i + 1);
    }
    states = closure(pattern, next);
    if (states.size === 0) return false;
  }
  return true;
}

function closure(pattern: string, states: Set<number>): Set<number> {
  for (const i of states) {
    // Iterating a Set visits elements added during the loop, so chains of `*` are followed.
    if (pattern[i] === '*') states.add(i + 1);
  }
  return states;
}

function nameProblem(tenancy: Tenancy, kind: NamedKind, name: string): string | undefined {
  const at = `${kind} name ${quote(name)}`;
  if (name === '') return `${kind} name is empty`;
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `${at} is longer than ${MAX_NAME_BYTES} bytes`;
  if (SECURITY_KINDS.has(kind)) {
    if (!SECURITY_NAME_CHARS.test(name)) return `${at} may contain only letters, digits and . _ @ + -`;
    const protectedName = protectedProblem(kind, name);
    if (protectedName !== undefined) return protectedName;
  } else if (!INDEX_NAME_CHARS.test(name) || name === '.' || name === '..') {
    return `${at} must be lowercase letters, digits and . _ + -, not starting with . _ + -`;
  }
  if (!name.startsWith(tenancy.prefix)) return `${at} is outside the prefix ${quote(tenancy.prefix)}`;
  return foreignProblem(tenancy, at, name);
}

function dateMathProblem(tenancy: Tenancy, at: string, pattern: string): string | undefined {
  if (!pattern.endsWith('>') || pattern.includes('\\')) return `${at} is not a plain date-math expression <name-{date}>`;
  const brace = pattern.indexOf('{');
  const literal = pattern.slice(1, brace === -1 ? -1 : brace);
  if (!literal.startsWith(tenancy.prefix)) return `${at} resolves outside the prefix ${quote(tenancy.prefix)}`;
  if (/[*?]/.test(literal) || !INDEX_NAME_CHARS.test(literal)) return `${at} has wildcards or invalid characters in its literal part`;
  return foreignProblem(tenancy, at, `${literal}*`);
}

function foreignProblem(tenancy: Tenancy, at: string, pattern: string): string | undefined {
  const reached = tenancy.foreignPrefixes.find((foreign) => globReachesPrefix(pattern, foreign.prefix));
  return reached === undefined ? undefined : `${at} reaches names of namespace ${quote(reached.namespace)} (prefix ${quote(reached.prefix)})`;
}

function protectedProblem(kind: string, name: string): string | undefined {
  return PROTECTED_SECURITY_NAMES.includes(name) ? `${kind} ${quote(name)} is a protected security object and is never modified` : undefined;
}

function aliasProblems(tenancy: Tenancy, field: string, aliases: Readonly<Record<string, AliasSpec>> | undefined, allowIndexPlaceholder: boolean): string[] {
  const problems: string[] = [];
  for (const alias of Object.keys(aliases ?? {})) {
    // In templates `{index}` becomes the name of the index being created, which the patterns keep inside the prefix.
    if (allowIndexPlaceholder && alias.startsWith('{index}')) continue;
    push(problems, nameProblem(tenancy, 'alias', alias)?.replace('alias name', field));
  }
  return problems;
}

function refuse(problem: string): { readonly ok: false; readonly violation: TenancyViolation } {
  return { ok: false, violation: violation([problem]) };
}

function verdict(problems: readonly string[]): TenancyViolation | undefined {
  return problems.length === 0 ? undefined : violation(problems);
}

function push(problems: string[], problem: string | undefined): void {
  if (problem !== undefined) problems.push(problem);
}

function quote(text: string): string {
  return JSON.stringify(text);
}
