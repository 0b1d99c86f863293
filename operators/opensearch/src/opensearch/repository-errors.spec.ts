import { TerminalError } from '@domain-operators/reconcile';
import type { ApiResponse } from '@opensearch-project/opensearch';
import { errors } from '@opensearch-project/opensearch';
import { describe, expect, it } from 'vitest';
import { classifyError, OpenSearchError } from './errors.ts';
import { OpenSearchReasons } from './reasons.ts';
import { registrationFailure, RepositoryError, verificationFailure } from './repository-errors.ts';

const refused = new OpenSearchError(OpenSearchReasons.unavailable, "register snapshot repository r: repository_exception: [r] location [/x] doesn't match any of the locations specified by path.repo", 500);
const unverified = new OpenSearchError(OpenSearchReasons.unavailable, 'verify snapshot repository r: repository_verification_exception: [r] [[n1, store location is not accessible]]', 500);
const unreachable = new OpenSearchError(OpenSearchReasons.unavailable, 'verify snapshot repository r: OpenSearch is unreachable (connect ECONNREFUSED)');
const busy = new OpenSearchError(OpenSearchReasons.unavailable, 'register snapshot repository r: HTTP 503', 503);

/** The client's error for an answer, as its transport builds it. */
function response(statusCode: number, body: unknown): InstanceType<typeof errors.ResponseError> {
  return new errors.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} } as unknown as ApiResponse);
}

// Answers of OpenSearch 2.19.4 (testenv's node), verbatim: the useful part is under caused_by.
const OUTSIDE_PATH_REPO = {
  error: {
    root_cause: [{ type: 'repository_exception', reason: "[probe2] location [/tmp/outside-probe] doesn't match any of the locations specified by path.repo" }],
    type: 'repository_exception',
    reason: '[probe2] failed to create repository',
    caused_by: { type: 'repository_exception', reason: "[probe2] location [/tmp/outside-probe] doesn't match any of the locations specified by path.repo" },
  },
  status: 500,
};
const LOCATION_IS_A_FILE = {
  error: {
    root_cause: [{ type: 'repository_exception', reason: '[probe6] cannot create blob store' }],
    type: 'repository_verification_exception',
    reason: '[probe6] path  is not accessible on cluster-manager node',
    caused_by: { type: 'repository_exception', reason: '[probe6] cannot create blob store', caused_by: { type: 'file_already_exists_exception', reason: '/snapshots/afile' } },
  },
  status: 500,
};

describe('repository failures', () => {
  it("keep OpenSearch's underlying reasons from the real node's answers", () => {
    const put = registrationFailure(classifyError(response(500, OUTSIDE_PATH_REPO), { operation: 'register snapshot repository probe2' }));
    expect(put).toMatchObject({
      reason: 'RepositoryRefused',
      message:
        "register snapshot repository probe2: repository_exception: [probe2] failed to create repository; caused by repository_exception: [probe2] location [/tmp/outside-probe] doesn't match any of the locations specified by path.repo",
    });
    const verify = verificationFailure(classifyError(response(500, LOCATION_IS_A_FILE), { operation: 'verify snapshot repository probe6' }));
    expect(verify).toMatchObject({
      reason: 'RepositoryVerificationFailed',
      message:
        'verify snapshot repository probe6: repository_verification_exception: [probe6] path  is not accessible on cluster-manager node; caused by repository_exception: [probe6] cannot create blob store; caused by file_already_exists_exception: /snapshots/afile',
    });
  });

  it('name a refused registration RepositoryRefused and keep OpenSearch message', () => {
    const err = registrationFailure(refused);
    expect(err).toBeInstanceOf(RepositoryError);
    expect(err).toMatchObject({ reason: 'RepositoryRefused', message: refused.message, cause: refused });
  });

  it('name a failed verification RepositoryVerificationFailed and keep OpenSearch message', () => {
    expect(verificationFailure(unverified)).toMatchObject({ reason: 'RepositoryVerificationFailed', message: unverified.message });
  });

  it('leave outages, other refusals and a missing repository as they were', () => {
    const terminal = new TerminalError('register snapshot repository r: illegal_argument_exception: bad', 'InvalidSpec');
    const missing = new OpenSearchError(OpenSearchReasons.notFound, 'verify snapshot repository r: repository_missing_exception: [r] missing', 404);
    for (const err of [unreachable, busy, terminal]) expect(registrationFailure(err)).toBe(err);
    for (const err of [unreachable, busy, missing]) expect(verificationFailure(err)).toBe(err);
  });
});
