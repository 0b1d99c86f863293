import { describe, expect, it } from 'vitest';
import { foreignPrefixes, renderNamePrefix } from './name-prefix.ts';

describe('renderNamePrefix', () => {
  it('replaces every placeholder, and is empty without a template', () => {
    expect(renderNamePrefix('{namespace}.', 'team-a')).toBe('team-a.');
    expect(renderNamePrefix('t-{namespace}-{namespace}-', 'a')).toBe('t-a-a-');
    expect(renderNamePrefix('shared-', 'team-a')).toBe('shared-');
    expect(renderNamePrefix(undefined, 'team-a')).toBe('');
  });
});

describe('foreignPrefixes', () => {
  it("finds the namespaces whose prefix extends this one's, never itself", () => {
    expect(foreignPrefixes('{namespace}-', 'team-a', ['team-a', 'team-a-b', 'team-b', 'team-ab'])).toEqual([
      { namespace: 'team-a-b', prefix: 'team-a-b-' },
    ]);
  });

  it('finds none with a separator a namespace name cannot hold, or without a prefix', () => {
    expect(foreignPrefixes('{namespace}.', 'team-a', ['team-a-b', 'team-b'])).toEqual([]);
    expect(foreignPrefixes(undefined, 'team-a', ['team-a-b'])).toEqual([]);
    expect(foreignPrefixes('', 'team-a', ['team-a-b'])).toEqual([]);
  });
});
