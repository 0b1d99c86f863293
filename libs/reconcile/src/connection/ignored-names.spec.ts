import { describe, expect, it } from 'vitest';
import { isTerminalError } from '../core/errors.ts';
import { assertNotIgnored, ignoringPattern } from './ignored-names.ts';

describe('ignored names', () => {
  it('match whole names, with * as the only wildcard', () => {
    expect(ignoringPattern(['legacy-*', 'ops.audit'], 'legacy-orders')).toBe('legacy-*');
    expect(ignoringPattern(['legacy-*', 'ops.audit'], 'ops.audit')).toBe('ops.audit');
    expect(ignoringPattern(['ops.audit'], 'opsXaudit')).toBeUndefined();
    expect(ignoringPattern(['legacy-*'], 'team-a.legacy-orders')).toBeUndefined();
    expect(ignoringPattern([], 'anything')).toBeUndefined();
  });

  it('refuse a matching name with a stalling IgnoredName naming the pattern and the connection', () => {
    expect(() => {
      assertNotIgnored(['legacy-*'], 'main/team-a.orders', 'KafkaConnection');
    }).not.toThrow();
    let caught: unknown;
    try {
      assertNotIgnored(['legacy-*'], 'main/legacy-orders', 'KafkaConnection');
    } catch (err) {
      caught = err;
    }
    expect(isTerminalError(caught) && caught.reason).toBe('IgnoredName');
    expect((caught as Error).message).toBe('legacy-orders matches the ignored name "legacy-*" of KafkaConnection "main": another tool manages it, and this operator never creates, changes or deletes it');
  });
});
