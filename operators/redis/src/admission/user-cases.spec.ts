// The shared table of RedisUser cases through the operator's own checks: the reserved users and the rule
// validation, composed as the RedisUser reconciler composes them (username first, then every rule problem joined by
// "; "). The same table goes through the chart's admission policy in a real apiserver (user-policy.int.spec.ts).
import { describe, expect, it } from 'vitest';
import { usernameProblem, validateAclRules } from '../redis/acl.ts';
import { OPERATOR_USERNAME, REPLICATION_USERNAME } from '../redis/manifests.ts';
import { REDIS_USER_CASES } from './user-cases.ts';
import type { RedisUserCase } from './user-cases.ts';

/** The operator's refusal of the case's user, or `undefined` when it would apply it. */
function operatorRefusal(c: RedisUserCase): string | undefined {
  const name = usernameProblem(c.username, [OPERATOR_USERNAME, REPLICATION_USERNAME]);
  if (name !== undefined) return name;
  const rules = validateAclRules(c.rules);
  return rules.length === 0 ? undefined : rules.map((p) => `${p.rule}: ${p.message}`).join('; ');
}

describe('the shared RedisUser cases, through the operator\u2019s checks', () => {
  it('has unique titles, admitted and refused cases', () => {
    expect(new Set(REDIS_USER_CASES.map((c) => c.title)).size).toBe(REDIS_USER_CASES.length);
    expect(REDIS_USER_CASES.some((c) => c.refused === undefined)).toBe(true);
    expect(REDIS_USER_CASES.some((c) => c.refused !== undefined)).toBe(true);
  });

  it.each(REDIS_USER_CASES.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const refusal = operatorRefusal(c);
    if (c.refused === undefined) expect(refusal).toBeUndefined();
    else expect(refusal).toContain(c.refused);
  });
});
