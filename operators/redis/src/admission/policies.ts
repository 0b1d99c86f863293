import type { V1LabelSelector, V1ValidatingAdmissionPolicy, V1ValidatingAdmissionPolicyBinding } from '@kubernetes/client-node';
import { GROUP, VERSION } from '../api/v1alpha1/index.ts';
import { ACL_CATEGORIES } from '../redis/acl.ts';
import { OPERATOR_USERNAME, REPLICATION_USERNAME } from '../redis/manifests.ts';

/**
 * The Redis chart's ValidatingAdmissionPolicy (issue #20): what the operator refuses in a RedisUser without asking
 * Redis (its own reserved users, `reset`, passwords written as rules, unknown categories), refused at `kubectl apply`
 * with the operator's words. No parameter: the rules are the operator's, not a connection's. A rule the policy cannot
 * judge (a command name only Redis knows) is left to the operator, which stays the guarantee. A refused password
 * rule never echoes the password.
 */

/** The name of the policy, and of its binding. */
export const REDIS_USER_POLICY = 'redis-users.redis.domain-operators.io';

/** What an admission policy does with a refusal: `Deny` (default) or, for a gradual roll-out, `Warn` and `Audit`. */
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

/** Options of {@link redisUserPolicies}. */
export interface RedisUserPolicyOptions {
  /** Default `['Deny']`. */
  readonly validationActions?: readonly ValidationAction[];
  /** The name of the policy and of its binding; default {@link REDIS_USER_POLICY}. */
  readonly name?: string;
  /** The namespaces the binding applies to; default every namespace. */
  readonly namespaceSelector?: V1LabelSelector;
}

/**
 * Only writes of a spec are judged: a create, or an update that changes the spec of an object not being deleted. The
 * operator's own writes (finalizers, annotations) of an object admitted before the rules tightened must go through,
 * or such an object could never be released; its spec is refused at the next change, and the operator reports it.
 */
const SPEC_WRITES = [{ name: 'spec-written', expression: "request.operation == 'CREATE' || (!has(object.metadata.deletionTimestamp) && object.spec != oldObject.spec)" }];

/** CEL: the single rules of every entry (split at spaces; a selector's parentheses stripped), as `rules.all(r, …)` parts. */
const token = "t.replace('(', '').replace(')', '')";
const anyToken = (test: string) => `object.spec.rules.exists(r, r.split(' ').exists(t, ${test}))`;
const firstToken = (test: string) => `object.spec.rules.filter(r, r.split(' ').exists(t, ${test}))[0].split(' ').filter(t, ${test})[0]`;
const list = (values: Iterable<string>) => `[${[...values].map((v) => `'${v}'`).join(', ')}]`;

/** The policy and its binding. Pure; the chart renders them with the binding's `validationActions` from its values. */
export function redisUserPolicies(options: RedisUserPolicyOptions = {}): [V1ValidatingAdmissionPolicy, V1ValidatingAdmissionPolicyBinding] {
  const name = options.name ?? REDIS_USER_POLICY;
  const reset = `${token} == 'reset'`;
  const password = `(${token} == 'nopass' || ${token} == 'resetpass' || ${token}.matches('^[<>#!]'))`;
  const category = `(${token}.matches('^[+-]@') && !(${token}.substring(2) in ${list(ACL_CATEGORIES)}))`;
  const known = [...ACL_CATEGORIES].join(', ');
  const policy: V1ValidatingAdmissionPolicy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConditions: SPEC_WRITES,
      matchConstraints: { resourceRules: [{ apiGroups: [GROUP], apiVersions: [VERSION], operations: ['CREATE', 'UPDATE'], resources: ['redisusers'] }] },
      validations: [
        {
          expression: `!(object.spec.username in ${list([OPERATOR_USERNAME, REPLICATION_USERNAME])})`,
          messageExpression: "'the username ' + object.spec.username + ' is reserved for the operator'",
          reason: 'Invalid',
        },
        { expression: `!${anyToken(reset)}`, message: 'reset: reset is not allowed: the operator already starts every user from reset', reason: 'Invalid' },
        {
          expression: `!${anyToken(password)}`,
          // The first character only: the rest of a ">…" rule is a password.
          messageExpression: `(${firstToken(password)}.replace('(', '').matches('^[<>#!]') ? ${firstToken(password)}.replace('(', '').substring(0, 1) + '…' : ${firstToken(password)}) + ': passwords are not rules: they come from passwordSecretRef'`,
          reason: 'Invalid',
        },
        {
          expression: `!${anyToken(category)}`,
          messageExpression: `${firstToken(category)}.replace('(', '').replace(')', '') + ': unknown ACL category "' + ${firstToken(category)}.replace('(', '').replace(')', '').substring(2) + '"; known: ${known}'`,
          reason: 'Invalid',
        },
      ],
    },
  };
  const binding: V1ValidatingAdmissionPolicyBinding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: {
      policyName: name,
      validationActions: [...(options.validationActions ?? ['Deny'])],
      ...(options.namespaceSelector !== undefined && { matchResources: { namespaceSelector: options.namespaceSelector } }),
    },
  };
  return [policy, binding];
}
