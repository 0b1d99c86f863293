/**
 * Writing a backup file into a claim so that no reader ever sees half of it under its final name and no existing
 * file is ever replaced: the bytes go to `<final>.partial` (digested on the way), are fsynced, and the file is then
 * published with link(2), which fails with EEXIST when the name is taken; the partial name is unlinked and the
 * directory fsynced. A crash leaves at most a `.partial` file, never a short file under the final name.
 */
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { link, mkdir, open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Suffix of the file being written. */
export const PARTIAL_SUFFIX = '.partial';

/** The final name is taken: nothing was written over it. */
export class FileExistsError extends Error {
  override readonly name = 'FileExistsError';
}

/** Writing to the claim failed (EACCES, EROFS, ENOSPC, EIO…): the destination's failure, not the source's. */
export class DiskError extends Error {
  override readonly name = 'DiskError';
}

/** Size and SHA-256 of a file's bytes. */
export interface FileDigest {
  readonly sizeBytes: number;
  readonly sha256: string;
}

/** Files are readable by their owner and group (the members' fsGroup), directories likewise. */
const FILE_MODE = 0o640;
const DIR_MODE = 0o750;

function isErrno(err: unknown, code: string): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === code;
}

/** True when `path` exists (any file type). */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return false;
    throw err;
  }
}

/** Size and SHA-256 of the file at `path`, read as a stream. */
export async function digestFile(path: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    sizeBytes += bytes.length;
  }
  return { sizeBytes, sha256: hash.digest('hex') };
}

async function fsyncDir(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A file opened for the backup: {@link PartialFile.write} streams into it, then {@link PartialFile.publish}. */
export interface PartialFile {
  /** Writes every byte of `body` to the partial file, digesting them; rejects with `body`'s error or a {@link DiskError}. */
  write(body: Readable): Promise<FileDigest>;
  /** fsyncs, links the partial file to the final name (rejects with {@link FileExistsError} when taken), unlinks it. */
  publish(): Promise<void>;
  /** Closes and removes the partial file; never rejects. */
  discard(): Promise<void>;
}

/**
 * Creates the directories of `finalPath` and opens `<finalPath>.partial` (truncating one a killed run left), after
 * checking that `finalPath` is free. Rejects with {@link FileExistsError} when it is taken, with the file system's
 * error (EACCES, EROFS, ENOSPC…) when the claim cannot be written. Opening first means an unwritable claim fails
 * before anything is asked of Redis.
 */
export async function openPartial(finalPath: string): Promise<PartialFile> {
  const dir = dirname(finalPath);
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (await exists(finalPath)) throw new FileExistsError(`${finalPath} already exists`);
  const partialPath = `${finalPath}${PARTIAL_SUFFIX}`;
  const handle = await open(partialPath, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, FILE_MODE);
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    async write(body) {
      const hash = createHash('sha256');
      let sizeBytes = 0;
      let position = 0;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          sizeBytes += chunk.length;
          const at = position;
          position += chunk.length;
          writeAll(chunk, at).then(
            () => {
              callback();
            },
            (err: unknown) => {
              callback(new DiskError(`writing ${partialPath} failed: ${(err as Error).message}`, { cause: err }));
            },
          );
        },
      });
      const writeAll = async (chunk: Buffer, at: number): Promise<void> => {
        let done = 0;
        while (done < chunk.length) {
          const { bytesWritten } = await handle.write(chunk, done, chunk.length - done, at + done);
          done += bytesWritten;
        }
      };
      await pipeline(body, sink);
      return { sizeBytes, sha256: hash.digest('hex') };
    },
    async publish() {
      await handle.sync();
      await close();
      try {
        await link(partialPath, finalPath);
      } catch (err) {
        await unlink(partialPath).catch(() => undefined);
        if (isErrno(err, 'EEXIST')) throw new FileExistsError(`${finalPath} already exists`, { cause: err });
        throw err;
      }
      await unlink(partialPath);
      await fsyncDir(dir);
    },
    async discard() {
      await close().catch(() => undefined);
      await unlink(partialPath).catch(() => undefined);
    },
  };
}
