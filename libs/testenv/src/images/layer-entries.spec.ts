import { describe, expect, it } from 'vitest';
import { compareBytes, layerPath, normalizeEntries } from './layer-entries.ts';
import type { TarEntry } from './tar.ts';

const file = (path: string): TarEntry => ({ type: 'file', path, mode: 0o644, uid: 0, gid: 0, content: { kind: 'bytes', data: new Uint8Array() } });

describe('normalizeEntries', () => {
  it('sorts byte-wise and adds missing parents as 0755 root:root', () => {
    const sorted = normalizeEntries([file('usr/bin/b'), file('usr/bin/B'), file('usr/bin-x'), { type: 'directory', path: '/usr/', mode: 0o700, uid: 0, gid: 0 }]);
    expect(sorted.map((e) => e.path)).toEqual(['usr', 'usr/bin', 'usr/bin-x', 'usr/bin/B', 'usr/bin/b']);
    expect(sorted[0]).toMatchObject({ type: 'directory', mode: 0o700 });
    expect(sorted[1]).toMatchObject({ type: 'directory', mode: 0o755, uid: 0, gid: 0 });
  });

  it('keeps a parent before its children although `-` sorts before `/`', () => {
    const paths = normalizeEntries([file('a-b'), file('a/c')]).map((e) => e.path);
    expect(paths.indexOf('a')).toBeLessThan(paths.indexOf('a/c'));
  });

  it('rejects two entries for a path, a file with children and a hard link before its target', () => {
    expect(() => normalizeEntries([file('etc/x'), file('/etc/x')])).toThrow(/two entries for \/etc\/x/);
    expect(() => normalizeEntries([file('etc'), file('etc/x')])).toThrow(/is a file/);
    const link: TarEntry = { type: 'hardlink', path: 'a', target: 'b', mode: 0o644, uid: 0, gid: 0 };
    expect(() => normalizeEntries([link, file('b')])).toThrow(/earlier regular file/);
    expect(normalizeEntries([{ ...link, path: 'c' }, file('b')]).map((e) => e.path)).toEqual(['b', 'c']);
  });
});

describe('layerPath and compareBytes', () => {
  it('normalise paths and order like the C locale', () => {
    expect(layerPath('/usr//bin/./x/')).toBe('usr/bin/x');
    expect(layerPath('/')).toBe('');
    expect(['b', 'B', 'a', 'é'].sort(compareBytes)).toEqual(['B', 'a', 'b', 'é']);
  });
});
