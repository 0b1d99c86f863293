/**
 * Desired vs observed security objects (roles, role mappings, internal users) and the bodies that bring them to the
 * spec. Pure, apart from the HMAC of {@link passwordFingerprint}.
 *
 * - A role is owned whole: its body is the spec.
 * - A role mapping is shared: a binding manages only the users and backend roles it added itself (recorded in its
 *   status as `status.applied`); entries someone else put there, by hand or through another binding,
 *   stay. An entry that was already present when the binding first wanted it is not claimed, so releasing the
 *   binding does not remove it.
 * - A user is owned whole, except its password, which the API never returns: the applied password is remembered
 *   as a salted HMAC fingerprint, and a password is sent only when the fingerprint of the current one differs
 *   (rotation) or the user does not exist.
 */
import { createHmac } from 'node:crypto';
import { jsonEqual, sortedUnique } from './json.ts';
import type { OpenSearchRoleSpec, PasswordApplied } from '../api/v1alpha1/index.ts';

/** Flags the security API reports on every object; any of them set means "never modify". */
export interface SecurityFlags {
  readonly reserved: boolean;
  readonly static: boolean;
  readonly hidden: boolean;
}

/** A role body as the security API takes it. */
export interface RoleBody {
  readonly cluster_permissions: readonly string[];
  readonly index_permissions: readonly {
    readonly index_patterns: readonly string[];
    readonly allowed_actions: readonly string[];
    readonly dls?: string;
    readonly fls: readonly string[];
    readonly masked_fields: readonly string[];
  }[];
  readonly tenant_permissions: readonly { readonly tenant_patterns: readonly string[]; readonly allowed_actions: readonly string[] }[];
}

/** A role as read from the security API. */
export type ObservedRole = RoleBody & SecurityFlags;

/** A role mapping body as the security API takes it. */
export interface RoleMappingBody {
  readonly users: readonly string[];
  readonly backend_roles: readonly string[];
  readonly hosts: readonly string[];
  readonly and_backend_roles: readonly string[];
  readonly description?: string;
}

/** A role mapping as read from the security API. */
export type ObservedRoleMapping = RoleMappingBody & SecurityFlags;

/** An internal user body as the security API takes it. Without `password`, OpenSearch keeps the current hash. */
export interface UserBody {
  readonly password?: string;
  readonly backend_roles: readonly string[];
  readonly attributes: Readonly<Record<string, string>>;
  readonly opendistro_security_roles: readonly string[];
}

/** An internal user as read from the security API (never with its hash). */
export interface ObservedUser extends SecurityFlags {
  readonly backend_roles: readonly string[];
  readonly attributes: Readonly<Record<string, string>>;
  readonly opendistro_security_roles: readonly string[];
}

/** Whether an object is up to date, with one human line per difference (never a secret value). */
export interface Comparison {
  readonly upToDate: boolean;
  readonly diff: readonly string[];
}

/** The security API body of a role spec. Pure. */
export function roleBody(spec: Pick<OpenSearchRoleSpec, 'clusterPermissions' | 'indexPermissions' | 'tenantPermissions'>): RoleBody {
  return {
    cluster_permissions: [...(spec.clusterPermissions ?? [])],
    index_permissions: (spec.indexPermissions ?? []).map((permission) => ({
      index_patterns: [...permission.indexPatterns],
      allowed_actions: [...permission.allowedActions],
      ...(permission.dls === undefined || permission.dls === '' ? {} : { dls: permission.dls }),
      fls: [...(permission.fls ?? [])],
      masked_fields: [...(permission.maskedFields ?? [])],
    })),
    tenant_permissions: (spec.tenantPermissions ?? []).map((permission) => ({
      tenant_patterns: [...permission.tenantPatterns],
      allowed_actions: [...permission.allowedActions],
    })),
  };
}

/**
 * Compares a desired role with the observed one (`undefined` when absent). Permission lists compare as sets;
 * index and tenant permission entries compare in order. Pure.
 */
