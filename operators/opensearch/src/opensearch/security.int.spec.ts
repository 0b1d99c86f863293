import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credentials, OpenSearchFixture } from './test-support.int.ts';
import { openSearchFixture, request, strongPassword } from './test-support.int.ts';
import { checkRole, checkSecurityObject, resolveName, tenancyFor } from './tenancy.ts';
import type { Tenancy } from './tenancy.ts';
import { compareRole, planRoleMapping, planUser, releaseRoleMapping, roleBody } from './security-plan.ts';
import type { MappingEntries } from './security-plan.ts';
import type { OpenSearchRoleSpec, PasswordApplied } from '../api/v1alpha1/index.ts';

describe('roles, users and role mappings against the real node (requests made with the user’s own credentials)', () => {
  let fx: OpenSearchFixture;
  let tenancy: Tenancy;
  let teamA: string;
  let teamB: string;
  let roleName: string;
  let username: string;
  let bystander: string;
  let password = strongPassword();
  let passwordApplied: PasswordApplied | undefined;
  let bindingApplied: MappingEntries | undefined;

  const roleSpec = (): OpenSearchRoleSpec => ({
    connectionRef: { name: 'main' },
    clusterPermissions: ['cluster_composite_ops_ro'],
    indexPermissions: [{ indexPatterns: [`${teamA}*`], allowedActions: ['read'] }],
  });

  beforeAll(async () => {
    fx = await openSearchFixture();
    // The namespace carries the run's suffix, so names are unique and follow the tenancy rule.
    const result = tenancyFor({ indexPrefix: '{namespace}-' }, `team-a${fx.suffix}`, [`team-b${fx.suffix}`]);
    if (!result.ok) throw new Error(result.violation.message);
    tenancy = result.tenancy;
    teamA = `${tenancy.prefix}logs`;
    teamB = `team-b${fx.suffix}-logs`;
    const role = resolveName(tenancy, 'role', 'reader');
    const user = resolveName(tenancy, 'user', 'alice');
    if (!role.ok || !user.ok) throw new Error('names');
    roleName = role.name;
    username = user.name;
    bystander = `bystander-${fx.suffix}`;
    for (const index of [teamA, teamB]) {
      await fx.api.createIndex(index, { settings: { 'index.number_of_replicas': 0 } });
    }
  });

  afterAll(async () => {
    await fx.api.deleteRoleMapping(roleName);
    await fx.api.deleteRole(roleName);
    await fx.api.deleteUser(username);
    await fx.api.deleteIndex(teamA);
    await fx.api.deleteIndex(teamB);
    await fx.api.close();
  });

  function as(credentials: Credentials, path: string): Promise<number> {
    return request(fx.url, credentials, 'GET', path).then((answer) => answer.status);
  }

  async function syncUser(): Promise<void> {
    const observed = await fx.api.getUser(username);
    expect(checkSecurityObject('user', username, observed)).toBeUndefined();
    const plan = planUser({ desired: { backendRoles: [], attributes: { team: 'a' } }, observed, password, applied: passwordApplied, newSalt: 'salt-' + fx.suffix });
    if (!plan.upToDate) await fx.api.putUser(username, plan.body);
    passwordApplied = plan.passwordApplied;
  }

  async function syncBinding(desired: { users: string[]; backendRoles: string[] }): Promise<void> {
    const observed = await fx.api.getRoleMapping(roleName);
    expect(checkSecurityObject('role mapping', roleName, observed)).toBeUndefined();
    const plan = planRoleMapping({ desired, observed, applied: bindingApplied });
    if (!plan.upToDate) await fx.api.putRoleMapping(roleName, plan.body);
    bindingApplied = plan.applied;
  }

  it('gives the user read on its own index and 403 on another team’s, through a role, a user and a mapping', async () => {
    expect(checkRole(tenancy, roleSpec())).toBeUndefined();
    const desiredRole = roleBody(roleSpec());
    expect(compareRole(desiredRole, await fx.api.getRole(roleName)).diff).toEqual(['role: missing']);
    await fx.api.putRole(roleName, desiredRole);
    expect(compareRole(desiredRole, await fx.api.getRole(roleName))).toEqual({ upToDate: true, diff: [] });

    await syncUser();
    const alice = { username, password };
    expect(await as(alice, `/${teamA}/_search`)).toBe(403); // no mapping yet

    await syncBinding({ users: [username], backendRoles: [] });
    expect(await as(alice, `/${teamA}/_search`)).toBe(200);
    expect(await as(alice, `/${teamB}/_search`)).toBe(403);
    expect(await as(alice, `/_cat/indices`)).toBe(403);

    // A second sync changes nothing.
    const user = await fx.api.getUser(username);
    expect(planUser({ desired: { backendRoles: [], attributes: { team: 'a' } }, observed: user, password, applied: passwordApplied, newSalt: 'x' }).upToDate).toBe(true);
  });

  it('applies a password rotation: the old password is refused, the new one accepted', async () => {
    const old = { username, password };
    password = strongPassword();
    const plan = planUser({ desired: { backendRoles: [], attributes: { team: 'a' } }, observed: await fx.api.getUser(username), password, applied: passwordApplied, newSalt: 'x' });
    expect(plan.diff).toEqual(['password: differs']);
    await syncUser();
    expect(await as(old, `/${teamA}/_search`)).toBe(401);
    expect(await as({ username, password }, `/${teamA}/_search`)).toBe(200);
  });

  it('keeps a role-mapping entry added by hand for another user through the binding’s syncs and release', async () => {
    const mapping = await fx.api.getRoleMapping(roleName);
    const byHand = await request(fx.url, fx.admin, 'PUT', `/_plugins/_security/api/rolesmapping/${roleName}`, {
      users: [...(mapping?.users ?? []), bystander],
      backend_roles: ['hand-made-backend'],
    });
    expect(byHand.status).toBe(200);

    await syncBinding({ users: [username], backendRoles: [`${tenancy.prefix}devs`] });
    let observed = await fx.api.getRoleMapping(roleName);
    expect(observed?.users).toEqual([username, bystander]);
    expect(observed?.backend_roles).toEqual(['hand-made-backend', `${tenancy.prefix}devs`]);

    // The binding stops wanting its backend role: only that entry goes.
    await syncBinding({ users: [username], backendRoles: [] });
    observed = await fx.api.getRoleMapping(roleName);
    expect(observed?.users).toEqual([username, bystander]);
    expect(observed?.backend_roles).toEqual(['hand-made-backend']);

    // The binding is deleted: its user goes, the hand-made entries stay.
    const release = releaseRoleMapping(observed, bindingApplied);
    await fx.api.putRoleMapping(roleName, release.body);
    observed = await fx.api.getRoleMapping(roleName);
    expect(observed?.users).toEqual([bystander]);
    expect(observed?.backend_roles).toEqual(['hand-made-backend']);
    expect(await as({ username, password }, `/${teamA}/_search`)).toBe(403);
  });

  it('sees a role changed by hand and one deleted by hand, and restores both', async () => {
    const desiredRole = roleBody(roleSpec());
    await request(fx.url, fx.admin, 'PUT', `/_plugins/_security/api/roles/${roleName}`, { cluster_permissions: ['cluster_all'], index_permissions: [{ index_patterns: ['*'], allowed_actions: ['*'] }] });
    expect(compareRole(desiredRole, await fx.api.getRole(roleName)).upToDate).toBe(false);
    await fx.api.putRole(roleName, desiredRole);
    expect(compareRole(desiredRole, await fx.api.getRole(roleName)).upToDate).toBe(true);

    await fx.api.deleteRole(roleName);
    await fx.api.deleteRole(roleName); // idempotent
    expect(await fx.api.getRole(roleName)).toBeUndefined();
    await fx.api.putRole(roleName, desiredRole);
    expect(compareRole(desiredRole, await fx.api.getRole(roleName)).upToDate).toBe(true);
  });

  it('reads the reserved and static flags that keep built-in objects untouchable', async () => {
    const allAccess = await fx.api.getRole('all_access');
    expect(allAccess).toMatchObject({ reserved: true, static: true });
    expect(checkSecurityObject('role', 'readall', await fx.api.getRole('readall'))?.message).toContain('reserved');
  });

  it('makes a weak password a terminal error with OpenSearch’s reason, without the password', async () => {
    const error: unknown = await fx.api.putUser(username, { password: 'weak', backend_roles: [], attributes: {}, opendistro_security_roles: [] }).catch((err: unknown) => err);
    expect(error).toMatchObject({ name: 'TerminalError', reason: 'InvalidSpec' });
    expect((error as Error).message).toContain('Weak password');
  });
});
