import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { caSecretRef, loginSecretRef } from './secret-ref-schema.ts';

describe('loginSecretRef', () => {
  it('defaults the keys to username and password and needs a namespace and a name', () => {
    const schema = loginSecretRef('the login');
    expect(Value.Default(schema, { namespace: 'ops', name: 'login' })).toEqual({ namespace: 'ops', name: 'login', usernameKey: 'username', passwordKey: 'password' });
    expect(Value.Check(schema, { name: 'login', usernameKey: 'u', passwordKey: 'p' })).toBe(false);
    expect(schema.description).toBe('the login');
  });
});

describe('caSecretRef', () => {
  it('defaults the key to ca.crt and refuses an empty name', () => {
    const schema = caSecretRef('the CA');
    expect(Value.Default(schema, { namespace: 'ops', name: 'ca' })).toEqual({ namespace: 'ops', name: 'ca', key: 'ca.crt' });
    expect(Value.Check(schema, { namespace: 'ops', name: '', key: 'ca.crt' })).toBe(false);
  });
});
