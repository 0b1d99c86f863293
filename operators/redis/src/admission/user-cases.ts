/**
 * The one table of RedisUser cases (issue #20) that the chart's ValidatingAdmissionPolicy and the operator's own
 * checks (`usernameProblem` and `validateAclRules`, as the RedisUser reconciler calls them) must agree on: admitted,
 * or refused with a message containing `refused`. Only what needs no Redis server: the operator's reserved users and
 * rules it never applies (reset, passwords written as rules, unknown categories). Data only.
 */

/** One case: a RedisUser's username and rules, and the verdict. */
export interface RedisUserCase {
  readonly title: string;
  readonly username: string;
  readonly rules: readonly string[];
  /** Absent: admitted. Otherwise the text both refusals contain. */
  readonly refused?: string;
}

/** The cases; titles are unique. */
export const REDIS_USER_CASES: readonly RedisUserCase[] = [
  { title: 'read-only rules on a key pattern are admitted', username: 'app', rules: ['+@read ~app:*', '-@dangerous'] },
  { title: 'a selector and a channel pattern are admitted', username: 'worker', rules: ['+get', '(+set ~cache:*)', '&jobs'] },
  { title: 'restricting the default user is admitted', username: 'default', rules: ['off'] },
  { title: 'the operator\u2019s own user is refused', username: 'redis-operator', rules: ['+@all'], refused: 'the username redis-operator is reserved for the operator' },
  { title: 'the replication user is refused', username: 'replication', rules: ['+@read'], refused: 'the username replication is reserved for the operator' },
  { title: 'a reset rule is refused', username: 'app', rules: ['+@read reset'], refused: 'reset: reset is not allowed: the operator already starts every user from reset' },
  { title: 'a password written as a rule is refused', username: 'app', rules: ['+@read', '>hunter2'], refused: 'passwords are not rules: they come from passwordSecretRef' },
  { title: 'nopass is refused', username: 'app', rules: ['nopass'], refused: 'nopass: passwords are not rules: they come from passwordSecretRef' },
  { title: 'an unknown category is refused', username: 'app', rules: ['+@reed'], refused: '+@reed: unknown ACL category "reed"' },
];
