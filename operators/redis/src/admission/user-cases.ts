// The one table of RedisUser cases (issue #20) that the chart's ValidatingAdmissionPolicy (user-policy.int.spec.ts)
// and the operator's own checks (`usernameProblem` and `validateAclRules`, as the RedisUser reconciler calls them;
// user-cases.spec.ts) must agree on: admitted, or refused with a message containing `refused`. Only what needs no
// Redis server: the operator's reserved users and rules it never applies (reset, passwords written as rules, unknown
// categories). Data only.
import type { AdmissionCase, AdmissionCaseTable } from '@domain-operators/reconcile';
import type { RedisUserSpec } from '../api/v1alpha1/index.ts';

/** One case: a RedisUser's username and rules, and the verdict. */
export type RedisUserCase = AdmissionCase<Pick<RedisUserSpec, 'replicationRef' | 'username' | 'rules'>> & { readonly kind: 'RedisUser' };

const user = (title: string, username: string, rules: string[], refused?: string): RedisUserCase => ({
  title,
  kind: 'RedisUser',
  name: 'u',
  spec: { replicationRef: { name: 'cache' }, username, rules },
  ...(refused !== undefined && { refused }),
});

/** The cases (no connection: the policy has no parameter); titles are unique. */
export const REDIS_USER_CASES: AdmissionCaseTable<RedisUserCase> = {
  cases: [
    user('read-only rules on a key pattern are admitted', 'app', ['+@read ~app:*', '-@dangerous']),
    user('a selector and a channel pattern are admitted', 'worker', ['+get', '(+set ~cache:*)', '&jobs']),
    user('restricting the default user is admitted', 'default', ['off']),
    user('the operator\u2019s own user is refused', 'redis-operator', ['+@all'], 'the username redis-operator is reserved for the operator'),
    user('the replication user is refused', 'replication', ['+@read'], 'the username replication is reserved for the operator'),
    user('a reset rule is refused', 'app', ['+@read reset'], 'reset: reset is not allowed: the operator already starts every user from reset'),
    user('a password written as a rule is refused', 'app', ['+@read', '>hunter2'], 'passwords are not rules: they come from passwordSecretRef'),
    user('nopass is refused', 'app', ['nopass'], 'nopass: passwords are not rules: they come from passwordSecretRef'),
    user('an unknown category is refused', 'app', ['+@reed'], '+@reed: unknown ACL category "reed"'),
  ],
};
