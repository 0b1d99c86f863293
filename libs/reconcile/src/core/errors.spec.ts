import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  isAlreadyExists,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isNamespaceTerminating,
  isNotFound,
  isResourceVersionTooLarge,
  isRetryable,
  isTerminalError,
  KubeApiError,
  TerminalError,
} from './errors.ts';
import { apiErrorFrom } from '../client/rest.ts';

describe('Kubernetes error guards', () => {
  it('recognise our KubeApiError by status and reason', () => {
    expect(isNotFound(new KubeApiError('x', 404, 'NotFound'))).toBe(true);
    expect(isConflict(new KubeApiError('x', 409, 'Conflict'))).toBe(true);
    expect(isConflict(new KubeApiError('x', 409, 'AlreadyExists'))).toBe(false);
    expect(isAlreadyExists(new KubeApiError('x', 409, 'AlreadyExists'))).toBe(true);
    expect(isGone(new KubeApiError('x', 410, 'Expired'))).toBe(true);
    expect(isForbidden(new KubeApiError('x', 403, 'Forbidden'))).toBe(true);
    expect(isInvalid(new KubeApiError('x', 422, 'Invalid'))).toBe(true);
    expect(isRetryable(new KubeApiError('x', 429, 'TooManyRequests'))).toBe(true);
    expect(isRetryable(new KubeApiError('x', 503, 'ServiceUnavailable'))).toBe(true);
    expect(isRetryable(new KubeApiError('x', 404, 'NotFound'))).toBe(false);
  });

  it("recognise client-node's ApiException, reading the reason from its body", () => {
    const exists = new ApiException(409, 'conflict', JSON.stringify({ kind: 'Status', reason: 'AlreadyExists' }), {});
    expect(isAlreadyExists(exists)).toBe(true);
    expect(isConflict(exists)).toBe(false);
    expect(isNotFound(new ApiException(404, 'nf', '{}', {}))).toBe(true);
  });

  it('tell a namespace being deleted from a denied permission, by the Status cause', () => {
    const terminating = apiErrorFrom(
      403,
      JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'unable to create new content in namespace ns because it is being terminated', details: { causes: [{ type: 'NamespaceTerminating' }] } }),
      'POST events',
    );
    expect(terminating.causes).toEqual(['NamespaceTerminating']);
    expect(isNamespaceTerminating(terminating)).toBe(true);
    expect(isForbidden(terminating)).toBe(true);
    const denied = apiErrorFrom(403, JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'cannot create resource "events"' }), 'POST events');
    expect(denied.causes).toEqual([]);
    expect(isNamespaceTerminating(denied)).toBe(false);
    expect(apiErrorFrom(500, 'not json', 'GET x').causes).toEqual([]);
  });

  it('tell a resourceVersion newer than the apiserver cache from another timeout, by the Status cause', () => {
    const tooLarge = apiErrorFrom(
      504,
      JSON.stringify({ kind: 'Status', reason: 'Timeout', message: 'Too large resource version: 99, current: 42', details: { causes: [{ type: 'ResourceVersionTooLarge', message: 'Too large resource version' }] } }),
      'GET configmaps',
    );
    expect(isResourceVersionTooLarge(tooLarge)).toBe(true);
    expect(isResourceVersionTooLarge(apiErrorFrom(504, JSON.stringify({ kind: 'Status', reason: 'Timeout' }), 'GET configmaps'))).toBe(false);
    expect(isResourceVersionTooLarge(new KubeApiError('x', 410, 'Expired', { causes: ['ResourceVersionTooLarge'] }))).toBe(false);
  });

  it('say no to anything else', () => {
    for (const err of [new Error('boom'), 'text', undefined, { code: 404 }]) {
      expect(isNotFound(err)).toBe(false);
      expect(isRetryable(err)).toBe(false);
    }
  });

  it('mark terminal errors with their reason', () => {
    const err = new TerminalError('prefix team-b. is not yours', 'TenancyViolation');
    expect(isTerminalError(err)).toBe(true);
    expect(err.reason).toBe('TenancyViolation');
    expect(isTerminalError(new Error('x'))).toBe(false);
  });
});
