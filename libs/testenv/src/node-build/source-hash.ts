import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One input of {@link hashSources}: a path relative to the module and the file's bytes. */
export interface SourceFile {
  readonly path: string;
  readonly content: Uint8Array;
}

/**
 * A 16-hex-digit SHA-256 digest of `files`, independent of their order. Each file contributes its path and
 * length as well as its bytes, so moving bytes from one file to the next changes the digest. Pure.
 */
export function hashSources(files: readonly SourceFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${file.path}\0${file.content.byteLength}\0`);
    hash.update(file.content);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The cache key of a program of ours: {@link hashSources} over the `.go` files of `<moduleDir>/<packageDir>`
 * (not its tests, not sub-folders) and the module's `go.mod` and `go.sum`, which fix every dependency version.
 * Throws when a file cannot be read.
 */
export async function packageSourceHash(moduleDir: string, packageDir: string): Promise<string> {
  const entries = await readdir(join(moduleDir, packageDir), { withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.go') && !entry.name.endsWith('_test.go'))
    .map((entry) => join(packageDir, entry.name));
  paths.push('go.mod', 'go.sum');
  const files = await Promise.all(
    paths.map(async (path) => ({ path, content: await readFile(join(moduleDir, path)) })),
  );
  return hashSources(files);
}
