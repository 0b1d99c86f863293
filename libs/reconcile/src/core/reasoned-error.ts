import { isReasonValue } from './conditions.ts';
import { isNamespaceTerminating, KubeApiError } from './errors.ts';
import { Reasons } from './reasons.ts';

/**
 * A retryable failure with a CamelCase condition reason: a thrown one backs off and retries, and the runtime writes
 * `reason` into the resource's conditions (as a `TerminalError`'s, which waits for a change instead). The base of
 * `DependencyError` and of each operator's adapter errors (`KafkaAdminError`, `OpenSearchError`, `RedisMemberError`),
 * which add only what their system knows (an HTTP status, a member). `message` is shown to users: it names objects and
 * actions, never a secret value.
 */
export class ReasonedError<R extends string = string> extends Error {
  override readonly name: string = 'ReasonedError';
  /** The CamelCase condition reason, e.g. `NotAuthorized`. */
  readonly reason: R;

  /** Holds the reason and message; nothing else. */
  constructor(reason: R, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/**
 * The condition reason a thrown error carries: its `reason` when that is a CamelCase string (a {@link ReasonedError},
 * a `TerminalError`, a `KubeApiError`'s Status reason, or any error of that shape from another copy of a module), else
 * `undefined`. One exception keeps one name for one failure: the apiserver's `Forbidden` (RBAC refused the operator)
 * is {@link Reasons.notAuthorized}, as the operators' own systems' refusals are; a 403 because the namespace is being
 * deleted keeps `Forbidden`, since that is not about permissions. Pure.
 */
export function errorReason(err: unknown): string | undefined {
  if (err instanceof KubeApiError && err.status === 403 && !isNamespaceTerminating(err)) return Reasons.notAuthorized;
  if (typeof err !== 'object' || err === null || !('reason' in err)) return undefined;
  return typeof err.reason === 'string' && isReasonValue(err.reason) ? err.reason : undefined;
}
