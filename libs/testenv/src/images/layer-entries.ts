import type { TarEntry } from './tar.ts';

/** Mode, owner and group of the parent directories {@link normalizeEntries} adds: `0755 root:root`. */
const IMPLICIT_PARENT = { mode: 0o755, uid: 0, gid: 0 } as const;

/** `/usr/bin/x/`, `./usr/bin/x` and `usr//bin/x` all become `usr/bin/x`; `/` becomes `''`. Pure. */
export function layerPath(path: string): string {
  return path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/** Byte-wise order of UTF-8 strings (the C locale's order), independent of the host's locale. Pure. */
export function compareBytes(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

/**
 * The entries of one layer in their canonical order: sorted by path byte-wise (so a directory precedes what it
 * holds and a hard link's target, the first of its group, precedes the link), with every missing parent
 * directory added as `0755 root:root`. Throws on two entries with one path and on a hard link whose target is
 * not an earlier regular file of the layer. Pure.
 */
export function normalizeEntries(entries: Iterable<TarEntry>): TarEntry[] {
  const byPath = new Map<string, TarEntry>();
  for (const entry of entries) {
    const path = layerPath(entry.path);
    if (path === '') continue;
    if (byPath.has(path)) throw new Error(`layer: two entries for /${path}`);
    byPath.set(path, entry.type === 'hardlink' ? { ...entry, path, target: layerPath(entry.target) } : { ...entry, path });
  }
  for (const path of [...byPath.keys()]) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      const existing = byPath.get(parent);
      if (existing === undefined) byPath.set(parent, { type: 'directory', path: parent, ...IMPLICIT_PARENT });
      else if (existing.type !== 'directory') throw new Error(`layer: /${parent} is a ${existing.type} but /${path} is below it`);
    }
  }
  const sorted = [...byPath.values()].sort((a, b) => compareBytes(a.path, b.path));
  const seen = new Set<string>();
  for (const entry of sorted) {
    if (entry.type === 'hardlink') {
      const target = byPath.get(entry.target);
      if (target?.type !== 'file' || !seen.has(entry.target)) {
        throw new Error(`layer: hard link /${entry.path} must point to an earlier regular file, not /${entry.target}`);
      }
    }
    seen.add(entry.path);
  }
  return sorted;
}
