import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenSearchFixture } from './test-support.int.ts';
import { openSearchFixture } from './test-support.int.ts';
import { actionGroupBody, compareActionGroup, compareTenant, tenantBody } from './action-group-plan.ts';
import { checkSecurityObject } from './tenancy.ts';

describe('action groups and tenants against the real node', () => {
  let fx: OpenSearchFixture;
  let group: string;
  let tenant: string;

  beforeAll(async () => {
    fx = await openSearchFixture();
    group = `team-a${fx.suffix}-searchers`;
    tenant = `team-a${fx.suffix}-dashboards`;
  });

  afterAll(async () => {
    await fx.api.deleteActionGroup(group);
    await fx.api.deleteTenant(tenant);
    await fx.api.close();
  });

  it('puts an action group and reads back what was put, then deletes it', async () => {
    const desired = actionGroupBody({ type: 'index', allowedActions: ['indices:data/read/search*', 'indices:admin/mappings/get'], description: 'search only' });
    expect(await fx.api.getActionGroup(group)).toBeUndefined();
    await fx.api.putActionGroup(group, desired);
    const observed = await fx.api.getActionGroup(group);
    expect(observed).toMatchObject({ reserved: false, static: false, hidden: false });
    expect(compareActionGroup(desired, observed)).toEqual({ upToDate: true, diff: [] });
    await fx.api.deleteActionGroup(group);
    expect(await fx.api.getActionGroup(group)).toBeUndefined();
    await fx.api.deleteActionGroup(group);
  });

  it('puts a tenant with its description and reads it back', async () => {
    const desired = tenantBody({ description: 'dashboards of team a' });
    await fx.api.putTenant(tenant, desired);
    expect(compareTenant(desired, await fx.api.getTenant(tenant))).toEqual({ upToDate: true, diff: [] });
    await fx.api.putTenant(tenant, tenantBody({ description: 'changed' }));
    expect((await fx.api.getTenant(tenant))?.description).toBe('changed');
  });

  it('reads the plugin’s own action groups and global tenant as reserved and static, which the tenancy check refuses', async () => {
    const read = await fx.api.getActionGroup('read');
    expect(read).toMatchObject({ type: 'index', reserved: true, static: true });
    expect(checkSecurityObject('action group', 'read', read)?.reason).toBe('TenancyViolation');
    const global = await fx.api.getTenant('global_tenant');
    expect(global).toMatchObject({ reserved: true });
    expect(checkSecurityObject('tenant', 'global_tenant', global)?.reason).toBe('TenancyViolation');
  });
});
