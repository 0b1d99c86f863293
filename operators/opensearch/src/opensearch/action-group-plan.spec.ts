import { describe, expect, it } from 'vitest';
import { actionGroupBody, compareActionGroup, compareTenant, tenantBody } from './action-group-plan.ts';

const flags = { reserved: false, static: false, hidden: false };

describe('actionGroupBody and compareActionGroup', () => {
  const desired = actionGroupBody({ type: 'index', allowedActions: ['indices:data/read/search', 'read'], description: 'search only' });

  it('is the security API body, with an empty description when none is given', () => {
    expect(desired).toEqual({ type: 'index', allowed_actions: ['indices:data/read/search', 'read'], description: 'search only' });
    expect(actionGroupBody({ type: 'kibana', allowedActions: ['kibana_all_read'] }).description).toBe('');
  });

  it('compares actions as a set, and the type and description exactly', () => {
    expect(compareActionGroup(desired, undefined)).toEqual({ upToDate: false, diff: ['actionGroup: missing'] });
    expect(compareActionGroup(desired, { ...flags, ...desired, allowed_actions: ['read', 'indices:data/read/search', 'read'] })).toEqual({ upToDate: true, diff: [] });
    expect(compareActionGroup(desired, { ...flags, type: 'cluster', allowed_actions: ['read'], description: '' }).diff).toEqual([
      'allowedActions: want [indices:data/read/search, read], have [read]',
      'type: want index, have cluster',
      'description: differs',
    ]);
  });
});

describe('tenantBody and compareTenant', () => {
  it('compares the description', () => {
    const desired = tenantBody({ description: 'dashboards of team a' });
    expect(compareTenant(desired, undefined)).toEqual({ upToDate: false, diff: ['tenant: missing'] });
    expect(compareTenant(desired, { ...flags, description: 'dashboards of team a' })).toEqual({ upToDate: true, diff: [] });
    expect(compareTenant(tenantBody({}), { ...flags, description: 'by hand' })).toEqual({ upToDate: false, diff: ['description: differs'] });
  });
});
