import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { apiVersionOf } from '../client/resource-type.ts';
import { enqueueControllerOwner, groupOf, isControlledBy } from './handler.ts';

const owner = { group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisReplication' };

function owned(refs: NonNullable<KubernetesObject['metadata']>['ownerReferences']): KubernetesObject {
  return { metadata: { name: 'rr-0', namespace: 'team-a', ...(refs && { ownerReferences: refs }) } };
}

describe('enqueueControllerOwner', () => {
  it('maps an owned object to its controlling owner in the same namespace', () => {
    const object = owned([
      { apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', name: 'cache', uid: 'u1', controller: true },
    ]);
    expect(enqueueControllerOwner(owner)(object)).toEqual([{ namespace: 'team-a', name: 'cache' }]);
  });

  it('matches the owner in any served version', () => {
    const object = owned([{ apiVersion: 'redis.domain-operators.io/v1', kind: 'RedisReplication', name: 'cache', uid: 'u1', controller: true }]);
    expect(enqueueControllerOwner(owner)(object)).toEqual([{ namespace: 'team-a', name: 'cache' }]);
  });

  it('ignores non-controller references, other kinds and other groups', () => {
    expect(enqueueControllerOwner(owner)(owned([{ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', name: 'c', uid: 'u' }]))).toEqual([]);
    expect(enqueueControllerOwner(owner)(owned([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'c', uid: 'u', controller: true }]))).toEqual([]);
    expect(enqueueControllerOwner(owner)(owned([{ apiVersion: 'other.io/v1alpha1', kind: 'RedisReplication', name: 'c', uid: 'u', controller: true }]))).toEqual([]);
    expect(enqueueControllerOwner(owner)(owned(undefined))).toEqual([]);
  });

  it('handles the core group', () => {
    expect(apiVersionOf({ group: '', version: 'v1', kind: 'Secret' })).toBe('v1');
    expect(apiVersionOf(owner)).toBe('redis.domain-operators.io/v1alpha1');
    expect(groupOf('v1')).toBe('');
    expect(groupOf('apps/v1')).toBe('apps');
  });
});

describe('isControlledBy', () => {
  const ref = { apiVersion: 'kafka.domain-operators.io/v1alpha1', kind: 'KafkaUser', name: 'alice', uid: 'u-1' };

  it('is true only for the controller reference with that UID', () => {
    expect(isControlledBy(owned([{ ...ref, controller: true }]), 'u-1')).toBe(true);
    expect(isControlledBy(owned([{ ...ref, controller: true }]), 'u-2')).toBe(false);
    expect(isControlledBy(owned([ref]), 'u-1')).toBe(false); // an owner, not the controller
    expect(isControlledBy(owned(undefined), 'u-1')).toBe(false);
  });

  it('never matches an empty UID', () => {
    expect(isControlledBy(owned([{ ...ref, uid: '', controller: true }]), '')).toBe(false);
  });
});
