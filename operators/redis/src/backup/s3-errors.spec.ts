import { describe, expect, it } from 'vitest';
import { classifyS3Error } from './s3-errors.ts';

const where = { endpoint: 'http://10.244.0.1:19900', bucket: 'backups' };

function sdkError(name: string, status: number, message: string): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });
}

describe('classifyS3Error', () => {
  it('reads refused credentials as AccessDenied, whatever code the server uses', () => {
    for (const [name, status] of [['AccessDenied', 403], ['SignatureDoesNotMatch', 403], ['InvalidAccessKeyId', 403], ['XAdminUserNotFound', 404], ['Forbidden', 403]] as const) {
      const error = classifyS3Error(sdkError(name, status, 'refused'), 'upload k', where);
      expect(error.reason, name).toBe('AccessDenied');
      expect(error.message).toBe(`S3 refused to upload k in bucket backups at http://10.244.0.1:19900: ${name}: refused`);
    }
  });

  it('says the HTTP status when the answer had no body to name an error (HEAD)', () => {
    expect(classifyS3Error(sdkError('Unknown', 403, 'UnknownError'), 'read k', where).message).toBe('S3 refused to read k in bucket backups at http://10.244.0.1:19900: HTTP 403');
  });

  it('reads a missing bucket and an unreachable endpoint as DestinationUnavailable', () => {
    expect(classifyS3Error(sdkError('NoSuchBucket', 404, 'The specified bucket does not exist'), 'upload k', where).message).toBe(
      'cannot upload k in bucket backups at http://10.244.0.1:19900: the bucket does not exist',
    );
    const refused = classifyS3Error(Object.assign(new Error('connect ECONNREFUSED 10.244.0.1:19900'), { code: 'ECONNREFUSED' }), 'upload k', where);
    expect([refused.reason, refused.code, refused.message]).toEqual(['DestinationUnavailable', 'ECONNREFUSED', 'cannot upload k in bucket backups at http://10.244.0.1:19900: ECONNREFUSED: connect ECONNREFUSED 10.244.0.1:19900']);
    expect(classifyS3Error(sdkError('InternalError', 500, 'We encountered an internal error'), 'upload k', where).reason).toBe('DestinationUnavailable');
  });
});
