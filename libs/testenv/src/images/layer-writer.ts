import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import type { Digest } from './digest.ts';
import { tarChunks, type TarEntry } from './tar.ts';

/** The gzip level of every layer. Part of every layer's cache key: another level gives other bytes. */
export const GZIP_LEVEL = 6;

/** The digests and sizes of one written layer. */
export interface LayerDigests {
  /** The digest of the `tar+gzip` blob: what the manifest lists. */
  readonly digest: Digest;
  /** The digest of the uncompressed tar: the config's `rootfs.diff_ids` entry. */
  readonly diffId: Digest;
  /** Bytes of the compressed blob. */
  readonly size: number;
  /** Bytes of the uncompressed tar. */
  readonly tarSize: number;
}

/**
 * Writes `entries` (in the order given) as a gzip-compressed tar to `file` and returns its digests. With the same
 * entries the tar bytes are identical (fixed mtimes, numeric owners, no names); the gzip bytes are identical for
 * the same zlib and {@link GZIP_LEVEL} (the gzip header carries no name and mtime 0).
 */
export async function writeLayer(entries: Iterable<TarEntry> | AsyncIterable<TarEntry>, file: string): Promise<LayerDigests> {
  const tar = new HashingTap();
  const gz = new HashingTap();
  await pipeline(Readable.from(tarChunks(entries)), tar, createGzip({ level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY }), gz, createWriteStream(file));
  return { digest: gz.digest(), diffId: tar.digest(), size: gz.bytes, tarSize: tar.bytes };
}

/** A pass-through stream that hashes and counts what flows through it. */
class HashingTap extends Transform {
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.byteLength;
    callback(null, chunk);
  }

  digest(): Digest {
    return `sha256:${this.hash.digest('hex')}`;
  }
}
