import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '@opensearch-project/opensearch';
import { errors } from '@opensearch-project/opensearch';
import { classifyError, healthError, isOpenSearchError, OpenSearchError } from './errors.ts';

// The client's own error classes, built as its transport builds them from an answer.
function response(statusCode: number, body: unknown): InstanceType<typeof errors.ResponseError> {
  return new errors.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} } as unknown as ApiResponse);
}

const call = { operation: 'put mapping of index team-a-logs', badRequestReason: 'MappingConflict' };

describe('classifyError', () => {
  it.each([
    [401, 'AuthenticationFailed'],
    [403, 'NotAuthorized'],
    [404, 'NotFound'],
    [429, 'OpenSearchUnavailable'],
    [503, 'OpenSearchUnavailable'],
    [409, 'OpenSearchError'],
  ])('maps HTTP %i to a retryable %s', (status, reason) => {
    const error = classifyError(response(status, { error: { type: 't', reason: 'r' } }), call);
    expect(isOpenSearchError(error)).toBe(true);
    expect(error).toMatchObject({ reason, status });
  });

  it('maps a 400 to a TerminalError with the call’s reason and OpenSearch’s own explanation', () => {
    const error = classifyError(response(400, { error: { type: 'illegal_argument_exception', reason: 'mapper [a] cannot be changed' }, status: 400 }), call);
    expect(error).toMatchObject({ name: 'TerminalError', reason: 'MappingConflict' });
    expect(error.message).toBe('put mapping of index team-a-logs: illegal_argument_exception: mapper [a] cannot be changed');
    expect(classifyError(response(400, { status: 'error', reason: 'Weak password' }), { operation: 'put user x' })).toMatchObject({ reason: 'InvalidSpec', message: 'put user x: Weak password' });
  });

  it('keeps a 400 about a component template that does not exist yet, or is still in use, retryable (DependencyNotReady)', () => {
    const missing = {
      error: {
        type: 'invalid_index_template_exception',
        reason: 'index_template [team-a-logs] invalid, cause [index template [team-a-logs] specifies component templates [team-a-base] that do not exist]',
      },
      status: 400,
    };
    const inUse = { error: { type: 'illegal_argument_exception', reason: 'component templates [team-a-base] cannot be removed as they are still in use by index templates [team-a-logs]' }, status: 400 };
    for (const body of [missing, inUse]) {
      const error = classifyError(response(400, body), { operation: 'put index template team-a-logs', badRequestReason: 'InvalidTemplate' });
      expect(isOpenSearchError(error, 'DependencyNotReady')).toBe(true);
      expect(error.message).toContain('team-a-base');
    }
    // A data stream whose data-stream template is not there yet.
    const noTemplate = { error: { type: 'illegal_argument_exception', reason: 'no matching index template found for data stream [team-a-app]' }, status: 400 };
    expect(isOpenSearchError(classifyError(response(400, noTemplate), { operation: 'create data stream team-a-app' }), 'DependencyNotReady')).toBe(true);
    // A data-stream template deleted while its data stream still exists.
    const streamInUse = { error: { type: 'illegal_argument_exception', reason: 'unable to remove composable templates [team-a-app] as they are in use by a data streams [team-a-app-logs]' }, status: 400 };
    expect(isOpenSearchError(classifyError(response(400, streamInUse), { operation: 'delete index template team-a-app' }), 'DependencyNotReady')).toBe(true);
    // Any other invalid template stays terminal.
    const invalid = { error: { type: 'invalid_index_template_exception', reason: 'index_template [x] invalid, cause [Validation Failed: 1: index_patterns must not contain a space;]' } };
    expect(classifyError(response(400, invalid), { operation: 'put index template x', badRequestReason: 'InvalidTemplate' })).toMatchObject({ name: 'TerminalError', reason: 'InvalidTemplate' });
  });

  it('keeps "already exists" retryable, and a cluster too busy to process the change is OpenSearchUnavailable', () => {
    expect(classifyError(response(400, { error: { type: 'resource_already_exists_exception', reason: 'exists' } }), call)).toMatchObject({ reason: 'AlreadyExists' });
    expect(classifyError(response(400, { error: { type: 'process_cluster_event_timeout_exception', reason: 'failed to process cluster event within 30s' } }), call)).toMatchObject({
      reason: 'OpenSearchUnavailable',
    });
  });

  it('maps connection failures to OpenSearchUnavailable and removes credentials from URLs', () => {
    const error = classifyError(new errors.ConnectionError('connect ECONNREFUSED https://u:secret@host:9200'), call);
    expect(error).toMatchObject({ reason: 'OpenSearchUnavailable' });
    expect(error.message).not.toContain('secret');
    expect(classifyError(new errors.NoLivingConnectionsError('none', {} as ApiResponse), call)).toMatchObject({ reason: 'OpenSearchUnavailable' });
    expect(classifyError(new errors.TimeoutError('timeout', {} as ApiResponse), call)).toMatchObject({ reason: 'OpenSearchUnavailable' });
  });

  it('passes classified errors and aborts through', () => {
    const classified = new OpenSearchError('NotAuthorized', 'x');
    expect(classifyError(classified, call)).toBe(classified);
    const aborted = new errors.RequestAbortedError('aborted');
    expect(classifyError(aborted, call)).toBe(aborted);
  });
});

describe('healthError', () => {
  it('makes red health OpenSearchUnavailable with the health in the message', () => {
    expect(healthError('red', 'prod')).toMatchObject({ reason: 'OpenSearchUnavailable', message: expect.stringContaining('red') as unknown });
    expect(healthError('yellow', 'prod')).toBeUndefined();
    expect(healthError('green', 'prod')).toBeUndefined();
  });
});
