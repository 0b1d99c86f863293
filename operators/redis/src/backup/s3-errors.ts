/**
 * How a failed S3 call reads as a backup's condition: refused credentials or requests are `AccessDenied`, anything
 * else (unreachable endpoint, missing bucket, server errors) `DestinationUnavailable`, each with a message that
 * names the endpoint, bucket and S3's own error code, and never a credential. Pure.
 */
import { BACKUP_REASONS } from './reasons.ts';
import type { BackupReason } from './reasons.ts';

/** S3 error codes that mean "these credentials may not do this". */
const REFUSALS = new Set(['AccessDenied', 'SignatureDoesNotMatch', 'InvalidAccessKeyId', 'InvalidToken', 'ExpiredToken', 'AllAccessDisabled', 'AccountProblem', 'XAdminUserNotFound']);

/** A failed S3 call, classified. */
export class S3CallError extends Error {
  override readonly name = 'S3CallError';
  readonly reason: BackupReason;
  /** S3's error code (`AccessDenied`, `NoSuchBucket`, …) or the network error's code; `undefined` when unknown. */
  readonly code: string | undefined;

  constructor(message: string, reason: BackupReason, code: string | undefined, cause?: unknown) {
    super(message, { cause });
    this.reason = reason;
    this.code = code;
  }
}

/** What the AWS SDK's errors carry that is used here. */
interface SdkErrorShape {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown };
}

/** Classifies `err` from an S3 call described by `operation` (e.g. `upload team-a/cache/….rdb`) against `where`. */
export function classifyS3Error(err: unknown, operation: string, where: { readonly endpoint: string; readonly bucket: string }): S3CallError {
  const shape: SdkErrorShape = typeof err === 'object' && err !== null ? err : {};
  const status = typeof shape.$metadata?.httpStatusCode === 'number' ? shape.$metadata.httpStatusCode : undefined;
  const networkCode = typeof shape.code === 'string' ? shape.code : undefined;
  // A HEAD answer has no body, so the SDK knows no code for it ("Unknown", "UnknownError"): the status says it all.
  const name = typeof shape.name === 'string' && shape.name !== 'Error' && shape.name !== 'Unknown' ? shape.name : undefined;
  const code = name ?? networkCode;
  const refused = (code !== undefined && REFUSALS.has(code)) || status === 403;
  const message = typeof shape.message === 'string' && shape.message !== '' && shape.message !== 'UnknownError' ? shape.message : undefined;
  const detail = message ?? (status === undefined ? String(err) : `HTTP ${status}`);
  const what = `${operation} in bucket ${where.bucket} at ${where.endpoint}`;
  if (refused) return new S3CallError(`S3 refused to ${what}: ${code === undefined ? detail : `${code}: ${detail}`}`, BACKUP_REASONS.accessDenied, code, err);
  if (code === 'NoSuchBucket') return new S3CallError(`cannot ${what}: the bucket does not exist`, BACKUP_REASONS.destinationUnavailable, code, err);
  return new S3CallError(`cannot ${what}: ${code === undefined ? '' : `${code}: `}${detail}`, BACKUP_REASONS.destinationUnavailable, code, err);
}
