import { describe, expect, it } from 'vitest';
import { aclSetUserArgs, parseAclGetUser, passwordHash, passwordMatches, redactAclArgs, tokenizeAclRules, usernameProblem, validateAclRules } from './acl.ts';

describe('tokenizeAclRules', () => {
  it('splits entries on spaces and keeps a selector whole', () => {
    expect(tokenizeAclRules(['+@read -flushall', '~app:*', '(~cache:* +get)  &chan'])).toEqual(['+@read', '-flushall', '~app:*', '(~cache:* +get)', '&chan']);
  });
});

describe('validateAclRules', () => {
  it('accepts commands, categories, subcommands, key and channel patterns and keywords', () => {
    const rules = ['on', '+@read', '-@dangerous', '-flushall', '+config|get', '+json.get', '~app:*', '%R~ro:*', '%RW~rw:*', '&chan', 'resetkeys', 'allchannels', 'resetchannels', 'allkeys', 'nocommands', 'allcommands', 'off', '(~cache:* +get)'];
    expect(validateAclRules(rules)).toEqual([]);
  });

  it.each([
    ['+@nosuch', /unknown ACL category "nosuch"; known: keyspace, read/],
    ['~', /empty key pattern/],
    ['&', /empty channel pattern/],
    ['%X~a', /%R~pattern/],
    ['+', /not a command name/],
    ['bogus', /not an ACL rule/],
    ['>secret', /passwords are not rules/],
    ['#abc', /passwords are not rules/],
    ['nopass', /passwords are not rules/],
    ['reset', /starts every user from reset/],
    ['(~a +get', /closed/],
    ['(on)', /only commands, key and channel patterns/],
    ['()', /empty selector/],
  ])('refuses %s with a clear message', (rule, message) => {
    const problems = validateAclRules([rule]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.rule).toBe(/^[<>#!]/.test(rule) ? `${rule.charAt(0)}…` : rule);
    expect(problems[0]?.message).toMatch(message);
  });

  it('never echoes a password (or its hash) in a problem, rule or message: the reconciler puts both in its condition', () => {
    const shown = JSON.stringify(validateAclRules(['>hunter2', '<hunter3', '#5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8', '!abc']));
    for (const secret of ['hunter2', 'hunter3', '5e884898', 'abc']) expect(shown).not.toContain(secret);
  });
});

describe('usernameProblem', () => {
  it('accepts an ordinary name and refuses empty, spaced and reserved ones', () => {
    expect(usernameProblem('app')).toBeUndefined();
    expect(usernameProblem('')).toMatch(/empty/);
    expect(usernameProblem('a b')).toMatch(/spaces/);
    expect(usernameProblem('operator', ['operator', 'replication'])).toMatch(/reserved/);
  });
});

describe('aclSetUserArgs', () => {
  it('starts from reset, turns the user on, and sets the password last', () => {
    expect(aclSetUserArgs({ username: 'app', password: 'pw', rules: ['+@read -flushall', '~app:*'] })).toEqual(['app', 'reset', 'on', '+@read', '-flushall', '~app:*', '>pw']);
  });

  it('keeps an explicit off', () => {
    expect(aclSetUserArgs({ username: 'app', password: 'pw', rules: ['off', '+@all'] })).toEqual(['app', 'reset', 'off', '+@all', '>pw']);
  });
});

describe('redactAclArgs and passwordHash', () => {
  it('replaces the password by its sha256 as Redis reports it', () => {
    const hash = passwordHash('pw');
    expect(hash).toBe('30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4');
    expect(redactAclArgs(['app', 'reset', '>pw'])).toEqual(['app', 'reset', `#${hash}`]);
  });
});

describe('parseAclGetUser', () => {
  // The reply of `ACL GETUSER` from redis-server 7.0.15 as ioredis returns it.
  const reply = ['flags', ['on', 'sanitize-payload'], 'passwords', [passwordHash('pw')], 'commands', '-@all +@read -flushall', 'keys', '~app:*', 'channels', '&chan', 'selectors', []];

  it('reads flags, password hashes and rules', () => {
    expect(parseAclGetUser(reply)).toEqual({
      flags: ['on', 'sanitize-payload'],
      passwords: [passwordHash('pw')],
      commands: '-@all +@read -flushall',
      keys: '~app:*',
      channels: '&chan',
    });
  });

  it('reads a nil reply as no such user', () => {
    expect(parseAclGetUser(null)).toBeUndefined();
  });

  it('detects a pending rotation by comparing hashes', () => {
    const user = parseAclGetUser(reply)!;
    expect(passwordMatches(user, 'pw')).toBe(true);
    expect(passwordMatches(user, 'new')).toBe(false);
  });
});
