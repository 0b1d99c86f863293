import { ReasonedError } from '@domain-operators/reconcile';
import type { Reasons } from '@domain-operators/reconcile';

/**
 * The Redis operator's reasons for a failed call to a member, beside the runtime's shared `Reasons`
 * (`AuthenticationFailed`: the operator's credentials were refused; `NotAuthorized`: its user lacks a permission,
 * `NOPERM`, `NoPermission` before 0.2; both retried: fix the Secret or the ACL).
 */
export const MEMBER_REASONS = {
  /** No connection, a timeout, or the member is loading its data set. Retried. */
  unreachable: 'MemberUnreachable',
  /** The member answered that its primary is down (`MASTERDOWN`). Retried. */
  primaryUnavailable: 'PrimaryUnavailable',
  /** Any other error reply. Retried. */
  commandFailed: 'RedisCommandFailed',
  /** Redis refused an ACL rule (`TerminalError`). */
  invalidAclRule: 'InvalidAclRule',
  /** Redis refused a config value (`TerminalError`). */
  invalidConfig: 'InvalidConfig',
} as const;

/**
 * Why a call to a Redis member failed, as a CamelCase condition reason: {@link MEMBER_REASONS}' retryable ones, or
 * the runtime's `AuthenticationFailed` and `NotAuthorized`. Refused inputs (an invalid ACL rule or config value) are
 * `TerminalError`s instead, with reasons `InvalidAclRule` and `InvalidConfig`.
 */
export type RedisFailureReason =
  | typeof MEMBER_REASONS.unreachable
  | typeof MEMBER_REASONS.primaryUnavailable
  | typeof Reasons.authenticationFailed
  | typeof Reasons.notAuthorized
  | typeof MEMBER_REASONS.commandFailed;

/**
 * A retryable failure of one Redis member. `message` names the member and the command but never a password;
 * `reason` is what a reconciler writes into a condition.
 */
export class RedisMemberError extends ReasonedError<RedisFailureReason> {
  override readonly name = 'RedisMemberError';
  /** `host:port` of the member. */
  readonly member: string;

  constructor(reason: RedisFailureReason, member: string, message: string, options?: ErrorOptions) {
    super(reason, message, options);
    this.member = member;
  }
}

/** True for a {@link RedisMemberError}, optionally of one reason. */
export function isRedisMemberError(err: unknown, reason?: RedisFailureReason): err is RedisMemberError {
  return err instanceof RedisMemberError && (reason === undefined || err.reason === reason);
}
