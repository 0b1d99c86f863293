/**
 * Desired vs observed action groups and tenants of the security plugin. Both are owned whole: the body is the spec.
 * Pure.
 */
import { jsonEqual, sortedUnique } from './json.ts';
import type { Comparison, SecurityFlags } from './security-plan.ts';

/** An action group body as the security API takes it (`PUT _plugins/_security/api/actiongroups/<name>`). */
export interface ActionGroupBody {
  readonly allowed_actions: readonly string[];
  /** `index`, `cluster` or `kibana`. */
  readonly type: string;
  readonly description: string;
}

/** An action group as read from the security API. */
export type ObservedActionGroup = ActionGroupBody & SecurityFlags;

/** A tenant body as the security API takes it (`PUT _plugins/_security/api/tenants/<name>`). */
export interface TenantBody {
  readonly description: string;
}

/** A tenant as read from the security API. */
export type ObservedTenant = TenantBody & SecurityFlags;

/** The security API body of an action group spec. Pure. */
export function actionGroupBody(spec: { readonly type: string; readonly allowedActions: readonly string[]; readonly description?: string | undefined }): ActionGroupBody {
  return { allowed_actions: [...spec.allowedActions], type: spec.type, description: spec.description ?? '' };
}

/** The security API body of a tenant spec. Pure. */
export function tenantBody(spec: { readonly description?: string | undefined }): TenantBody {
  return { description: spec.description ?? '' };
}

/** Compares a desired action group with the observed one (`undefined` when absent); actions compare as a set. Pure. */
export function compareActionGroup(desired: ActionGroupBody, observed: ObservedActionGroup | undefined): Comparison {
  if (observed === undefined) return { upToDate: false, diff: ['actionGroup: missing'] };
  const diff: string[] = [];
  if (!jsonEqual(sortedUnique(desired.allowed_actions), sortedUnique(observed.allowed_actions))) {
    diff.push(`allowedActions: want [${desired.allowed_actions.join(', ')}], have [${observed.allowed_actions.join(', ')}]`);
  }
  if (desired.type !== observed.type) diff.push(`type: want ${desired.type}, have ${observed.type}`);
  if (desired.description !== observed.description) diff.push('description: differs');
  return { upToDate: diff.length === 0, diff };
}

/** Compares a desired tenant with the observed one (`undefined` when absent). Pure. */
export function compareTenant(desired: TenantBody, observed: ObservedTenant | undefined): Comparison {
  if (observed === undefined) return { upToDate: false, diff: ['tenant: missing'] };
  return desired.description === observed.description ? { upToDate: true, diff: [] } : { upToDate: false, diff: ['description: differs'] };
}
