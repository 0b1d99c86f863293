import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import { Apt } from './apt.ts';
import type { Exec } from './exec.ts';

const DEPENDS = 'libc6\n  Depends: libgcc-s1\nlibgcc-s1\n  Depends: libc6\n<debconf-2.0>\n';
const SHOW = ['libc6', 'libgcc-s1'].map((n) => `Package: ${n}\nVersion: 1\nArchitecture: amd64\nFilename: pool/${n}_1_amd64.deb\nSHA256: ${'0'.repeat(64)}\n`).join('\n');

function fakeApt(dir: string): { apt: Apt; calls: string[][] } {
  const calls: string[][] = [];
  const exec: Exec = (command, args) => {
    calls.push([command, ...args]);
    if (args.includes('depends')) return Promise.resolve(DEPENDS);
    if (args.includes('show')) return Promise.resolve(SHOW);
    if (args.includes('download')) return Promise.resolve('');
    return Promise.reject(new Error(`unexpected ${command}`));
  };
  const lists = join(dir, 'lists');
  mkdirSync(lists, { recursive: true });
  writeFileSync(join(lists, 'deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4'), 'x');
  return { apt: new Apt({ aptCacheDir: join(dir, 'apt'), debCacheDir: join(dir, 'debs'), exec, root: true, stateDirs: [lists] }), calls };
}

describe('Apt.index', () => {
  it('asks apt-cache for the recursive dependencies, then shows every real package found, with our own caches', async () => {
    const { apt, calls } = fakeApt(scratchDir('apt-spec-'));
    const index = await apt.index(['libc6']);
    expect([...index.keys()]).toEqual(['libc6', 'libgcc-s1']);
    expect(calls.map((c) => c.slice(5, 7))).toEqual([
      ['depends', '--recurse'],
      ['show', '--no-all-versions'],
    ]);
    expect(calls[0]?.slice(1, 5).join(' ')).toMatch(/^-o Dir::Cache::pkgcache=.*pkgcache\.bin -o Dir::Cache::srcpkgcache=/);
    expect(calls[1]?.slice(7)).toEqual(['libc6', 'libgcc-s1']);
  });

  it('answers again from its cache until the apt lists change', async () => {
    const dir = scratchDir('apt-spec-');
    const { apt, calls } = fakeApt(dir);
    await apt.index(['libc6']);
    await apt.index(['libc6']);
    expect(calls).toHaveLength(2);
    const list = readdirSync(join(dir, 'lists'))[0] ?? '';
    utimesSync(join(dir, 'lists', list), new Date(1_000_000), new Date(1_000_000));
    await apt.index(['libc6']);
    expect(calls).toHaveLength(4);
  });
});

describe('Apt.download', () => {
  it('refuses a download whose SHA-256 is not the index one', async () => {
    const dir = scratchDir('apt-spec-');
    const exec: Exec = (_command, args, options) => {
      writeFileSync(join(options?.cwd ?? '', 'libc6_1_amd64.deb'), 'tampered');
      expect(args).toEqual(['-o', 'APT::Sandbox::User=root', '-q', 'download', 'libc6=1']);
      return Promise.resolve('');
    };
    const apt = new Apt({ aptCacheDir: join(dir, 'apt'), debCacheDir: join(dir, 'debs'), exec, root: true, stateDirs: [] });
    const pkg = { name: 'libc6', version: '1', architecture: 'amd64', file: 'libc6_1_amd64.deb', sha256: '0'.repeat(64), depends: [] };
    await expect(apt.download([pkg])).rejects.toThrow(/libc6_1_amd64.deb has SHA-256 \w+, the index says 0+/);
  });
});
