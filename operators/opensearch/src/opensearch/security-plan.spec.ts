import { describe, expect, it } from 'vitest';
import type { ObservedRole, ObservedRoleMapping, ObservedUser } from './security-plan.ts';
import { compareRole, passwordFingerprint, planRoleMapping, planUser, releaseRoleMapping, roleBody } from './security-plan.ts';

const flags = { reserved: false, static: false, hidden: false };

describe('roleBody and compareRole', () => {
  const desired = roleBody({
    clusterPermissions: ['cluster_composite_ops_ro'],
    indexPermissions: [{ indexPatterns: ['team-a-logs*'], allowedActions: ['read', 'search'], fls: ['~secret'] }],
    tenantPermissions: [{ tenantPatterns: ['team-a-t'], allowedActions: ['kibana_all_read'] }],
  });

  it('builds the API body with empty lists filled in and no empty DLS', () => {
    expect(desired).toEqual({
      cluster_permissions: ['cluster_composite_ops_ro'],
      index_permissions: [{ index_patterns: ['team-a-logs*'], allowed_actions: ['read', 'search'], fls: ['~secret'], masked_fields: [] }],
      tenant_permissions: [{ tenant_patterns: ['team-a-t'], allowed_actions: ['kibana_all_read'] }],
    });
  });

  it('is up to date with the observed role regardless of list order and flags', () => {
    const observed: ObservedRole = {
      ...flags,
      cluster_permissions: ['cluster_composite_ops_ro'],
      index_permissions: [{ index_patterns: ['team-a-logs*'], allowed_actions: ['search', 'read'], fls: ['~secret'], masked_fields: [] }],
      tenant_permissions: [{ tenant_patterns: ['team-a-t'], allowed_actions: ['kibana_all_read'] }],
    };
    expect(compareRole(desired, observed)).toEqual({ upToDate: true, diff: [] });
  });

  it('reports a role changed by hand, or missing', () => {
    const observed: ObservedRole = { ...flags, cluster_permissions: ['cluster_all'], index_permissions: [], tenant_permissions: [] };
    expect(compareRole(desired, observed).diff).toEqual([
      'clusterPermissions: want [cluster_composite_ops_ro], have [cluster_all]',
      'indexPermissions: differ',
      'tenantPermissions: differ',
    ]);
    expect(compareRole(desired, undefined)).toEqual({ upToDate: false, diff: ['role: missing'] });
  });
});

describe('planRoleMapping', () => {
  const observed: ObservedRoleMapping = { ...flags, users: ['hand-added', 'team-a-old'], backend_roles: ['ldap-ops'], hosts: [], and_backend_roles: [], description: 'kept' };

  it('adds the binding’s entries and keeps everyone else’s', () => {
    const plan = planRoleMapping({ desired: { users: ['team-a-alice'], backendRoles: ['team-a-devs'] }, observed, applied: undefined });
    expect(plan.body).toEqual({ users: ['hand-added', 'team-a-old', 'team-a-alice'], backend_roles: ['ldap-ops', 'team-a-devs'], hosts: [], and_backend_roles: [], description: 'kept' });
    expect(plan.applied).toEqual({ users: ['team-a-alice'], backendRoles: ['team-a-devs'] });
    expect(plan.upToDate).toBe(false);
  });

  it('removes only the entries it added before and no longer wants', () => {
    const plan = planRoleMapping({ desired: { users: ['team-a-alice'], backendRoles: [] }, observed: { ...observed, users: [...observed.users, 'team-a-alice'] }, applied: { users: ['team-a-old', 'team-a-alice'], backendRoles: [] } });
    expect(plan.body.users).toEqual(['hand-added', 'team-a-alice']);
    expect(plan.body.backend_roles).toEqual(['ldap-ops']);
    expect(plan.applied.users).toEqual(['team-a-alice']);
  });

  it('does not claim an entry that was there before, so releasing keeps it', () => {
    const plan = planRoleMapping({ desired: { users: ['hand-added'], backendRoles: [] }, observed, applied: undefined });
    expect(plan.upToDate).toBe(true);
    expect(plan.applied.users).toEqual([]);
    expect(releaseRoleMapping(observed, plan.applied).body.users).toEqual(['hand-added', 'team-a-old']);
  });

  it('keeps entries another binding still wants when releasing', () => {
    const release = releaseRoleMapping(observed, { users: ['team-a-old'], backendRoles: ['ldap-ops'] }, { users: ['team-a-old'], backendRoles: [] });
    expect(release.body.users).toEqual(['hand-added', 'team-a-old']);
    expect(release.body.backend_roles).toEqual([]);
    expect(release.empty).toBe(false);
  });

  it('creates a missing mapping and reports an emptied one', () => {
    const created = planRoleMapping({ desired: { users: ['team-a-alice'], backendRoles: [] }, observed: undefined, applied: undefined });
    expect(created.diff).toEqual(['roleMapping: missing']);
    const released = releaseRoleMapping({ ...flags, users: ['team-a-alice'], backend_roles: [], hosts: [], and_backend_roles: [] }, created.applied);
    expect(released.empty).toBe(true);
    expect(releaseRoleMapping(undefined, created.applied)).toMatchObject({ upToDate: true, empty: true });
  });

  it('re-adds its entries when the mapping was wiped', () => {
    const plan = planRoleMapping({ desired: { users: ['team-a-alice'], backendRoles: [] }, observed: { ...flags, users: [], backend_roles: [], hosts: [], and_backend_roles: [] }, applied: { users: ['team-a-alice'], backendRoles: [] } });
    expect(plan.body.users).toEqual(['team-a-alice']);
    expect(plan.diff).toEqual(['users: want [team-a-alice], have []']);
  });
});

