/**
 * A snapshot repository's refusals as reasoned errors: OpenSearch answers both a registration it refuses (an unknown
 * type, an `fs` location outside `path.repo`) and a failed verification with HTTP 500 and a `repository_exception`
 * or `repository_verification_exception`, which the client's classification calls `OpenSearchUnavailable`. They are
 * not outages: they get their own reasons and keep OpenSearch's message. Both are retried, since installing a plugin,
 * setting `path.repo` or repairing the storage fixes them without a change of the spec. Pure.
 */
import { ReasonedError } from '@domain-operators/reconcile';
import { isOpenSearchError } from './errors.ts';
import { OpenSearchReasons } from './reasons.ts';

/** The reasons of a {@link RepositoryError}. */
export type RepositoryReason = typeof OpenSearchReasons.repositoryRefused | typeof OpenSearchReasons.repositoryVerificationFailed;

/** A repository that OpenSearch refused to register or could not verify; retryable, `message` is OpenSearch's. */
export class RepositoryError extends ReasonedError<RepositoryReason> {
  override readonly name = 'RepositoryError';
}

/** OpenSearch's error types about a repository itself (as the classified message spells them). */
const REPOSITORY_EXCEPTION = /\brepository(_verification)?_exception\b/;

/**
 * What a failed `putRepository` means: an answer naming a repository exception is `RepositoryRefused` with
 * OpenSearch's message; anything else (unreachable, 401, 403, a 400 about the body) is returned as it was.
 */
export function registrationFailure(err: unknown): unknown {
  if (isOpenSearchError(err) && err.status !== undefined && REPOSITORY_EXCEPTION.test(err.message)) {
    return new RepositoryError(OpenSearchReasons.repositoryRefused, err.message, { cause: err });
  }
  return err;
}

/**
 * What a failed `verifyRepository` means: an answer of 500 or naming a repository exception is
 * `RepositoryVerificationFailed` with OpenSearch's message (which names the nodes that failed); anything else
 * (unreachable, 401, 403, 404, 429, 503) is returned as it was.
 */
export function verificationFailure(err: unknown): unknown {
  if (isOpenSearchError(err) && err.status !== undefined && (err.status === 500 || REPOSITORY_EXCEPTION.test(err.message))) {
    return new RepositoryError(OpenSearchReasons.repositoryVerificationFailed, err.message, { cause: err });
  }
  return err;
}
