import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { SecretSource } from '../secret/secret-source.ts';
import { isDependencyError } from './dependency-error.ts';
import { requiredSecret, requiredSecretValue } from './required-secret.ts';

const login: V1Secret = { metadata: { namespace: 'ops', name: 'login' }, data: { username: Buffer.from('admin').toString('base64'), password: Buffer.from('s3cret!').toString('base64'), empty: '' } };
const source = (secrets: readonly V1Secret[]): SecretSource => ({
  get: (namespace, name) => Promise.resolve(secrets.find((s) => s.metadata?.namespace === namespace && s.metadata.name === name)),
});

describe('requiredSecret', () => {
  it('reads the Secret by namespace and name', async () => {
    await expect(requiredSecret(source([login]), { namespace: 'ops', name: 'login' })).resolves.toBe(login);
  });

  it('rejects a missing Secret with a retried SecretNotFound that names it and whose it is', async () => {
    const err: unknown = await requiredSecret(source([]), { namespace: 'ops', name: 'login' }, 'KafkaConnection "main"').catch((e: unknown) => e);
    expect(isDependencyError(err, 'SecretNotFound')).toBe(true);
    expect((err as Error).message).toBe('Secret ops/login of KafkaConnection "main" does not exist');
  });

  it('passes the source’s own errors through', async () => {
    const failing: SecretSource = { get: () => Promise.reject(new Error('apiserver down')) };
    await expect(requiredSecret(failing, { namespace: 'ops', name: 'login' })).rejects.toThrow('apiserver down');
  });
});

describe('requiredSecretValue', () => {
  it('decodes the value of a key', () => {
    expect(requiredSecretValue(login, 'password')).toBe('s3cret!');
  });

  it('throws a retried SecretNotFound for an absent key or an empty value, never with a value in the message', () => {
    for (const key of ['missing', 'empty']) {
      let err: unknown;
      try {
        requiredSecretValue(login, key, 'OpenSearchConnection "search"');
      } catch (e) {
        err = e;
      }
      expect(isDependencyError(err, 'SecretNotFound')).toBe(true);
      expect((err as Error).message).toBe(`Secret ops/login of OpenSearchConnection "search" has no key "${key}" (or it is empty)`);
      expect((err as Error).message).not.toContain('s3cret');
    }
  });
});
