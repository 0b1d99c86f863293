import { describe, expect, it } from 'vitest';
import type { Tenancy } from './tenancy.ts';
import {
  checkActionGroup,
  checkComponentTemplate,
  checkIndexAliases,
  checkIndexTemplate,
  checkRole,
  checkRoleBinding,
  checkSecurityObject,
  checkUser,
  globReachesPrefix,
  patternProblem,
  renderPrefix,
  resolveName,
  tenancyError,
  tenancyFor,
} from './tenancy.ts';

function tenancy(namespace = 'team-a', others: readonly string[] = [], template = '{namespace}-', bindableRoles: string[] = []): Tenancy {
  const result = tenancyFor({ indexPrefix: template, bindableRoles }, namespace, others);
  if (!result.ok) throw new Error(result.violation.message);
  return result.tenancy;
}

const connectionRef = { name: 'main' };

describe('renderPrefix', () => {
  it('replaces every {namespace}', () => {
    expect(renderPrefix('{namespace}-', 'team-a')).toEqual({ ok: true, name: 'team-a-' });
    expect(renderPrefix('ns.{namespace}.{namespace}_', 'x')).toEqual({ ok: true, name: 'ns.x.x_' });
  });

  it('treats an absent or empty template as no prefix', () => {
    expect(renderPrefix(undefined, 'team-a')).toEqual({ ok: true, name: '' });
    expect(renderPrefix('', 'team-a')).toEqual({ ok: true, name: '' });
  });

  it('refuses other placeholders, wildcards and prefixes that cannot start an index name', () => {
    for (const template of ['{name}-', '{namespace}-*', '_{namespace}', 'Team-{namespace}', '{namespace} ']) {
      const result = renderPrefix(template, 'team-a');
      expect(result.ok, template).toBe(false);
      if (!result.ok) expect(result.violation.reason).toBe('TenancyViolation');
    }
  });
});

describe('resolveName', () => {
  const t = tenancy();

  it('defaults to prefix + metadata.name', () => {
    expect(resolveName(t, 'index', 'logs')).toEqual({ ok: true, name: 'team-a-logs' });
    expect(resolveName(t, 'role', 'reader')).toEqual({ ok: true, name: 'team-a-reader' });
  });

  it('accepts an explicit name inside the prefix', () => {
    expect(resolveName(t, 'index', 'whatever', 'team-a-orders-v2')).toEqual({ ok: true, name: 'team-a-orders-v2' });
  });

  it.each([
    ['index', 'team-b-logs'],
    ['index', 'team-alogs'],
    ['index', 'logs'],
    ['index', '.opendistro_security'],
    ['index', 'team-a-Logs'],
    ['index', 'team-a-*'],
    ['index', 'team-a-x,team-b-y'],
    ['alias', 'team-b-write'],
    ['index template', 'global'],
    ['role', 'all_access'],
    ['role', 'team-b-reader'],
    ['user', 'admin'],
    ['user', 'team-a-bob/../admin'],
  ] as const)('refuses %s name %s', (kind, name) => {
    const result = resolveName(t, kind, 'x', name);
    expect(result.ok).toBe(false);
  });

  it('refuses protected names even without a prefix', () => {
    const open = tenancy('team-a', [], '');
    expect(resolveName(open, 'role', 'x', 'all_access').ok).toBe(false);
    expect(resolveName(open, 'user', 'x', 'admin').ok).toBe(false);
    expect(resolveName(open, 'role', 'x', 'anything')).toEqual({ ok: true, name: 'anything' });
  });

  it('refuses a name inside a longer foreign prefix (namespace team-a-b under {namespace}-)', () => {
    const t2 = tenancy('team-a', ['team-a-b', 'team-b']);
    const result = resolveName(t2, 'index', 'x', 'team-a-b-logs');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.violation.message).toContain('"team-a-b"');
    expect(resolveName(t2, 'index', 'x', 'team-a-bx').ok).toBe(true);
  });

  it('has no overlap when the separator cannot occur in namespace names', () => {
    const dotted = tenancy('team-a', ['team-a-b'], '{namespace}.');
    expect(dotted.foreignPrefixes).toEqual([]);
    expect(resolveName(dotted, 'index', 'logs')).toEqual({ ok: true, name: 'team-a.logs' });
  });
});

