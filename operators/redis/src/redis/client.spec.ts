import { isTerminalError } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { classifyRedisError } from './client.ts';
import { isRedisMemberError } from './errors.ts';

function replyError(message: string): Error {
  const err = new Error(message);
  err.name = 'ReplyError';
  return err;
}

function connectionError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

const closed = new Error('Connection is closed.');

describe('classifyRedisError', () => {
  it.each([
    [closed, connectionError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:6379'), 'MemberUnreachable'],
    [new Error('Command timed out'), undefined, 'MemberUnreachable'],
    [closed, replyError('WRONGPASS invalid username-password pair or user is disabled.'), 'AuthenticationFailed'],
    [replyError("NOPERM this user has no permissions to run the 'info' command"), undefined, 'NotAuthorized'],
    [replyError('LOADING Redis is loading the dataset in memory'), undefined, 'MemberUnreachable'],
    [replyError('MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no.'), undefined, 'PrimaryUnavailable'],
    [replyError('ERR something else'), undefined, 'RedisCommandFailed'],
  ] as const)('maps %s / %s to %s', (err, connErr, reason) => {
    const mapped = classifyRedisError(err, connErr, '10.0.0.1:6379', 'INFO');
    expect(isRedisMemberError(mapped, reason)).toBe(true);
    expect(mapped.message).toMatch(/^INFO on 10\.0\.0\.1:6379: /);
  });

  it('makes a refused ACL rule terminal with Redis own message', () => {
    const mapped = classifyRedisError(replyError("ERR Error in ACL SETUSER modifier '+@nosuch': Unknown command or category name in ACL"), undefined, 'm', 'ACL SETUSER app');
    expect(isTerminalError(mapped)).toBe(true);
    expect(mapped).toMatchObject({ reason: 'InvalidAclRule' });
    expect(mapped.message).toContain("'+@nosuch': Unknown command or category name");
  });

  it('makes a refused config value terminal', () => {
    const mapped = classifyRedisError(replyError("ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must be one of the following: noeviction"), undefined, 'm', 'CONFIG SET');
    expect(mapped).toMatchObject({ name: 'TerminalError', reason: 'InvalidConfig' });
  });

  it('masks secrets and keeps no cause that could carry command arguments', () => {
    const mapped = classifyRedisError(replyError("ERR Error in ACL SETUSER modifier '>s3cret': x"), undefined, 'm', 'ACL SETUSER', ['s3cret']);
    expect(mapped.message).not.toContain('s3cret');
    expect(mapped.cause).toBeUndefined();
  });
});
