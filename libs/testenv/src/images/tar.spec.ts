import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import { encodeHeader, tarChunks, type TarEntry } from './tar.ts';
import { readTar } from './tar-read.ts';

async function tarBytes(entries: TarEntry[]): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of tarChunks(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const bytes = (text: string): { kind: 'bytes'; data: Uint8Array } => ({ kind: 'bytes', data: Buffer.from(text) });
const longPath = `usr/share/doc/${'a-rather-long-directory-name/'.repeat(5)}file.txt`;
const entries: TarEntry[] = [
  { type: 'directory', path: 'bin', mode: 0o755, uid: 0, gid: 0 },
  { type: 'file', path: 'bin/su', mode: 0o4755, uid: 0, gid: 0, content: bytes('#!setuid') },
  { type: 'hardlink', path: 'bin/su2', mode: 0o4755, uid: 0, gid: 0, target: 'bin/su' },
  { type: 'symlink', path: 'bin/sh', target: '/bin/busybox', uid: 0, gid: 0 },
  { type: 'directory', path: 'var/log/redis', mode: 0o2750, uid: 999, gid: 4 },
  { type: 'file', path: longPath, mode: 0o644, uid: 0, gid: 0, content: bytes('long') },
  { type: 'file', path: 'etc/motd-é', mode: 0o644, uid: 0, gid: 0, content: bytes('') },
  { type: 'file', path: 'coredns', mode: 0o755, uid: 0, gid: 0, content: bytes('x'), xattrs: { 'security.capability': new Uint8Array([1, 0, 0, 2, 0]) } },
];

describe('tar writer', () => {
  it('round-trips types, modes, owners, long and non-ASCII names and xattrs', async () => {
    const read = readTar(await tarBytes(entries));
    expect(read.map((e) => [e.path, e.type, e.mode, e.uid, e.gid, e.mtime])).toEqual([
      ['bin', 'directory', 0o755, 0, 0, 0],
      ['bin/su', 'file', 0o4755, 0, 0, 0],
      ['bin/su2', 'hardlink', 0o4755, 0, 0, 0],
      ['bin/sh', 'symlink', 0o777, 0, 0, 0],
      ['var/log/redis', 'directory', 0o2750, 999, 4, 0],
      [longPath, 'file', 0o644, 0, 0, 0],
      ['etc/motd-é', 'file', 0o644, 0, 0, 0],
      ['coredns', 'file', 0o755, 0, 0, 0],
    ]);
    expect(read[2]?.target).toBe('bin/su');
    expect(read[3]?.target).toBe('/bin/busybox');
    expect(Buffer.from(read[5]?.data ?? []).toString()).toBe('long');
    expect([...(read[7]?.xattrs['security.capability'] ?? [])]).toEqual([1, 0, 0, 2, 0]);
  });

  it('writes the same bytes for the same entries', async () => {
    expect((await tarBytes(entries)).equals(await tarBytes(entries))).toBe(true);
  });

  it('is read by GNU tar with the same names, modes, owners and link targets', async () => {
    const dir = scratchDir('tar-spec-');
    writeFileSync(join(dir, 'a.tar'), await tarBytes(entries));
    const listing = execFileSync('tar', ['--numeric-owner', '-tvf', join(dir, 'a.tar')], { encoding: 'utf8' });
    expect(listing).toMatch(/^-rwsr-xr-x 0\/0 +8 1970-01-01 00:00 bin\/su$/m);
    expect(listing).toMatch(/^hrwsr-xr-x 0\/0 +0 1970-01-01 00:00 bin\/su2 link to bin\/su$/m);
    expect(listing).toMatch(/^lrwxrwxrwx 0\/0 +0 1970-01-01 00:00 bin\/sh -> \/bin\/busybox$/m);
    expect(listing).toMatch(/^drwxr-s--- 999\/4 +0 1970-01-01 00:00 var\/log\/redis\/$/m);
    expect(listing).toContain(longPath);
  });

  it('rejects paths a layer must not hold', () => {
    for (const path of ['/etc/passwd', 'etc/../passwd', 'etc//passwd', 'etc/', '']) {
      expect(() => encodeHeader({ type: 'directory', path, mode: 0o755, uid: 0, gid: 0 })).toThrow(/invalid entry path/);
    }
  });

  it('fails when a file on disk no longer has the planned size', async () => {
    const dir = scratchDir('tar-spec-');
    writeFileSync(join(dir, 'f'), 'four');
    const stale: TarEntry[] = [{ type: 'file', path: 'f', mode: 0o644, uid: 0, gid: 0, content: { kind: 'path', path: join(dir, 'f'), size: 3 } }];
    await expect(tarBytes(stale)).rejects.toThrow(/no longer the 3 bytes planned/);
  });
});

describe('readTar', () => {
  it('reads GNU long names and POSIX prefixes written by GNU tar', () => {
    const dir = scratchDir('tar-spec-');
    const deep = join(dir, 'src', 'x'.repeat(90), 'y'.repeat(60));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'file'), 'hello');
    for (const format of ['gnu', 'ustar', 'posix']) {
      execFileSync('tar', [`--format=${format}`, '-cf', join(dir, `${format}.tar`), '-C', join(dir, 'src'), '.']);
      const read = readTar(readFileSync(join(dir, `${format}.tar`)));
      const file = read.find((e) => e.path.endsWith('/file'));
      expect(file?.path).toBe(`${'x'.repeat(90)}/${'y'.repeat(60)}/file`);
      expect(Buffer.from(file?.data ?? []).toString()).toBe('hello');
    }
  });

  it('rejects a corrupted header', async () => {
    const tar = await tarBytes(entries.slice(0, 1));
    tar[0] = 0x41;
    expect(() => readTar(tar)).toThrow(/bad header checksum/);
  });
});
