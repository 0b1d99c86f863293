// The Redis chart's ValidatingAdmissionPolicy (issue #20, ADR 0029): what the operator refuses in a RedisUser without
// asking Redis (its own reserved users, `reset`, passwords written as rules, unknown categories), refused at `kubectl
// apply` with the operator's words. No parameter (defineObjectPolicy): the rules are the operator's, not a
// connection's. A rule the policy cannot judge (a command name only Redis knows) is left to the operator, which stays
// the guarantee. A refused password rule never echoes the password.
import { celString, celStringList, defineObjectPolicy } from '@domain-operators/reconcile';
import type { AdmissionPolicy } from '@domain-operators/reconcile';
import { GROUP } from '../api/v1alpha1/index.ts';
import { ACL_CATEGORIES } from '../redis/acl.ts';
import { OPERATOR_USERNAME, REPLICATION_USERNAME } from '../redis/manifests.ts';

/** CEL: the single rules of every entry (split at spaces; a selector's parentheses stripped), as `rules.all(r, …)` parts. */
const token = "t.replace('(', '').replace(')', '')";
const anyToken = (test: string) => `object.spec.rules.exists(r, r.split(' ').exists(t, ${test}))`;
const firstToken = (test: string) => `object.spec.rules.filter(r, r.split(' ').exists(t, ${test}))[0].split(' ').filter(t, ${test})[0]`;

const reset = `${token} == 'reset'`;
const password = `(${token} == 'nopass' || ${token} == 'resetpass' || ${token}.matches('^[<>#!]'))`;
const category = `(${token}.matches('^[+-]@') && !(${token}.substring(2) in ${celStringList([...ACL_CATEGORIES])}))`;

/** The RedisUser policy: reserved usernames, reset, passwords as rules, unknown categories. */
const users = defineObjectPolicy({
  name: 'users',
  group: GROUP,
  resources: ['redisusers'],
  validations: [
    {
      expression: `!(object.spec.username in ${celStringList([OPERATOR_USERNAME, REPLICATION_USERNAME])})`,
      messageExpression: "'the username ' + object.spec.username + ' is reserved for the operator'",
    },
    { expression: `!${anyToken(reset)}`, messageExpression: celString('reset: reset is not allowed: the operator already starts every user from reset') },
    {
      expression: `!${anyToken(password)}`,
      // The first character only: the rest of a ">…" rule is a password.
      messageExpression: `(${firstToken(password)}.replace('(', '').matches('^[<>#!]') ? ${firstToken(password)}.replace('(', '').substring(0, 1) + '…' : ${firstToken(password)}) + ': passwords are not rules: they come from passwordSecretRef'`,
    },
    {
      expression: `!${anyToken(category)}`,
      messageExpression: `${firstToken(category)}.replace('(', '').replace(')', '') + ': unknown ACL category "' + ${firstToken(category)}.replace('(', '').replace(')', '').substring(2) + '"; known: ${[...ACL_CATEGORIES].join(', ')}'`,
    },
  ],
});

/** The policies rendered into charts/redis-operator/templates/admission-policies.yaml (`nx run redis-operator:admission-policies`). */
export const admissionPolicies: readonly AdmissionPolicy[] = [users];
