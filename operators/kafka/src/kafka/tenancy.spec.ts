import { isTerminalError } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import {
  checkAclRules,
  checkPrefixTemplate,
  renderNamePrefix,
  resolveKafkaName,
  tenancyError,
  type TenancyResult,
} from './tenancy.ts';
import type { KafkaAclRule } from '../api/v1alpha1/index.ts';

const tenancy = { namePrefix: '{namespace}.' };
const teamA = renderNamePrefix(tenancy, 'team-a');

function messageOf<T>(result: TenancyResult<T>): string {
  if (result.ok) throw new Error('expected a violation');
  expect(result.violation.reason).toBe('TenancyViolation');
  return result.violation.message;
}

function topicRule(name: string, patternType: 'literal' | 'prefixed' = 'literal'): KafkaAclRule {
  return { resource: { type: 'topic', name, patternType }, operations: ['Read', 'Write'], host: '*', permission: 'allow' };
}

describe('renderNamePrefix', () => {
  it('replaces {namespace}', () => {
    expect(teamA).toBe('team-a.');
  });
  it('is empty without a prefix rule', () => {
    expect(renderNamePrefix(undefined, 'team-a')).toBe('');
    expect(renderNamePrefix({}, 'team-a')).toBe('');
  });
});

describe('checkPrefixTemplate', () => {
  it('accepts a separator that cannot occur in namespace names', () => {
    expect(checkPrefixTemplate('{namespace}.').ok).toBe(true);
    expect(checkPrefixTemplate('tenants.{namespace}_').ok).toBe(true);
  });
  it('refuses "{namespace}-": team-a- would cover team-a-b', () => {
    expect(messageOf(checkPrefixTemplate('{namespace}-'))).toContain('team-a- covers team-a-b');
  });
  it('refuses a template without or with twice the placeholder, or ending with it', () => {
    messageOf(checkPrefixTemplate('fixed.'));
    messageOf(checkPrefixTemplate('{namespace}.{namespace}.'));
    messageOf(checkPrefixTemplate('x.{namespace}'));
  });
});

describe('resolveKafkaName', () => {
  it('defaults to prefix + metadata.name: KafkaTopic orders in team-a is team-a.orders', () => {
    expect(resolveKafkaName('topicName', undefined, 'orders', teamA)).toEqual({ ok: true, value: 'team-a.orders' });
  });
  it('defaults to metadata.name without a prefix', () => {
    expect(resolveKafkaName('topicName', undefined, 'orders', '')).toEqual({ ok: true, value: 'orders' });
  });
  it('accepts an explicit name inside the prefix', () => {
    expect(resolveKafkaName('topicName', 'team-a.billing.v2', 'x', teamA)).toEqual({ ok: true, value: 'team-a.billing.v2' });
  });
  it("refuses team-b's topic from team-a", () => {
    expect(messageOf(resolveKafkaName('topicName', 'team-b.orders', 'x', teamA))).toBe(
      'topicName "team-b.orders" is outside this namespace\'s prefix: it must start with "team-a."',
    );
  });
  it('refuses "team-a" without the separator and "team-ab.x"', () => {
    messageOf(resolveKafkaName('username', 'team-a', 'x', teamA));
    messageOf(resolveKafkaName('username', 'team-ab.x', 'x', teamA));
  });
  it('refuses the bare prefix', () => {
    expect(messageOf(resolveKafkaName('username', 'team-a.', 'x', teamA))).toContain('only the prefix');
  });
});

describe('checkAclRules', () => {
  it('accepts literal and prefixed names inside the prefix', () => {
    const rules = [topicRule('team-a.orders'), topicRule('team-a.', 'prefixed'), topicRule('team-a.billing.', 'prefixed')];
    expect(checkAclRules(rules, teamA)).toEqual({ ok: true, value: rules });
  });
  it('accepts groups and transactional ids inside the prefix', () => {
    const rules: KafkaAclRule[] = [
      { resource: { type: 'group', name: 'team-a.', patternType: 'prefixed' }, operations: ['Read'], host: '*', permission: 'allow' },
      { resource: { type: 'transactionalId', name: 'team-a.tx', patternType: 'literal' }, operations: ['Write', 'Describe'], host: '*', permission: 'allow' },
    ];
    expect(checkAclRules(rules, teamA).ok).toBe(true);
  });
  it('refuses a literal "*" (every topic)', () => {
    expect(messageOf(checkAclRules([topicRule('*')], teamA))).toBe(
      'acls[0]: literal topic "*" ("*" means every resource of that type) is outside this namespace\'s prefix: it must start with "team-a."',
    );
  });
  it("refuses team-b's prefix", () => {
    expect(messageOf(checkAclRules([topicRule('team-a.ok'), topicRule('team-b.', 'prefixed')], teamA))).toContain('acls[1]: prefixed topic "team-b."');
  });
  it('refuses a prefixed "team-a" without the dot (it would match team-abc.…)', () => {
    messageOf(checkAclRules([topicRule('team-a', 'prefixed')], teamA));
  });
  it('refuses a literal "team-a" without the dot', () => {
    messageOf(checkAclRules([topicRule('team-a')], teamA));
  });
  it('refuses an empty prefixed pattern and another group', () => {
    messageOf(checkAclRules([topicRule('', 'prefixed')], teamA));
    messageOf(checkAclRules([{ resource: { type: 'group', name: 'team-b.consumers', patternType: 'literal' }, operations: ['Read'], host: '*', permission: 'allow' }], teamA));
  });
  it('refuses cluster-wide ALLOWs but accepts IdempotentWrite and any DENY', () => {
    const cluster = (operations: KafkaAclRule['operations'], permission: 'allow' | 'deny' = 'allow'): KafkaAclRule => ({
      resource: { type: 'cluster', name: 'kafka-cluster', patternType: 'literal' },
      operations,
      host: '*',
      permission,
    });
    expect(checkAclRules([cluster(['IdempotentWrite'])], teamA).ok).toBe(true);
    expect(checkAclRules([cluster(['Alter', 'Create'], 'deny')], teamA).ok).toBe(true);
    expect(messageOf(checkAclRules([cluster(['IdempotentWrite', 'Create'])], teamA))).toContain('allowing Create on the cluster');
    messageOf(checkAclRules([cluster(['All'])], teamA));
  });
  it('accepts anything without a prefix rule', () => {
    expect(checkAclRules([topicRule('*')], '').ok).toBe(true);
  });
});

describe('tenancyError', () => {
  it('is a TerminalError with reason TenancyViolation', () => {
    const err = tenancyError({ reason: 'TenancyViolation', message: 'nope' });
    expect(isTerminalError(err)).toBe(true);
    expect(err.reason).toBe('TenancyViolation');
    expect(err.message).toBe('nope');
  });
});
