import { describe, expect, it } from 'vitest';
import type { AclBinding } from './admin.ts';
import type { KafkaAclRule } from '../api/v1alpha1/index.ts';
import {
  desiredAclBindings,
  desiredClientIdQuotas,
  desiredQuotas,
  newFingerprintSalt,
  passwordFingerprint,
  planAcls,
  planClientIdQuotas,
  planQuotas,
  planScram,
  principalOf,
  scramMechanismOf,
} from './user-plan.ts';

const user = 'team-a.app';
const me = principalOf(user);

function binding(overrides: Partial<AclBinding> = {}): AclBinding {
  return {
    resourceType: 'topic',
    resourceName: 'team-a.orders',
    patternType: 'literal',
    principal: me,
    host: '*',
    operation: 'Read',
    permission: 'allow',
    ...overrides,
  };
}

describe('desiredAclBindings', () => {
  it('expands operations, carries the defaulted host, permission and pattern type, names the cluster kafka-cluster', () => {
    const bindings = desiredAclBindings(user, [
      { resource: { type: 'topic', name: 'team-a.orders', patternType: 'literal' }, operations: ['Read', 'Write'], host: '*', permission: 'allow' },
      { resource: { type: 'group', name: 'team-a.', patternType: 'prefixed' }, operations: ['Read'], host: '10.0.0.1', permission: 'deny' },
      { resource: { type: 'cluster', name: 'ignored', patternType: 'literal' }, operations: ['IdempotentWrite'], host: '*', permission: 'allow' },
    ]);
    expect(bindings).toEqual([
      binding(),
      binding({ operation: 'Write' }),
      binding({ resourceType: 'group', resourceName: 'team-a.', patternType: 'prefixed', host: '10.0.0.1', permission: 'deny' }),
      binding({ resourceType: 'cluster', resourceName: 'kafka-cluster', operation: 'IdempotentWrite' }),
    ]);
  });
  it('drops duplicates', () => {
    const rule: KafkaAclRule = { resource: { type: 'topic', name: 'team-a.x', patternType: 'literal' }, operations: ['Read', 'Read'], host: '*', permission: 'allow' };
    expect(desiredAclBindings(user, [rule, rule])).toHaveLength(1);
  });
});

describe('planAcls', () => {
  it('creates missing and deletes extra bindings of the user', () => {
    const desired = [binding(), binding({ operation: 'Write' })];
    const observed = [binding(), binding({ operation: 'Describe' })];
    expect(planAcls(user, desired, observed)).toEqual({ create: [binding({ operation: 'Write' })], delete: [binding({ operation: 'Describe' })] });
  });
  it('never deletes a binding of another principal, even one that looks alike', () => {
    const other = binding({ principal: 'User:team-a.app2' });
    const plan = planAcls(user, [], [other, binding({ principal: 'User:team-b.app' }), binding()]);
    expect(plan.delete).toEqual([binding()]);
  });
  it('treats a change of host or permission as delete + create', () => {
    const plan = planAcls(user, [binding({ permission: 'deny' })], [binding()]);
    expect(plan).toEqual({ create: [binding({ permission: 'deny' })], delete: [binding()] });
  });
  it('is empty when in sync', () => {
    expect(planAcls(user, [binding()], [binding()])).toEqual({ create: [], delete: [] });
  });
});

describe('quotas', () => {
  it('maps spec fields to Kafka keys', () => {
    expect(desiredQuotas({ producerByteRate: 1024, requestPercentage: 50 })).toEqual({ producer_byte_rate: 1024, request_percentage: 50 });
    expect(desiredQuotas(undefined)).toEqual({});
  });
  it('sets new and changed keys and removes dropped ones', () => {
    expect(planQuotas({ producer_byte_rate: 2048, consumer_byte_rate: 10 }, { producer_byte_rate: 1024, controller_mutation_rate: 5 })).toEqual({
      set: { producer_byte_rate: 2048, consumer_byte_rate: 10 },
      remove: ['controller_mutation_rate'],
    });
  });
  it('is null when in sync', () => {
    expect(planQuotas({ producer_byte_rate: 1 }, { producer_byte_rate: 1 })).toBeNull();
    expect(planQuotas({}, {})).toBeNull();
  });
});

