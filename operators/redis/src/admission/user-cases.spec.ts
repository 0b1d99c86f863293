// The shared table of RedisUser cases through the operator's own checks: the reserved users and the rule
// validation, composed as the RedisUser reconciler composes them (username first, then every rule problem joined by
// "; "). The same table goes through the chart's admission policy in a real apiserver (user-policy.int.spec.ts).
import { caseDisagreements } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { usernameProblem, validateAclRules } from '../redis/acl.ts';
import { OPERATOR_USERNAME, REPLICATION_USERNAME } from '../redis/manifests.ts';
import { REDIS_USER_CASES } from './user-cases.ts';
import type { RedisUserCase } from './user-cases.ts';

/** The operator's refusal of the case's user, or `undefined` when it would apply it. */
function operatorRefusal(c: RedisUserCase): string | undefined {
  const name = usernameProblem(c.spec.username, [OPERATOR_USERNAME, REPLICATION_USERNAME]);
  if (name !== undefined) return name;
  const rules = validateAclRules(c.spec.rules);
  return rules.length === 0 ? undefined : rules.map((p) => `${p.rule}: ${p.message}`).join('; ');
}

describe('the shared RedisUser cases, through the operator\u2019s checks', () => {
  it('has unique titles, admitted and refused cases', () => {
    const cases = REDIS_USER_CASES.cases;
    expect(new Set(cases.map((c) => c.title)).size).toBe(cases.length);
    expect(cases.some((c) => c.refused === undefined)).toBe(true);
    expect(cases.some((c) => c.refused !== undefined)).toBe(true);
  });

  it.each(REDIS_USER_CASES.cases.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    expect(caseDisagreements('operator', [c], [operatorRefusal(c)], { namespace: 'team-a' })).toEqual([]);
  });
});