describe('passwordFingerprint', () => {
  it('is a salted HMAC-SHA256 that never contains the password', () => {
    const fingerprint = passwordFingerprint('salt-1', 'S3cret!');
    expect(fingerprint).toMatch(/^hmac-sha256:[A-Za-z0-9_-]{43}$/);
    expect(fingerprint).not.toContain('S3cret');
    expect(passwordFingerprint('salt-1', 'S3cret!')).toBe(fingerprint);
    expect(passwordFingerprint('salt-2', 'S3cret!')).not.toBe(fingerprint);
    expect(passwordFingerprint('salt-1', 'S3cret?')).not.toBe(fingerprint);
  });
});

describe('planUser', () => {
  const observed: ObservedUser = { ...flags, backend_roles: ['b', 'a'], attributes: { team: 'a' }, opendistro_security_roles: [] };
  const desired = { backendRoles: ['a', 'b'], attributes: { team: 'a' } };

  it('sends the password when creating and records a fingerprint with the new salt', () => {
    const plan = planUser({ desired, observed: undefined, password: 'P1', applied: undefined, newSalt: 'salt' });
    expect(plan.body.password).toBe('P1');
    expect(plan.passwordApplied).toEqual({ salt: 'salt', fingerprint: passwordFingerprint('salt', 'P1') });
    expect(plan.diff).toEqual(['user: missing']);
  });

  it('is up to date when the password fingerprint and fields match, and then sends no password', () => {
    const plan = planUser({ desired, observed, password: 'P1', applied: { salt: 's', fingerprint: passwordFingerprint('s', 'P1') }, newSalt: 'unused' });
    expect(plan.upToDate).toBe(true);
    expect(plan.body).not.toHaveProperty('password');
    expect(plan.passwordApplied.salt).toBe('s');
  });

  it('detects a rotation without putting the password in the diff', () => {
    const plan = planUser({ desired, observed, password: 'P2-secret', applied: { salt: 's', fingerprint: passwordFingerprint('s', 'P1') }, newSalt: 'unused' });
    expect(plan.diff).toEqual(['password: differs']);
    expect(plan.diff.join(' ')).not.toContain('P2-secret');
    expect(plan.body.password).toBe('P2-secret');
  });

  it('corrects backend roles, attributes and security roles changed by hand', () => {
    const plan = planUser({
      desired,
      observed: { ...observed, backend_roles: ['admin'], attributes: {}, opendistro_security_roles: ['all_access'] },
      password: 'P1',
      applied: { salt: 's', fingerprint: passwordFingerprint('s', 'P1') },
      newSalt: 'unused',
    });
    expect(plan.diff).toEqual(['backendRoles: want [a, b], have [admin]', 'attributes: differ', 'securityRoles: want [], have [all_access]']);
    expect(plan.body).toEqual({ backend_roles: ['a', 'b'], attributes: { team: 'a' }, opendistro_security_roles: [] });
  });
});
