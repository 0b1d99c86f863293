import { describe, expect, it } from 'vitest';
import { ConnectionReasons } from '../connection/connection-reasons.ts';
import { isReasonValue, READY_CONDITION, SYNCED_CONDITION } from './conditions.ts';
import { Reasons } from './reasons.ts';

describe('Reasons', () => {
  it('are CamelCase and distinct, also from the connection reasons and the condition types', () => {
    const all = [...Object.values(Reasons), ...Object.values(ConnectionReasons), READY_CONDITION, SYNCED_CONDITION];
    expect(all.filter((r) => !isReasonValue(r))).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
  });

  it('name the authorization failure NotAuthorized (was Forbidden and NoPermission before 0.2)', () => {
    expect(Reasons.notAuthorized).toBe('NotAuthorized');
    expect(Object.values(Reasons)).not.toContain('Forbidden');
    expect(Object.values(Reasons)).not.toContain('NoPermission');
  });
});
