import { ReasonedError } from '../core/reasoned-error.ts';

/**
 * Something a resource depends on is missing: its connection, its namespace in the cache, a Secret, a referenced
 * object. Retryable (a thrown error backs off): it may appear, and the watch on it usually wakes the resource first.
 * `reason` is a CamelCase condition reason ({@link ConnectionReasons}, the runtime's `Reasons.secretNotFound`, or the
 * operator's own); the message names objects and keys, never secret values.
 */
export class DependencyError extends ReasonedError {
  override readonly name = 'DependencyError';
}

/** True for a {@link DependencyError} (also across module copies, by name), with `reason` when given. */
export function isDependencyError(err: unknown, reason?: string): err is DependencyError {
  if (!(err instanceof Error) || err.name !== 'DependencyError') return false;
  return reason === undefined || ('reason' in err && err.reason === reason);
}
