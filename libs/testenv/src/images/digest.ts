import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

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
 * same, so one build run hashes a large input (the 130 MB Node binary three operator images share) once.
 * The memory lives in the returned function: one per build run, no module state.
 */
export function fileHasher(): HashFile {
  const known = new Map<string, { stamp: string; hash: Promise<FileHash> }>();
  return async (path) => {
    const info = await stat(path);
    const stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
    const hit = known.get(path);
    if (hit?.stamp === stamp) return hit.hash;
    const hash = sha256File(path);
    known.set(path, { stamp, hash });
    return hash;
  };
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
