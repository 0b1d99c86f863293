import { describe, expect, it } from 'vitest';
import type { DebPackage } from './deb-control.ts';
import { resolveClosure } from './deb-resolve.ts';

const pkg = (name: string, ...depends: string[][]): DebPackage => ({
  name,
  version: '1',
  architecture: 'amd64',
  file: `${name}_1_amd64.deb`,
  sha256: '0'.repeat(64),
  depends,
});
const index = new Map(
  [
    pkg('redis-server', ['init-system-helpers'], ['redis-tools']),
    pkg('redis-tools', ['adduser'], ['libc6'], ['libsystemd0', 'libelogind0']),
    pkg('libc6', ['libgcc-s1']),
    pkg('libgcc-s1', ['libc6']),
    pkg('libsystemd0', ['libc6']),
    pkg('libelogind0'),
    pkg('tzdata', ['debconf', 'debconf-2.0']),
    pkg('needs-virtual', ['awk']),
  ].map((p) => [p.name, p]),
);
const exclusions = new Map([
  ['init-system-helpers', 'no init'],
  ['adduser', 'users written directly'],
  ['debconf', 'no scripts'],
]);

describe('resolveClosure', () => {
  it('follows Depends and Pre-Depends, takes the first existing alternative and skips excluded clauses', () => {
    const closure = resolveClosure(['redis-server', 'tzdata'], index, exclusions);
    expect(closure.packages.map((p) => p.name)).toEqual(['libc6', 'libgcc-s1', 'libsystemd0', 'redis-server', 'redis-tools', 'tzdata']);
    expect(closure.excludedHits).toEqual(['adduser', 'debconf', 'init-system-helpers']);
  });

  it('names the clause no real package satisfies, and refuses excluded or unknown roots', () => {
    expect(() => resolveClosure(['needs-virtual'], index, exclusions)).toThrow(/no alternative of "awk" \(needed by needs-virtual\)/);
    expect(() => resolveClosure(['adduser'], index, exclusions)).toThrow(/requested but excluded/);
    expect(() => resolveClosure(['nope'], index, exclusions)).toThrow(/no package "nope"/);
  });
});
