import { sha256Hex, type HashFile } from './digest.ts';
import type { LayerSource, PlannedLayer } from './image-definition.ts';
import { layerKey } from './layer-cache.ts';
import { compareBytes, layerPath, normalizeEntries } from './layer-entries.ts';
import type { TarEntry } from './tar.ts';

/** Owner, group and permission bits of one item of a {@link FileLayerSpec}. */
export interface Ownership {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/** An item of a {@link FileLayerSpec}; `path` is the absolute path in the image. */
export type LayerItem =
  | (Ownership & { readonly type: 'file'; readonly path: string; readonly source: string; readonly xattrs?: Readonly<Record<string, Uint8Array>> })
  | (Ownership & { readonly type: 'bytes'; readonly path: string; readonly data: Uint8Array })
  | (Ownership & { readonly type: 'directory'; readonly path: string })
  | { readonly type: 'symlink'; readonly path: string; readonly target: string };

/** A layer made of local files, literal contents, directories and symlinks. */
export interface FileLayerSpec {
  /** For the CLI, e.g. `node 24.9.0`. */
  readonly description: string;
  readonly items: readonly LayerItem[];
}

/**
 * The {@link LayerSource} of a file layer. Its key covers, for every item, the target path, type, mode, owner,
 * group, xattrs and the SHA-256 of its content (files on disk are hashed through `tools.hashFile`), never the
 * source path or its timestamps: moving an input does not rebuild the layer, changing one byte does. Parent
 * directories that are not items are added as `0755 root:root`.
 */
export function fileLayer(spec: FileLayerSpec): LayerSource {
  return {
    async plan(tools): Promise<PlannedLayer> {
      const { entries, key } = await planItems(spec.items, tools.hashFile);
      const sorted = normalizeEntries(entries);
      return {
        key: layerKey({ kind: 'files', items: key }),
        description: spec.description,
        packages: new Map(),
        withEntries: (use) => use(sorted),
      };
    },
  };
}

/** The tar entries of `items` (in the order given) and the part of a layer key that describes them. */
export interface PlannedItems {
  readonly entries: readonly TarEntry[];
  /** One record per item, sorted by path: path, type, mode, owner, group, xattrs, content SHA-256 or link target. */
  readonly key: readonly unknown[];
}

/** Turns items into tar entries and key records, hashing files on disk through `hashFile`. */
export async function planItems(items: readonly LayerItem[], hashFile: HashFile): Promise<PlannedItems> {
  const entries: TarEntry[] = [];
  const keyed: (Readonly<Record<string, unknown>> & { readonly path: string })[] = [];
  for (const item of items) {
    const path = layerPath(item.path);
    switch (item.type) {
      case 'file': {
        const { sha256, size } = await hashFile(item.source);
        const xattrs = item.xattrs ?? {};
        entries.push({ type: 'file', path, mode: item.mode, uid: item.uid, gid: item.gid, xattrs, content: { kind: 'path', path: item.source, size } });
        keyed.push({ path, type: 'file', sha256, mode: item.mode, uid: item.uid, gid: item.gid, xattrs: xattrKey(xattrs) });
        break;
      }
      case 'bytes':
        entries.push({ type: 'file', path, mode: item.mode, uid: item.uid, gid: item.gid, content: { kind: 'bytes', data: item.data } });
        keyed.push({ path, type: 'file', sha256: sha256Hex(item.data), mode: item.mode, uid: item.uid, gid: item.gid, xattrs: {} });
        break;
      case 'directory':
        entries.push({ type: 'directory', path, mode: item.mode, uid: item.uid, gid: item.gid });
        keyed.push({ path, type: 'directory', mode: item.mode, uid: item.uid, gid: item.gid });
        break;
      case 'symlink':
        entries.push({ type: 'symlink', path, target: item.target, uid: 0, gid: 0 });
        keyed.push({ path, type: 'symlink', target: item.target });
        break;
    }
  }
  return { entries, key: keyed.sort((a, b) => compareBytes(a.path, b.path)) };
}

/** Xattr values as hex, for the key. Pure. */
export function xattrKey(xattrs: Readonly<Record<string, Uint8Array>>): Record<string, string> {
  return Object.fromEntries(Object.entries(xattrs).map(([name, value]) => [name, Buffer.from(value).toString('hex')]));
}
