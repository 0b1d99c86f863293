import { createReadStream } from 'node:fs';

/**
 * Where a regular file's bytes come from: held in memory, or read from a file on disk when the tar is written
 * (its size is checked then, so a file that changed after planning fails the write instead of corrupting the tar).
 */
export type FileContent =
  | { readonly kind: 'bytes'; readonly data: Uint8Array }
  | { readonly kind: 'path'; readonly path: string; readonly size: number };

/** Fields every tar entry has. `path` is relative, `/`-separated, without a leading `./` or `/` or a trailing `/`. */
interface EntryBase {
  readonly path: string;
  readonly uid: number;
  readonly gid: number;
  /** Extended attributes written as PAX `SCHILY.xattr.<name>` records (e.g. `security.capability`). */
  readonly xattrs?: Readonly<Record<string, Uint8Array>>;
}

/** One member of a tar archive. Permission bits (`mode`, including setuid, setgid and sticky) are explicit. */
export type TarEntry =
  | (EntryBase & { readonly type: 'directory'; readonly mode: number })
  | (EntryBase & { readonly type: 'file'; readonly mode: number; readonly content: FileContent })
  | (EntryBase & { readonly type: 'symlink'; readonly target: string })
  | (EntryBase & { readonly type: 'hardlink'; readonly mode: number; readonly target: string });

/** The mtime of every entry: fixed, so the same entries always give the same bytes. */
export const TAR_MTIME = 0;

const BLOCK = 512;
const encoder = new TextEncoder();

/** The size of a file entry's content in bytes; 0 for every other type. Pure. */
export function entrySize(entry: TarEntry): number {
  if (entry.type !== 'file') return 0;
  return entry.content.kind === 'bytes' ? entry.content.data.byteLength : entry.content.size;
}

/** Zero bytes that pad `size` bytes of content up to a whole 512-byte block. Pure. */
export function padding(size: number): Uint8Array {
  return new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The two zero blocks that end a tar archive. */
export const TAR_END: Uint8Array = new Uint8Array(2 * BLOCK);

/**
 * The header block(s) of `entry`: a PAX extended header first when the path or link target does not fit the
 * 100-byte ustar fields, is not ASCII, or when the entry has xattrs; then the ustar header. Numeric fields are
 * octal, user and group names are empty (runtimes use the numeric ids), mtime is {@link TAR_MTIME}. Pure.
 */
export function encodeHeader(entry: TarEntry): Uint8Array {
  validatePath(entry.path);
  const name = entry.type === 'directory' ? `${entry.path}/` : entry.path;
  const link = entry.type === 'symlink' || entry.type === 'hardlink' ? entry.target : '';
  const pax: [string, Uint8Array][] = [];
  if (!fitsUstar(name)) pax.push(['path', encoder.encode(name)]);
  if (!fitsUstar(link)) pax.push(['linkpath', encoder.encode(link)]);
  for (const key of Object.keys(entry.xattrs ?? {}).sort()) {
    const value = entry.xattrs?.[key];
    if (value !== undefined) pax.push([`SCHILY.xattr.${key}`, value]);
  }
  const mode = entry.type === 'symlink' ? 0o777 : entry.mode;
  const typeflag = { file: '0', hardlink: '1', symlink: '2', directory: '5' }[entry.type];
  const header = ustarHeader({
    name: fitsUstar(name) ? name : asciiFallback(name),
    mode,
    uid: entry.uid,
    gid: entry.gid,
    size: entrySize(entry),
    typeflag,
    linkname: fitsUstar(link) ? link : asciiFallback(link),
  });
  if (pax.length === 0) return header;
  const records = paxRecords(pax);
  const paxHeader = ustarHeader({ name: asciiFallback(`PaxHeaders/${name}`), mode: 0o644, uid: 0, gid: 0, size: records.byteLength, typeflag: 'x', linkname: '' });
  return concat([paxHeader, records, padding(records.byteLength), header]);
}

/**
 * The bytes of a tar archive holding `entries` in the order given, ending with {@link TAR_END}. File contents
 * from disk are streamed; a file whose size differs from the planned one rejects the iteration.
 */
export async function* tarChunks(entries: Iterable<TarEntry> | AsyncIterable<TarEntry>): AsyncGenerator<Uint8Array> {
  for await (const entry of entries) {
    yield encodeHeader(entry);
    if (entry.type !== 'file') continue;
    const size = entrySize(entry);
    if (entry.content.kind === 'bytes') {
      yield entry.content.data;
    } else {
      let read = 0;
      for await (const chunk of createReadStream(entry.content.path)) {
        const bytes = chunk as Buffer;
        read += bytes.byteLength;
        if (read > size) break;
        yield bytes;
      }
      if (read !== size) {
        throw new Error(`tar: ${entry.content.path} is no longer the ${size} bytes planned (it changed while the tar was written)`);
      }
    }
    yield padding(size);
  }
  yield TAR_END;
}

/** Rejects paths a layer must not hold: absolute, with `.` or `..` or empty components, or with a NUL. Pure. */
function validatePath(path: string): void {
  if (path === '' || path.startsWith('/') || path.endsWith('/') || path.includes('\0')) throw new Error(`tar: invalid entry path "${path}"`);
  for (const part of path.split('/')) {
    if (part === '' || part === '.' || part === '..') throw new Error(`tar: invalid entry path "${path}"`);
  }
}

function fitsUstar(text: string): boolean {
  return encoder.encode(text).byteLength <= 100 && /^[\x20-\x7e]*$/.test(text);
}

/** A printable-ASCII stand-in of at most 100 bytes for a name carried in full by a PAX record. */
function asciiFallback(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '_').slice(-100);
}

/** PAX records `<len> <key>=<value>\n`, where `<len>` counts the whole record including its own digits. Pure. */
function paxRecords(records: readonly [string, Uint8Array][]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [key, value] of records) {
    const body = encoder.encode(` ${key}=`).byteLength + value.byteLength + 1;
    let length = body + String(body).length;
    if (String(length).length !== String(body).length) length = body + String(length).length;
    parts.push(encoder.encode(`${length} ${key}=`), value, encoder.encode('\n'));
  }
  return concat(parts);
}

interface UstarFields {
  readonly name: string;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
  readonly typeflag: string;
  readonly linkname: string;
}

function ustarHeader(fields: UstarFields): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const put = (offset: number, length: number, text: string): void => {
    const bytes = encoder.encode(text);
    if (bytes.byteLength > length) throw new Error(`tar: "${text}" does not fit a ${length}-byte header field`);
    block.set(bytes, offset);
  };
  const octal = (offset: number, length: number, value: number): void => {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`tar: ${value} is not a valid header number`);
    put(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
  };
  put(0, 100, fields.name);
  octal(100, 8, fields.mode);
  octal(108, 8, fields.uid);
  octal(116, 8, fields.gid);
  octal(124, 12, fields.size);
  octal(136, 12, TAR_MTIME);
  put(148, 8, '        ');
  put(156, 1, fields.typeflag);
  put(157, 100, fields.linkname);
  put(257, 6, 'ustar\0');
  put(263, 2, '00');
  octal(329, 8, 0);
  octal(337, 8, 0);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
