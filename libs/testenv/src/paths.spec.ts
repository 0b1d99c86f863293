import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRepoRoot, resolvePaths } from './paths.ts';
import { scratchDir } from './scratch-dir.spec-support.ts';

describe('paths', () => {
  it('finds the folder holding nx.json from anywhere below it', () => {
    const root = scratchDir('testenv-paths-');
    writeFileSync(join(root, 'nx.json'), '{}');
    const deep = join(root, 'libs', 'x', 'src');
    mkdirSync(deep, { recursive: true });
    expect(findRepoRoot(deep)).toBe(root);
  });

  it('fails with a clear message outside a checkout', () => {
    expect(() => findRepoRoot('/')).toThrow(/no nx.json above \//);
  });

  it('keeps state in the checkout and builds in a cache shared by clones', () => {
    const paths = resolvePaths('/repo', { HOME: '/home/u', XDG_CACHE_HOME: '/xdg' });
    expect(paths.envFile).toBe('/repo/.testenv/env.json');
    expect(paths.logsDir).toBe('/repo/.testenv/logs');
    expect(paths.cacheDir).toBe('/xdg/domain-operators');
    expect(resolvePaths('/repo', { DOMAIN_OPERATORS_CACHE: '/c' }).cacheDir).toBe('/c');
  });
});
