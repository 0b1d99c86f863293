import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import { walkTree } from './fs-walk.ts';

describe('walkTree', () => {
  it('lists files, directories, symlinks and hard links with their modes, sorted', async () => {
    const root = scratchDir('walk-spec-');
    mkdirSync(join(root, 'var/log/redis'), { recursive: true });
    chmodSync(join(root, 'var/log/redis'), 0o2750);
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'bin/b'), 'x');
    chmodSync(join(root, 'bin/b'), 0o4755);
    linkSync(join(root, 'bin/b'), join(root, 'bin/a'));
    symlinkSync('a', join(root, 'bin/sh'));
    const entries = await walkTree(root);
    expect(entries.map((e) => [e.path, e.type])).toEqual([
      ['bin', 'directory'],
      ['bin/a', 'file'],
      ['bin/b', 'hardlink'],
      ['bin/sh', 'symlink'],
      ['var', 'directory'],
      ['var/log', 'directory'],
      ['var/log/redis', 'directory'],
    ]);
    expect(entries[1]).toMatchObject({ mode: 0o4755, content: { kind: 'path', size: 1 } });
    expect(entries[2]).toMatchObject({ target: 'bin/a', mode: 0o4755 });
    expect(entries[3]).toMatchObject({ target: 'a' });
    expect(entries[6]).toMatchObject({ mode: 0o2750 });
  });

  it('refuses what a layer cannot hold', async () => {
    const root = scratchDir('walk-spec-');
    execFileSync('mkfifo', [join(root, 'fifo')]);
    await expect(walkTree(root)).rejects.toThrow(/neither a file, a directory nor a symlink/);
  });
});
