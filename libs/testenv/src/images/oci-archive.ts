import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { digestHex } from './digest.ts';
import { normalizeEntries } from './layer-entries.ts';
import { OCI_LAYOUT, type Blob, type Descriptor } from './oci-documents.ts';
import { tarChunks, type FileContent, type TarEntry } from './tar.ts';

/** A layer blob on disk. */
export interface LayerBlob {
  readonly descriptor: Descriptor;
  /** Path of the `tar+gzip` file. */
  readonly file: string;
}

/** What one OCI archive holds. */
export interface ArchiveContent {
  readonly index: Blob;
  readonly manifest: Blob;
  readonly config: Blob;
  readonly layers: readonly LayerBlob[];
}

/**
 * The tar entries of an OCI image layout: `blobs/sha256/<hex>` for the config, the manifest and each layer (one
 * copy of a blob two layers share), `index.json` and `oci-layout`, sorted, `0644 root:root`. Pure.
 */
export function archiveEntries(content: ArchiveContent): TarEntry[] {
  const blobs = new Map<string, TarEntry>();
  const put = (descriptor: Descriptor, data: FileContent): void => {
    const path = `blobs/sha256/${digestHex(descriptor.digest)}`;
    blobs.set(path, { type: 'file', path, mode: 0o644, uid: 0, gid: 0, content: data });
  };
  put(content.config.descriptor, { kind: 'bytes', data: content.config.bytes });
  put(content.manifest.descriptor, { kind: 'bytes', data: content.manifest.bytes });
  for (const layer of content.layers) put(layer.descriptor, { kind: 'path', path: layer.file, size: layer.descriptor.size });
  const file = (path: string, data: Uint8Array): TarEntry => ({ type: 'file', path, mode: 0o644, uid: 0, gid: 0, content: { kind: 'bytes', data } });
  return normalizeEntries([...blobs.values(), file('index.json', content.index.bytes), file('oci-layout', Buffer.from(OCI_LAYOUT))]);
}

/**
 * Writes the OCI archive (an uncompressed tar of an OCI image layout, the format `ctr images import` reads) to
 * `file`, through a temporary file renamed into place, so a reader never sees half an archive.
 */
export async function writeOciArchive(file: string, content: ArchiveContent): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await pipeline(Readable.from(tarChunks(archiveEntries(content))), createWriteStream(tmp));
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
}