describe('patternProblem', () => {
  const t = tenancy('team-a', ['team-a-b']);

  it.each(['team-a-logs', 'team-a-logs-*', 'team-a-?ogs', 'team-a-logs-*-2024', '<team-a-logs-{now/d}>', '<team-a-logs-{now/M{yyyy.MM}}>'])(
    'accepts %s',
    (pattern) => {
      expect(patternProblem(t, 'p', pattern)).toBeUndefined();
    },
  );

  it.each([
    ['*', 'outside'],
    ['_all', 'outside'],
    ['team-*', 'outside'],
    ['team-a*', 'outside'],
    ['*-logs', 'outside'],
    ['team-b-*', 'outside'],
    ['?eam-a-logs', 'outside'],
    ['team-a-*', 'reaches names of namespace "team-a-b"'],
    ['team-a-?-*', 'reaches names of namespace "team-a-b"'],
    ['team-a-*-2024', 'reaches names of namespace "team-a-b"'],
    ['team-a-b-logs', 'reaches names of namespace "team-a-b"'],
    ['/team-a-.*/', 'regular expression'],
    ['/.*/', 'regular expression'],
    ['team-a-${user.name}', 'attribute substitution'],
    ['team-a-${attr.internal.team}*', 'attribute substitution'],
    ['team-a-x,*', 'list'],
    ['team-a-logs,-team-a-secret', 'list'],
    ['<{now/d}>', 'outside'],
    ['<team-b-logs-{now/d}>', 'outside'],
    ['<team-a-*-{now/d}>', 'wildcards'],
    ['<team-a-\\{x{now/d}>', 'date-math'],
    ['<team-a-logs', 'date-math'],
    ['<team-a-b-{now/d}>', 'reaches names of namespace'],
    ['team-a-Logs', 'characters'],
    ['team-a-logs/..', 'characters'],
    ['team-a-logs:x', 'characters'],
    ['', 'empty'],
  ])('refuses %s (%s)', (pattern, why) => {
    expect(patternProblem(t, 'p', pattern)).toContain(why);
  });

  it('accepts team-a-* when no namespace extends the prefix', () => {
    expect(patternProblem(tenancy('team-a', ['team-b']), 'p', 'team-a-*')).toBeUndefined();
  });
});

describe('globReachesPrefix', () => {
  it.each([
    ['*', 'team-b-', true],
    ['team-*', 'team-b-', true],
    ['team-a-*', 'team-a-b-', true],
    ['team-a-?-x', 'team-a-b-', true],
    ['team-a-logs', 'team-a-b-', false],
    ['team-a-bx*', 'team-a-b-', false],
    ['*-logs', 'team-a-b-', true],
    ['t**a', 'team-a-b-', true],
    ['', 'x', false],
    ['abc', '', true],
  ])('%s reaches %s: %s', (pattern, prefix, expected) => {
    expect(globReachesPrefix(pattern, prefix)).toBe(expected);
  });
});

describe('checkActionGroup', () => {
  const t = tenancy();

  it('accepts an index or kibana group of any actions, and a cluster group of allow-listed ones', () => {
    expect(checkActionGroup(t, { type: 'index', allowedActions: ['indices:*', 'cluster_all'] })).toBeUndefined();
    expect(checkActionGroup(t, { type: 'kibana', allowedActions: ['kibana:saved_objects/*/write'] })).toBeUndefined();
    expect(checkActionGroup(t, { type: 'cluster', allowedActions: ['cluster_monitor', 'indices:data/write/bulk'] })).toBeUndefined();
  });

  it('refuses a cluster group of a namespace with an action off the allow-list, naming each', () => {
    const result = checkActionGroup(t, { type: 'cluster', allowedActions: ['cluster_monitor', 'cluster:admin/*', 'restapi:admin/roles'] });
    expect(result?.reason).toBe('TenancyViolation');
    expect(result?.message).toContain('allowedActions[1] "cluster:admin/*"');
    expect(result?.message).toContain('allowedActions[2] "restapi:admin/roles"');
    expect(result?.message).not.toContain('allowedActions[0]');
  });

  it('lets a connection without a prefix put anything in a cluster group', () => {
    expect(checkActionGroup(tenancy('ops', [], ''), { type: 'cluster', allowedActions: ['cluster_all'] })).toBeUndefined();
  });
});

