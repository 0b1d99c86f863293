import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import type { DebPackage } from './deb-control.ts';
import { debianLayer, type DebianLayerSpec } from './debian-layer.ts';
import { fileHasher, sha256Hex } from './digest.ts';
import { execFileCapture } from './exec.ts';
import type { PackageSource, PlanTools } from './image-definition.ts';
import type { TarEntry } from './tar.ts';

const isRoot = process.getuid?.() === 0;

/** A real `.deb` built with dpkg-deb from `files` (path → content), and its index entry. */
function buildDeb(dir: string, name: string, files: Record<string, string>, depends = ''): { pkg: DebPackage; path: string } {
  const root = join(dir, `${name}-root`);
  mkdirSync(join(root, 'DEBIAN'), { recursive: true });
  writeFileSync(join(root, 'DEBIAN', 'control'), `Package: ${name}\nVersion: 1.0-1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n${depends === '' ? '' : `Depends: ${depends}\n`}`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const path = join(dir, `${name}_1.0-1_all.deb`);
  execFileSync('dpkg-deb', ['--root-owner-group', '--build', root, path], { stdio: 'ignore' });
  const deps = depends === '' ? [] : depends.split(',').map((d) => [d.trim()]);
  return { pkg: { name, version: '1.0-1', architecture: 'all', file: `${name}_1.0-1_all.deb`, sha256: sha256Hex(readFileSync(path)), depends: deps }, path };
}

function toolsFor(debs: { pkg: DebPackage; path: string }[]): PlanTools {
  const apt: PackageSource = {
    index: () => Promise.resolve(new Map(debs.map((d) => [d.pkg.name, d.pkg]))),
    download: (packages) => Promise.resolve(new Map(packages.map((p) => [p.name, debs.find((d) => d.pkg.name === p.name)?.path ?? '']))),
  };
  return { hashFile: fileHasher(), apt, exec: execFileCapture, isRoot };
}

const spec: DebianLayerSpec = {
  description: 'test',
  packages: ['app'],
  caBundle: true,
  items: [{ type: 'bytes', path: '/etc/passwd', data: Buffer.from('root:x:0:0::/root:/sbin/nologin\n'), mode: 0o644, uid: 0, gid: 0 }],
  adjustments: [{ path: '/etc/app.conf', mode: 0o640, uid: 999, gid: 999 }],
};

describe('debianLayer', () => {
  it('keys on the packages resolved, before anything is unpacked', async () => {
    const dir = scratchDir('deb-layer-');
    const debs = [buildDeb(dir, 'app', { 'etc/app.conf': 'x' }, 'certs'), buildDeb(dir, 'certs', { 'usr/share/ca-certificates/m/a.crt': 'A' })];
    const planned = await debianLayer(spec).plan({ ...toolsFor(debs), exec: () => Promise.reject(new Error('must not unpack while planning')) });
    expect([...planned.packages]).toEqual([['app', '1.0-1'], ['certs', '1.0-1']]);
    const other = [debs[0]!, buildDeb(dir, 'certs', { 'usr/share/ca-certificates/m/a.crt': 'B' })];
    expect((await debianLayer(spec).plan(toolsFor(other))).key).not.toBe(planned.key);
  });

  it.skipIf(!isRoot)('unpacks the closure, applies adjustments and items and writes the CA bundle (needs root)', async () => {
    const dir = scratchDir('deb-layer-');
    const debs = [buildDeb(dir, 'app', { 'etc/app.conf': 'x' }, 'certs'), buildDeb(dir, 'certs', { 'usr/share/ca-certificates/m/a.crt': 'A' })];
    const planned = await debianLayer(spec).plan(toolsFor(debs));
    const entries = await planned.withEntries((e) => Promise.resolve(e));
    const byPath = new Map<string, TarEntry>(entries.map((e) => [e.path, e]));
    expect(byPath.get('etc/app.conf')).toMatchObject({ mode: 0o640, uid: 999, gid: 999 });
    const bundle = byPath.get('etc/ssl/certs/ca-certificates.crt');
    expect(bundle?.type === 'file' && bundle.content.kind === 'bytes' ? Buffer.from(bundle.content.data).toString() : '').toBe('A\n');
    expect(byPath.get('etc/passwd')).toMatchObject({ type: 'file', content: { kind: 'bytes' } });
    expect(byPath.get('usr/share/ca-certificates/m/a.crt')).toMatchObject({ uid: 0, gid: 0, mode: 0o644 });
  });
});
