import { describe, expect, it } from 'vitest';
import { isControlledBy } from '../controller/handler.ts';
import { controllerReference } from './owner-reference.ts';

describe('controllerReference', () => {
  it('names the owner by the given kind and marks it as the controller', () => {
    const owner = { metadata: { name: 'app', namespace: 'team-a', uid: 'u-1' } };
    const ref = controllerReference({ group: 'kafka.domain-operators.io', version: 'v1alpha1', kind: 'KafkaUser' }, owner);
    expect(ref).toEqual({ apiVersion: 'kafka.domain-operators.io/v1alpha1', kind: 'KafkaUser', name: 'app', uid: 'u-1', controller: true, blockOwnerDeletion: true });
    expect(isControlledBy({ metadata: { ownerReferences: [ref] } }, 'u-1')).toBe(true);
  });

  it('uses the core group form of apiVersion', () => {
    expect(controllerReference({ group: '', version: 'v1', kind: 'ConfigMap' }, { metadata: { name: 'c', uid: 'u' } }).apiVersion).toBe('v1');
  });
});
