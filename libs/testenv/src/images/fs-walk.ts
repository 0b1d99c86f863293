import type { Stats } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { compareBytes } from './layer-entries.ts';
import type { TarEntry } from './tar.ts';

/**
 * Every file, directory, symlink and hard link below `root` (not `root` itself) as tar entries with the owner,
 * group and permission bits (setuid, setgid, sticky included) found on disk, sorted byte-wise by path. Of the
 * paths sharing one inode, the first in that order is the regular file and the others hard links to it; file
 * contents are read from disk when the tar is written. Throws on device nodes, FIFOs and sockets (no package
 * the images use ships one).
 */
export async function walkTree(root: string): Promise<TarEntry[]> {
  const found: { path: string; abs: string; info: Stats }[] = [];
  const visit = async (rel: string): Promise<void> => {
    for (const name of await readdir(join(root, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const abs = join(root, path);
      const info = await lstat(abs);
      found.push({ path, abs, info });
      if (info.isDirectory()) await visit(path);
    }
  };
  await visit('');
  found.sort((a, b) => compareBytes(a.path, b.path));

  const firstOfInode = new Map<string, string>();
  const entries: TarEntry[] = [];
  for (const { path, abs, info } of found) {
    const owner = { uid: info.uid, gid: info.gid };
    const mode = info.mode & 0o7777;
    if (info.isDirectory()) {
      entries.push({ type: 'directory', path, mode, ...owner });
    } else if (info.isSymbolicLink()) {
      entries.push({ type: 'symlink', path, target: await readlink(abs), ...owner });
    } else if (info.isFile()) {
      const inode = `${info.dev}:${info.ino}`;
      const first = info.nlink > 1 ? firstOfInode.get(inode) : undefined;
      if (first !== undefined) {
        entries.push({ type: 'hardlink', path, target: first, mode, ...owner });
      } else {
        if (info.nlink > 1) firstOfInode.set(inode, path);
        entries.push({ type: 'file', path, mode, ...owner, content: { kind: 'path', path: abs, size: info.size } });
      }
    } else {
      throw new Error(`layer: ${abs} is neither a file, a directory nor a symlink`);
    }
  }
  return entries;
}