describe('resolveName of action groups and tenants', () => {
  const t = tenancy('team-a', ['team-a-b']);

  it('defaults to the prefix + metadata.name; action groups take security-name characters, tenants only what a tenant pattern can name', () => {
    expect(resolveName(t, 'action group', 'readers')).toEqual({ ok: true, name: 'team-a-readers' });
    expect(resolveName(t, 'action group', 'x', 'team-a-Sales@eu')).toEqual({ ok: true, name: 'team-a-Sales@eu' });
    expect(resolveName(t, 'tenant', 'x', 'team-a-sales.eu')).toEqual({ ok: true, name: 'team-a-sales.eu' });
    expect(resolveName(t, 'tenant', 'x', 'team-a-Sales')).toMatchObject({ ok: false, violation: { message: 'tenant name "team-a-Sales" must be lowercase letters, digits and . _ + -, not starting with . _ + -' } });
  });

  it('refuses a name outside the prefix, into a longer foreign prefix, or with other characters', () => {
    expect(resolveName(t, 'tenant', 'x', 'global_tenant')).toMatchObject({ ok: false, violation: { message: 'tenant name "global_tenant" is outside the prefix "team-a-"' } });
    expect(resolveName(t, 'action group', 'x', 'team-a-b-g')).toMatchObject({ ok: false, violation: { reason: 'TenancyViolation' } });
    expect(resolveName(t, 'action group', 'x', 'team-a-a/b')).toMatchObject({ ok: false, violation: { reason: 'TenancyViolation' } });
  });

  it('names a reserved action group or tenant as never modified', () => {
    expect(checkSecurityObject('action group', 'read', { reserved: true, static: true })?.message).toBe('action group "read" is reserved and static in OpenSearch and is never modified');
    expect(checkSecurityObject('tenant', 'team-a-t', { reserved: false, static: false, hidden: false })).toBeUndefined();
  });
});

describe('checkRole', () => {
  const t = tenancy();

  it('accepts a role confined to the prefix', () => {
    expect(
      checkRole(t, {
        connectionRef,
        clusterPermissions: ['cluster_composite_ops_ro'],
        indexPermissions: [{ indexPatterns: ['team-a-logs*'], allowedActions: ['read', 'indices:admin/mappings/get'], dls: '{"match_all":{}}', fls: ['~secret'] }],
        tenantPermissions: [{ tenantPatterns: ['team-a-tenant'], allowedActions: ['kibana_all_read'] }],
      }),
    ).toBeUndefined();
  });

  it('names every offending field in one violation', () => {
    const result = checkRole(t, {
      connectionRef,
      clusterPermissions: ['cluster_all', 'cluster_monitor', 'restapi:admin/roles', '*'],
      indexPermissions: [
        { indexPatterns: ['team-a-logs', '*'], allowedActions: ['read'] },
        { indexPatterns: [], allowedActions: ['read'] },
      ],
      tenantPermissions: [{ tenantPatterns: ['global_tenant'], allowedActions: ['kibana_all_write'] }],
    });
    expect(result?.reason).toBe('TenancyViolation');
    expect(result?.message).toContain('clusterPermissions[0] "cluster_all"');
    expect(result?.message).toContain('clusterPermissions[2] "restapi:admin/roles"');
    expect(result?.message).toContain('clusterPermissions[3] "*"');
    expect(result?.message).not.toContain('clusterPermissions[1]');
    expect(result?.message).toContain('indexPermissions[0].indexPatterns[1] "*"');
    expect(result?.message).toContain('indexPermissions[1].indexPatterns is empty');
    expect(result?.message).toContain('tenantPermissions[0].tenantPatterns[0] "global_tenant"');
  });

  it('lets a connection without a prefix grant anything', () => {
    expect(checkRole(tenancy('ops', [], ''), { connectionRef, clusterPermissions: ['cluster_all'], indexPermissions: [{ indexPatterns: ['*'], allowedActions: ['*'] }] })).toBeUndefined();
  });

  it('uses the allow-list given in the options', () => {
    const custom = tenancyFor({ indexPrefix: '{namespace}-' }, 'team-a', [], { allowedClusterPermissions: ['cluster_manage_index_templates'] });
    if (!custom.ok) throw new Error('unexpected');
    expect(checkRole(custom.tenancy, { connectionRef, clusterPermissions: ['cluster_manage_index_templates'] })).toBeUndefined();
    expect(checkRole(custom.tenancy, { connectionRef, clusterPermissions: ['cluster_monitor'] })).toBeDefined();
  });
});

describe('checkIndexTemplate and checkComponentTemplate', () => {
  const t = tenancy();

  it('accepts patterns and aliases inside the prefix, and {index} aliases', () => {
    expect(
      checkIndexTemplate(t, { indexPatterns: ['team-a-logs-*'], template: { aliases: { 'team-a-all-logs': {}, '{index}-alias': {} } }, composedOf: ['shared-defaults'] }),
    ).toBeUndefined();
  });

  it('refuses patterns that match other tenants and aliases outside', () => {
    const result = checkIndexTemplate(t, { indexPatterns: ['team-a-logs-*', 'team-*'], template: { aliases: { 'team-b-logs': {}, 'x{index}': {} } } });
    expect(result?.message).toContain('indexPatterns[1] "team-*"');
    expect(result?.message).toContain('template.aliases "team-b-logs"');
    expect(result?.message).toContain('template.aliases "x{index}"');
    expect(checkIndexTemplate(t, { indexPatterns: [] })?.message).toContain('indexPatterns is empty');
  });

  it('checks a component template’s aliases', () => {
    expect(checkComponentTemplate(t, { template: { aliases: { 'team-a-x': {} } } })).toBeUndefined();
    expect(checkComponentTemplate(t, { template: { aliases: { logs: {} } } })?.message).toContain('"logs"');
  });
});

