import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** An OCI content digest: `sha256:` and 64 lowercase hex digits. */
export type Digest = `sha256:${string}`;

/** The lowercase hex SHA-256 of `data`. Pure. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The OCI digest of `data`. Pure. */
export function digestOf(data: Uint8Array | string): Digest {
  return `sha256:${sha256Hex(data)}`;
}

/** The 64 hex digits of a digest, e.g. for a blob's file name. Throws on anything but a sha256 digest. Pure. */
export function digestHex(digest: string): string {
  const match = /^sha256:([0-9a-f]{64})$/.exec(digest);
  if (match?.[1] === undefined) throw new Error(`not a sha256 digest: "${digest}"`);
  return match[1];
}

/** What hashing a file on disk found. */
export interface FileHash {
  readonly sha256: string;
  readonly size: number;
}

/** Hashes files on disk; see {@link fileHasher}. */
export type HashFile = (path: string) => Promise<FileHash>;

/**
 * A {@link HashFile} that remembers each file's hash for as long as its size, mtime, ctime and inode stay the
 * same, so one build run hashes a large input (the 130 MB Node binary three operator images share) once. With
 * `stampDir`, it also remembers across runs: one small `<sha256 of the path>.json` per file there (written
 * atomically), so a warm build reads no input in full. The in-run memory lives in the returned function.
 */
export function fileHasher(stampDir?: string): HashFile {
  const known = new Map<string, { stamp: string; hash: Promise<FileHash> }>();
  return async (path) => {
    const info = await stat(path);
    const stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}:${info.dev}`;
    const hit = known.get(path);
    if (hit?.stamp === stamp) return hit.hash;
    const hash = stampDir === undefined ? sha256File(path) : rememberedHash(stampDir, path, stamp);
    known.set(path, { stamp, hash });
    return hash;
  };
}

async function rememberedHash(stampDir: string, path: string, stamp: string): Promise<FileHash> {
  const record = join(stampDir, `${sha256Hex(path)}.json`);
  const saved = await readFile(record, 'utf8').then(
    (text) => JSON.parse(text) as { stamp?: string; sha256?: string; size?: number },
    () => undefined,
  );
  if (saved?.stamp === stamp && typeof saved.sha256 === 'string' && typeof saved.size === 'number') return { sha256: saved.sha256, size: saved.size };
  const hash = await sha256File(path);
  await mkdir(stampDir, { recursive: true });
  const tmp = `${record}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify({ path, stamp, ...hash }));
  await rename(tmp, record);
  return hash;
}

/** The SHA-256 and size of a file on disk, read as a stream. */
export async function sha256File(path: string): Promise<FileHash> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    size += bytes.byteLength;
    hash.update(bytes);
  }
  return { sha256: hash.digest('hex'), size };
}
