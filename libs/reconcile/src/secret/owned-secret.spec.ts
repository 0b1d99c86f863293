import { describe, expect, it } from 'vitest';
import { isControlledBy } from '../controller/handler.ts';
import { credentialsSecretName, MANAGED_BY_LABEL, ownedSecret, ownedSecretScope } from './owned-secret.ts';

const userType = { group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisUser' };
const owner = { metadata: { name: 'app', namespace: 'team-a', uid: 'u-1' } };

describe('generated Secrets', () => {
  it('are named <name>-<system>-credentials, as every operator has named them', () => {
    expect(credentialsSecretName('app', 'kafka')).toBe('app-kafka-credentials');
    expect(credentialsSecretName('app', 'opensearch')).toBe('app-opensearch-credentials');
    expect(credentialsSecretName('app', 'redis')).toBe('app-redis-credentials');
  });

  it('live in the owner namespace, are controlled by the owner and hold the values as stringData', () => {
    const secret = ownedSecret({
      ownerType: userType,
      owner,
      name: 'app-redis-credentials',
      managedBy: 'redis-operator',
      labels: { 'example.io/user': 'app', 'app.kubernetes.io/managed-by': 'someone-else' },
      stringData: { username: 'app', password: 'pw' },
    });
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: 'app-redis-credentials',
        namespace: 'team-a',
        labels: { 'example.io/user': 'app', 'app.kubernetes.io/managed-by': 'redis-operator' },
        ownerReferences: [{ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisUser', name: 'app', uid: 'u-1', controller: true, blockOwnerDeletion: true }],
      },
      stringData: { username: 'app', password: 'pw' },
    });
    expect(isControlledBy(secret, 'u-1')).toBe(true);
    expect(isControlledBy(secret, 'u-2')).toBe(false);
  });
});

describe('the Secret informer scope', () => {
  it('selects the managed-by label that ownedSecret sets', () => {
    expect(MANAGED_BY_LABEL).toBe('app.kubernetes.io/managed-by');
    expect(ownedSecretScope('kafka-operator')).toEqual({ labelSelector: 'app.kubernetes.io/managed-by=kafka-operator' });
  });
});
