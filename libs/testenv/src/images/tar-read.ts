/** One member of a tar archive as read back, with its content as a view into the archive's bytes. */
export interface ReadTarEntry {
  /** The path without a trailing `/`; a leading `./` is removed. */
  readonly path: string;
  readonly type: 'file' | 'hardlink' | 'symlink' | 'directory' | 'other';
  /** The raw ustar type flag, e.g. `0`, `5`, `3` (character device). */
  readonly typeflag: string;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly mtime: number;
  /** Link target for hard links and symlinks, else `''`. */
  readonly target: string;
  readonly data: Uint8Array;
  readonly xattrs: Readonly<Record<string, Uint8Array>>;
}

const BLOCK = 512;
const decoder = new TextDecoder();

/**
 * Every member of the uncompressed tar in `bytes`, in archive order. Understands ustar (with its name prefix),
 * PAX extended headers (`path`, `linkpath`, `size`, `SCHILY.xattr.*`; global headers are ignored) and GNU long
 * names (`L`, `K`), which is what `dpkg-deb`, GNU tar, Go and our writer produce. Throws on a bad checksum or a
 * truncated archive. Pure.
 */
export function readTar(bytes: Uint8Array): ReadTarEntry[] {
  const entries: ReadTarEntry[] = [];
  let offset = 0;
  let pax: Map<string, Uint8Array> | undefined;
  let longName: string | undefined;
  let longLink: string | undefined;
  while (offset + BLOCK <= bytes.byteLength) {
    const header = bytes.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    checkChecksum(header, offset);
    const typeflag = String.fromCharCode(header[156] ?? 0);
    const paxSize = pax?.get('size');
    const size = paxSize === undefined ? octal(header, 124, 12) : Number(decoder.decode(paxSize));
    const dataStart = offset + BLOCK;
    const data = bytes.subarray(dataStart, dataStart + size);
    if (data.byteLength !== size) throw new Error(`tar: truncated member at offset ${offset}`);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    switch (typeflag) {
      case 'x':
        pax = parsePax(data);
        continue;
      case 'g':
        continue;
      case 'L':
        longName = cString(data);
        continue;
      case 'K':
        longLink = cString(data);
        continue;
    }
    // Only POSIX ustar has a name prefix; GNU headers (magic `ustar  `) keep other fields there.
    const prefix = field(header, 257, 6) === 'ustar' && header[262] === 0 ? field(header, 345, 155) : '';
    const ustarName = field(header, 0, 100);
    const rawPath = pax?.has('path') === true ? decoder.decode(pax.get('path')) : (longName ?? (prefix === '' ? ustarName : `${prefix}/${ustarName}`));
    const target = pax?.has('linkpath') === true ? decoder.decode(pax.get('linkpath')) : (longLink ?? field(header, 157, 100));
    const xattrs: Record<string, Uint8Array> = {};
    for (const [key, value] of pax ?? []) if (key.startsWith('SCHILY.xattr.')) xattrs[key.slice('SCHILY.xattr.'.length)] = value;
    entries.push({
      path: rawPath.replace(/^\.\//, '').replace(/\/+$/, ''),
      type: typeOf(typeflag),
      typeflag,
      mode: octal(header, 100, 8),
      uid: octal(header, 108, 8),
      gid: octal(header, 116, 8),
      mtime: octal(header, 136, 12),
      target,
      data,
      xattrs,
    });
    pax = undefined;
    longName = undefined;
    longLink = undefined;
  }
  return entries;
}

function typeOf(flag: string): ReadTarEntry['type'] {
  switch (flag) {
    case '0':
    case '\0':
    case '7':
      return 'file';
    case '1':
      return 'hardlink';
    case '2':
      return 'symlink';
    case '5':
      return 'directory';
    default:
      return 'other';
  }
}

function checkChecksum(header: Uint8Array, offset: number): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  if (sum !== octal(header, 148, 8)) throw new Error(`tar: bad header checksum at offset ${offset}`);
}

function field(header: Uint8Array, start: number, length: number): string {
  return cString(header.subarray(start, start + length));
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function octal(header: Uint8Array, start: number, length: number): number {
  const text = field(header, start, length).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

/** PAX records `<len> <key>=<value>\n`; values are kept as bytes (xattr values are binary). */
function parsePax(data: Uint8Array): Map<string, Uint8Array> {
  const records = new Map<string, Uint8Array>();
  let offset = 0;
  while (offset < data.byteLength) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(decoder.decode(data.subarray(offset, space)));
    if (!Number.isInteger(length) || length <= 0) throw new Error('tar: malformed PAX record');
    const record = data.subarray(space + 1, offset + length - 1);
    const equals = record.indexOf(0x3d);
    records.set(decoder.decode(record.subarray(0, equals)), record.subarray(equals + 1));
    offset += length;
  }
  return records;
}