describe('per-client-id quotas', () => {
  it('maps each entry to Kafka keys by client id', () => {
    expect(desiredClientIdQuotas([{ clientId: 'batch', producerByteRate: 512 }, { clientId: 'ui', requestPercentage: 5 }])).toEqual(
      new Map([
        ['batch', { producer_byte_rate: 512 }],
        ['ui', { request_percentage: 5 }],
      ]),
    );
    expect(desiredClientIdQuotas(undefined).size).toBe(0);
  });
  it('changes the entities that differ, removes every key of a client id no longer desired, and leaves the others out', () => {
    const desired = new Map([['batch', { producer_byte_rate: 1024 }], ['same', { consumer_byte_rate: 1 }]]);
    const observed = new Map([['batch', { producer_byte_rate: 512 }], ['same', { consumer_byte_rate: 1 }], ['gone', { request_percentage: 5, consumer_byte_rate: 9 }]]);
    expect(planClientIdQuotas(desired, observed)).toEqual(
      new Map([
        ['batch', { set: { producer_byte_rate: 1024 }, remove: [] }],
        ['gone', { set: {}, remove: ['consumer_byte_rate', 'request_percentage'] }],
      ]),
    );
    expect(planClientIdQuotas(desired, desired).size).toBe(0);
  });
});

describe('SCRAM', () => {
  const salt = 'c2FsdHNhbHRzYWx0';
  const applied = { mechanism: 'SCRAM-SHA-512' as const, salt, fingerprint: passwordFingerprint('pw-1', salt) };

  it('fingerprints deterministically per salt, without the password in it', () => {
    const fp = passwordFingerprint('pw-1', salt);
    expect(fp).toMatch(/^hmac-sha256:[A-Za-z0-9_-]{43}$/);
    expect(fp).toBe(passwordFingerprint('pw-1', salt));
    expect(fp).not.toBe(passwordFingerprint('pw-2', salt));
    expect(fp).not.toBe(passwordFingerprint('pw-1', newFingerprintSalt()));
    expect(fp).not.toContain('pw-1');
  });
  it('maps the spec type to the mechanism', () => {
    expect(scramMechanismOf('scram-sha-512')).toBe('SCRAM-SHA-512');
    expect(scramMechanismOf('scram-sha-256')).toBe('SCRAM-SHA-256');
  });
  it('applies when Kafka has no credential, even if one was recorded', () => {
    expect(planScram('SCRAM-SHA-512', 'pw-1', [], applied)).toMatchObject({ upsert: true, delete: [] });
  });
  it('applies when nothing is recorded', () => {
    expect(planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512'], undefined).upsert).toBe(true);
  });
  it('does nothing when the fingerprint matches', () => {
    expect(planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512'], applied)).toEqual({ upsert: false, mechanism: 'SCRAM-SHA-512', delete: [], why: 'up to date' });
  });
  it('applies again on another cluster than the one recorded, or when no cluster is recorded, though the fingerprint matches', () => {
    const onCluster = { ...applied, clusterId: 'c1' };
    expect(planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512'], onCluster, [], 'c1')).toMatchObject({ upsert: false, why: 'up to date' });
    expect(planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512'], onCluster, [], 'c2')).toMatchObject({ upsert: true, why: 'it was applied on cluster c1, this is cluster c2' });
    expect(planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512'], applied, [], 'c2')).toMatchObject({ upsert: true, why: 'no cluster is recorded for the applied credential (this is cluster c2)' });
    // Without a current cluster id (a caller that does not know it), the record is judged by its fingerprint alone.
    expect(planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512'], onCluster).upsert).toBe(false);
  });
  it('applies a rotated password', () => {
    expect(planScram('SCRAM-SHA-512', 'pw-2', ['SCRAM-SHA-512'], applied)).toMatchObject({ upsert: true, why: 'the password changed' });
  });
  it('on a mechanism change, writes the new one and deletes only the one it applied', () => {
    expect(planScram('SCRAM-SHA-256', 'pw-1', ['SCRAM-SHA-512', 'SCRAM-SHA-256'], applied)).toMatchObject({ upsert: true, delete: ['SCRAM-SHA-512'] });
    const notMine = planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512', 'SCRAM-SHA-256'], applied);
    expect(notMine.delete).toEqual([]);
  });
  it('also deletes a mechanism recorded ahead of a write that was never confirmed, and only when Kafka has it', () => {
    // A write of SCRAM-SHA-256 recorded ahead, then a crash before `applied` said so; the spec went back to 512.
    expect(planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512', 'SCRAM-SHA-256'], applied, ['SCRAM-SHA-512', 'SCRAM-SHA-256'])).toMatchObject({ upsert: false, delete: ['SCRAM-SHA-256'] });
    expect(planScram('SCRAM-SHA-512', 'pw-1', ['SCRAM-SHA-512'], applied, ['SCRAM-SHA-256']).delete).toEqual([]);
    expect(planScram('SCRAM-SHA-256', 'pw-1', ['SCRAM-SHA-512'], undefined, ['SCRAM-SHA-512'])).toMatchObject({ upsert: true, delete: ['SCRAM-SHA-512'] });
  });
});
