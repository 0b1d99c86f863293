import { describe, expect, it } from 'vitest';
import { toolBinDir } from './tools.ts';

describe('toolBinDir', () => {
  it('follows scripts/setup.sh: $DOMAIN_OPERATORS_CACHE, else $XDG_CACHE_HOME/domain-operators, then bin', () => {
    expect(toolBinDir({ DOMAIN_OPERATORS_CACHE: '/c' })).toBe('/c/bin');
    expect(toolBinDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/domain-operators/bin');
  });
});