export function compareRole(desired: RoleBody, observed: ObservedRole | undefined): Comparison {
  if (observed === undefined) return { upToDate: false, diff: ['role: missing'] };
  const diff: string[] = [];
  if (!sameSet(desired.cluster_permissions, observed.cluster_permissions)) {
    diff.push(`clusterPermissions: want ${list(desired.cluster_permissions)}, have ${list(observed.cluster_permissions)}`);
  }
  if (!jsonEqual(desired.index_permissions.map(normalIndexPermission), observed.index_permissions.map(normalIndexPermission))) {
    diff.push('indexPermissions: differ');
  }
  if (!jsonEqual(desired.tenant_permissions.map(normalTenantPermission), observed.tenant_permissions.map(normalTenantPermission))) {
    diff.push('tenantPermissions: differ');
  }
  return { upToDate: diff.length === 0, diff };
}

/** Users and backend roles of one role mapping, as a binding wants, records or owns them. */
export interface MappingEntries {
  readonly users: readonly string[];
  readonly backendRoles: readonly string[];
}

/** What {@link planRoleMapping} needs. */
export interface RoleMappingInput {
  /** The entries the binding's spec wants. */
  readonly desired: MappingEntries;
  /** The mapping as read now; `undefined` when the role has no mapping. */
  readonly observed: ObservedRoleMapping | undefined;
  /** What the binding recorded as added by itself at its last sync (its status); `undefined` the first time. */
  readonly applied: MappingEntries | undefined;
  /** Entries other bindings of the same role want; never removed. */
  readonly wantedByOthers?: MappingEntries;
}

/** The outcome of {@link planRoleMapping} and {@link releaseRoleMapping}. */
export interface RoleMappingPlan extends Comparison {
  /** The whole mapping to put: everyone else's entries, plus the binding's. */
  readonly body: RoleMappingBody;
  /** The entries this binding owns after the body is applied, to record in its status. */
  readonly applied: MappingEntries;
  /** True when the mapping holds no entry at all any more (the caller may delete it). */
  readonly empty: boolean;
}

/** Merges a binding's entries into a role mapping, keeping everyone else's. Pure. */
export function planRoleMapping(input: RoleMappingInput): RoleMappingPlan {
  const users = mergeEntries(input.desired.users, input.observed?.users ?? [], input.applied?.users ?? [], input.wantedByOthers?.users ?? []);
  const backendRoles = mergeEntries(
    input.desired.backendRoles,
    input.observed?.backend_roles ?? [],
    input.applied?.backendRoles ?? [],
    input.wantedByOthers?.backendRoles ?? [],
  );
  return mappingPlan(input.observed, users, backendRoles);
}

/**
 * Removes a binding's entries from a role mapping (the binding is deleted), keeping everyone else's and those
 * other bindings still want. Pure.
 */
export function releaseRoleMapping(
  observed: ObservedRoleMapping | undefined,
  applied: MappingEntries | undefined,
  wantedByOthers?: MappingEntries,
): RoleMappingPlan {
  return planRoleMapping({ desired: { users: [], backendRoles: [] }, observed, applied, ...(wantedByOthers === undefined ? {} : { wantedByOthers }) });
}

/**
 * The fingerprint recorded for an applied password: `hmac-sha256:` + base64url of `HMAC-SHA256(salt, password)`.
 * It proves which password was applied without storing it; a random per-user salt keeps equal passwords apart.
 */
export function passwordFingerprint(salt: string, password: string): string {
  return `hmac-sha256:${createHmac('sha256', salt).update(password, 'utf8').digest('base64url')}`;
}

/** What {@link planUser} needs. `password` is a secret: it goes into `body` only, never into `diff`. */
export interface UserInput {
  readonly desired: { readonly backendRoles: readonly string[]; readonly attributes: Readonly<Record<string, string>> };
  readonly observed: ObservedUser | undefined;
  /** The password the user should have now (from its Secret). */
  readonly password: string;
  /** What was applied before (from status); `undefined` the first time. */
  readonly applied: PasswordApplied | undefined;
  /** Salt for a first fingerprint (random, from the caller); ignored when `applied` has one. */
  readonly newSalt: string;
}

/** The outcome of {@link planUser}. */
export interface UserPlan extends Comparison {
  /** The body to put; carries `password` only when the user is missing or the password changed. */
  readonly body: UserBody;
  /** What to record in status once the body is applied. */
  readonly passwordApplied: PasswordApplied;
}

