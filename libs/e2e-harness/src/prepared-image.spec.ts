import { describe, expect, it } from 'vitest';
import { preparedImage, preparedImageVariable, recordPreparedImage } from './prepared-image.ts';

const digest = `sha256:${'ab'.repeat(32)}`;

describe('prepared image', () => {
  it('hands the digest from the setup to the test files through one variable per system', () => {
    const env: NodeJS.ProcessEnv = {};
    recordPreparedImage('kafka', digest, env);
    expect(env).toEqual({ DOMAIN_OPERATORS_E2E_IMAGE_DIGEST_KAFKA: digest });
    expect(preparedImage('kafka', env)).toBe(digest);
    expect(preparedImage('redis', env)).toBeUndefined();
  });

  it('ignores a value that is not a manifest digest', () => {
    expect(preparedImage('redis', { [preparedImageVariable('redis')]: 'latest' })).toBeUndefined();
    expect(preparedImage('redis', { [preparedImageVariable('redis')]: '' })).toBeUndefined();
  });
});