describe('checkIndexAliases', () => {
  it('refuses an alias another tenant would own', () => {
    const t = tenancy();
    expect(checkIndexAliases(t, { 'team-a-read': {}, 'team-a-write': { isWriteIndex: true } })).toBeUndefined();
    expect(checkIndexAliases(t, { 'team-b-logs': {} })?.message).toContain('"team-b-logs"');
    expect(checkIndexAliases(t, { '{index}-x': {} })).toBeDefined();
  });
});

describe('checkRoleBinding', () => {
  const t = tenancy('team-a', [], '{namespace}-', ['readall_team', 'all_access']);

  it('accepts a roleRef with users inside the prefix and any backend roles', () => {
    expect(checkRoleBinding(t, { connectionRef, roleRef: { name: 'reader' }, users: ['team-a-alice'], backendRoles: ['ldap-devs'] })).toBeUndefined();
  });

  it('accepts a bindable external role', () => {
    expect(checkRoleBinding(t, { connectionRef, externalRole: 'readall_team', users: ['team-a-bob'] })).toBeUndefined();
  });

  it('refuses unlisted or protected external roles, both or neither role, and foreign users', () => {
    expect(checkRoleBinding(t, { connectionRef, externalRole: 'readall' })?.message).toContain('bindableRoles');
    // Listed by the admin, but protected: still refused.
    expect(checkRoleBinding(t, { connectionRef, externalRole: 'all_access' })?.message).toContain('protected');
    expect(checkRoleBinding(t, { connectionRef })?.message).toContain('exactly one');
    expect(checkRoleBinding(t, { connectionRef, roleRef: { name: 'r' }, externalRole: 'readall_team' })?.message).toContain('exactly one');
    expect(checkRoleBinding(t, { connectionRef, roleRef: { name: 'r' }, users: ['admin', 'team-b-bob'] })?.message).toContain('users[1] "team-b-bob"');
  });
});

describe('checkUser', () => {
  it('accepts no backend roles, or backend roles inside the prefix', () => {
    expect(checkUser(tenancy(), {})).toBeUndefined();
    expect(checkUser(tenancy(), { backendRoles: ['team-a-readers', 'team-a-ops'] })).toBeUndefined();
  });

  it('refuses a backend role outside the prefix (admin would get all_access on a demo-configured cluster), a protected one, and one reaching a longer foreign prefix', () => {
    const refusal = checkUser(tenancy(), { backendRoles: ['team-a-ok', 'admin', 'team-b-ops'] });
    expect(refusal?.reason).toBe('TenancyViolation');
    expect(refusal?.message).toContain('backendRoles[1] "admin"');
    expect(refusal?.message).toContain('backendRoles[2] "team-b-ops" is outside the prefix "team-a-"');
    expect(refusal?.message).not.toContain('backendRoles[0]');
    expect(checkUser(tenancy('team-a', ['team-a-b']), { backendRoles: ['team-a-b-ops'] })?.message).toContain('team-a-b');
  });

  it('with no prefix (a trusted namespace) accepts any backend role but the protected names', () => {
    const trusted = tenancy('platform', [], '');
    expect(checkUser(trusted, { backendRoles: ['ldap-devs'] })).toBeUndefined();
    expect(checkUser(trusted, { backendRoles: ['admin'] })?.message).toContain('protected');
  });
});

describe('checkSecurityObject', () => {
  it('refuses protected names and objects flagged reserved, static or hidden', () => {
    expect(checkSecurityObject('role', 'all_access')?.reason).toBe('TenancyViolation');
    expect(checkSecurityObject('user', 'admin')).toBeDefined();
    expect(checkSecurityObject('role', 'team-a-r', { reserved: true })?.message).toContain('reserved');
    expect(checkSecurityObject('role', 'team-a-r', { static: true, hidden: true })?.message).toContain('static and hidden');
    expect(checkSecurityObject('role mapping', 'team-a-r', { reserved: false, static: false, hidden: false })).toBeUndefined();
    expect(checkSecurityObject('role', 'team-a-r')).toBeUndefined();
  });

  it('turns a violation into a TerminalError with reason TenancyViolation', () => {
    const error = tenancyError(checkSecurityObject('role', 'all_access')!);
    expect(error.name).toBe('TerminalError');
    expect(error.reason).toBe('TenancyViolation');
  });
});
