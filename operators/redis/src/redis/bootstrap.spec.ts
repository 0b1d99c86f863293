import { describe, expect, it } from 'vitest';
import { passwordHash } from './acl.ts';
import { aclBootstrapLines, quoteConfigValue, replicationAuthLines } from './bootstrap.ts';

const users = { operator: { username: 'operator', password: 'op-secret' }, replication: { username: 'replication', password: 'repl-secret' } };

describe('aclBootstrapLines', () => {
  it('creates the operator admin user and the replication user with hashed passwords only', () => {
    const lines = aclBootstrapLines(users);
    expect(lines).toEqual([
      `user operator on #${passwordHash('op-secret')} ~* &* +@all`,
      `user replication on #${passwordHash('repl-secret')} +psync +replconf +ping`,
    ]);
    expect(lines.join('\n')).not.toMatch(/op-secret|repl-secret/);
  });

  it('sets the default user password when given', () => {
    expect(aclBootstrapLines({ ...users, defaultPassword: 'd' })[2]).toBe(`user default on #${passwordHash('d')} ~* &* +@all`);
  });
});

describe('replicationAuthLines', () => {
  it('names the replication user and quotes its password', () => {
    expect(replicationAuthLines({ username: 'replication', password: 'a "b" \\c\n' })).toEqual(['masteruser replication', 'masterauth "a \\"b\\" \\\\c\\x0a"']);
  });
});

describe('quoteConfigValue', () => {
  it('escapes non-ASCII bytes', () => {
    expect(quoteConfigValue('é')).toBe('"\\xc3\\xa9"');
  });
});
