/**
 * Why a call to a Redis member failed, as a CamelCase condition reason:
 * - `MemberUnreachable`: no connection, a timeout, or the member is loading its data set (retry).
 * - `PrimaryUnavailable`: the member answered that its primary is down (`MASTERDOWN`) (retry).
 * - `AuthenticationFailed`: the operator's credentials were refused (retry; fix the Secret or the ACL file).
 * - `NoPermission`: the operator's user lacks a permission (`NOPERM`) (retry; fix the ACL).
 * - `RedisCommandFailed`: any other error reply (retry).
 * Refused inputs (an invalid ACL rule or config value) are `TerminalError`s instead, with reasons
 * `InvalidAclRule` and `InvalidConfig`.
 */
export type RedisFailureReason = 'MemberUnreachable' | 'PrimaryUnavailable' | 'AuthenticationFailed' | 'NoPermission' | 'RedisCommandFailed';

/**
 * A retryable failure of one Redis member. `message` names the member and the command but never a password;
 * `reason` is what a reconciler writes into a condition.
 */
export class RedisMemberError extends Error {
  override readonly name = 'RedisMemberError';
  readonly reason: RedisFailureReason;
  /** `host:port` of the member. */
  readonly member: string;

  constructor(reason: RedisFailureReason, member: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
    this.member = member;
  }
}

/** True for a {@link RedisMemberError}, optionally of one reason. */
export function isRedisMemberError(err: unknown, reason?: RedisFailureReason): err is RedisMemberError {
  return err instanceof RedisMemberError && (reason === undefined || err.reason === reason);
}