/** Plans an internal user: backend roles, attributes and security roles as the spec says; the password on change. Pure. */
export function planUser(input: UserInput): UserPlan {
  const salt = input.applied?.salt ?? input.newSalt;
  const fingerprint = passwordFingerprint(salt, input.password);
  const diff: string[] = [];
  const observed = input.observed;
  const passwordChanged = input.applied?.fingerprint !== fingerprint;
  if (observed === undefined) diff.push('user: missing');
  else {
    if (passwordChanged) diff.push('password: differs');
    if (!sameSet(input.desired.backendRoles, observed.backend_roles)) {
      diff.push(`backendRoles: want ${list(input.desired.backendRoles)}, have ${list(observed.backend_roles)}`);
    }
    if (!jsonEqual(input.desired.attributes, observed.attributes)) diff.push('attributes: differ');
    if (observed.opendistro_security_roles.length > 0) diff.push(`securityRoles: want [], have ${list(observed.opendistro_security_roles)}`);
  }
  const body: UserBody = {
    ...(observed === undefined || passwordChanged ? { password: input.password } : {}),
    backend_roles: sortedUnique(input.desired.backendRoles),
    attributes: { ...input.desired.attributes },
    opendistro_security_roles: [],
  };
  return { upToDate: diff.length === 0, diff, body, passwordApplied: { salt, fingerprint } };
}

// Keeps the observed order (no churn), drops what this binding added and no longer wants, appends what it wants.
function mergeEntries(
  desired: readonly string[],
  observed: readonly string[],
  applied: readonly string[],
  wantedByOthers: readonly string[],
): { result: string[]; owned: string[] } {
  const drop = new Set(applied.filter((entry) => !desired.includes(entry) && !wantedByOthers.includes(entry)));
  const result = observed.filter((entry) => !drop.has(entry));
  for (const entry of desired) if (!result.includes(entry)) result.push(entry);
  // Owned: what it owned before and still wants, plus what it wants that nobody else had put there.
  const owned = sortedUnique(desired.filter((entry) => applied.includes(entry) || !observed.includes(entry)));
  return { result, owned };
}

function mappingPlan(
  observed: ObservedRoleMapping | undefined,
  users: { result: string[]; owned: string[] },
  backendRoles: { result: string[]; owned: string[] },
): RoleMappingPlan {
  const body: RoleMappingBody = {
    users: users.result,
    backend_roles: backendRoles.result,
    hosts: [...(observed?.hosts ?? [])],
    and_backend_roles: [...(observed?.and_backend_roles ?? [])],
    ...(observed?.description === undefined ? {} : { description: observed.description }),
  };
  const empty = body.users.length === 0 && body.backend_roles.length === 0 && body.hosts.length === 0 && body.and_backend_roles.length === 0;
  const diff: string[] = [];
  if (observed === undefined) {
    if (!empty) diff.push('roleMapping: missing');
  } else {
    if (!jsonEqual(body.users, observed.users)) diff.push(`users: want ${list(body.users)}, have ${list(observed.users)}`);
    if (!jsonEqual(body.backend_roles, observed.backend_roles)) {
      diff.push(`backendRoles: want ${list(body.backend_roles)}, have ${list(observed.backend_roles)}`);
    }
  }
  return { upToDate: diff.length === 0, diff, body, applied: { users: users.owned, backendRoles: backendRoles.owned }, empty };
}

function normalIndexPermission(permission: RoleBody['index_permissions'][number]): unknown {
  return {
    index_patterns: sortedUnique(permission.index_patterns),
    allowed_actions: sortedUnique(permission.allowed_actions),
    dls: permission.dls ?? '',
    fls: sortedUnique(permission.fls),
    masked_fields: sortedUnique(permission.masked_fields),
  };
}

function normalTenantPermission(permission: RoleBody['tenant_permissions'][number]): unknown {
  return { tenant_patterns: sortedUnique(permission.tenant_patterns), allowed_actions: sortedUnique(permission.allowed_actions) };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return jsonEqual(sortedUnique(a), sortedUnique(b));
}

function list(values: readonly string[]): string {
  return `[${values.join(', ')}]`;
}
