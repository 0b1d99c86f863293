import { describe, expect, it } from 'vitest';
import { matchesSelector } from './label-selector.ts';

describe('matchesSelector', () => {
  const labels = { team: 'a', tier: 'prod' };

  it('matches everything without a selector or with an empty one', () => {
    expect(matchesSelector(undefined, undefined)).toBe(true);
    expect(matchesSelector({}, labels)).toBe(true);
  });

  it('needs every matchLabels pair', () => {
    expect(matchesSelector({ matchLabels: { team: 'a' } }, labels)).toBe(true);
    expect(matchesSelector({ matchLabels: { team: 'a', tier: 'dev' } }, labels)).toBe(false);
    expect(matchesSelector({ matchLabels: { team: 'a' } }, undefined)).toBe(false);
  });

  it('evaluates In, NotIn, Exists and DoesNotExist', () => {
    expect(matchesSelector({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['prod', 'dev'] }] }, labels)).toBe(true);
    expect(matchesSelector({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['dev'] }] }, labels)).toBe(false);
    expect(matchesSelector({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['dev'] }] }, labels)).toBe(true);
    expect(matchesSelector({ matchExpressions: [{ key: 'missing', operator: 'NotIn', values: ['x'] }] }, labels)).toBe(true);
    expect(matchesSelector({ matchExpressions: [{ key: 'team', operator: 'Exists' }] }, labels)).toBe(true);
    expect(matchesSelector({ matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] }, labels)).toBe(false);
  });

  it('ANDs matchLabels with every expression; Exists holds for an empty value (as the Kafka operator’s copy had it)', () => {
    const selector = {
      matchLabels: { kafka: 'enabled' },
      matchExpressions: [
        { key: 'tier', operator: 'In' as const, values: ['gold', 'silver'] },
        { key: 'frozen', operator: 'DoesNotExist' as const },
      ],
    };
    expect(matchesSelector(selector, { kafka: 'enabled', tier: 'gold' })).toBe(true);
    expect(matchesSelector(selector, { kafka: 'enabled', tier: 'bronze' })).toBe(false);
    expect(matchesSelector(selector, { kafka: 'enabled', tier: 'gold', frozen: 'yes' })).toBe(false);
    expect(matchesSelector(selector, { tier: 'gold' })).toBe(false);
    expect(matchesSelector({ matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['a'] }] }, {})).toBe(true);
    expect(matchesSelector({ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, { x: '' })).toBe(true);
  });
});
