// Counting the apiserver writes of one identity in testenv's audit log (JSON lines, Metadata level, writes only).
// The same reading as the Kafka operator's benchmark (operators/kafka/bench/audit.ts); operators do not import each other.
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** One completed write request, as the audit log names it. */
export interface AuditWrite {
  /** Who wrote. */
  readonly username: string;
  readonly verb: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

interface AuditLine {
  readonly verb?: string;
  readonly stage?: string;
  readonly user?: { readonly username?: string };
  readonly objectRef?: { readonly resource?: string; readonly subresource?: string; readonly namespace?: string; readonly name?: string };
}

/** The current size of the audit log: where a later {@link writesSince} starts reading. */
export async function auditOffset(path: string): Promise<number> {
  return (await stat(path)).size;
}

/**
 * The completed write requests of `username` (of anyone when `undefined`) appended to the audit log after byte
 * `offset`. A line being written is skipped.
 */
export async function writesSince(path: string, offset: number, username: string | undefined): Promise<AuditWrite[]> {
  const size = (await stat(path)).size;
  if (size >= offset) return parseWrites(await readFrom(path, offset), username);
  // The apiserver rotated the log (at 100 MB by default): the rest of the rotated file, then the new one.
  const rotated = await newestRotation(path);
  const before = rotated === undefined ? '' : await readFrom(rotated, offset);
  return parseWrites(`${before}\n${await readFrom(path, 0)}`, username);
}

async function readFrom(path: string, offset: number): Promise<string> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    const buffer = Buffer.alloc(Math.max(0, size - offset));
    await file.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    await file.close();
  }
}

/** The newest file the apiserver's rotation made of `path` (`audit.log` → `audit-<timestamp>.log`), if any. */
async function newestRotation(path: string): Promise<string | undefined> {
  const ext = extname(path);
  const stem = `${basename(path, ext)}-`;
  const rotated = (await readdir(dirname(path))).filter((name) => name.startsWith(stem) && name.endsWith(ext));
  let newest: { readonly file: string; readonly mtimeMs: number } | undefined;
  for (const name of rotated) {
    const file = join(dirname(path), name);
    const { mtimeMs } = await stat(file);
    if (newest === undefined || mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest?.file;
}

/** The completed writes of `username` (of anyone when `undefined`) in audit-log text (one JSON event a line). Pure. */
export function parseWrites(text: string, username: string | undefined): AuditWrite[] {
  const writes: AuditWrite[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: AuditLine;
    try {
      entry = JSON.parse(line) as AuditLine;
    } catch {
      continue;
    }
    if (entry.stage !== 'ResponseComplete' || (username !== undefined && entry.user?.username !== username) || !WRITE_VERBS.has(entry.verb ?? '')) continue;
    const ref = entry.objectRef ?? {};
    writes.push({
      username: entry.user?.username ?? '',
      verb: entry.verb ?? '',
      resource: ref.resource ?? '',
      ...(ref.subresource !== undefined && { subresource: ref.subresource }),
      ...(ref.namespace !== undefined && { namespace: ref.namespace }),
      ...(ref.name !== undefined && { name: ref.name }),
    });
  }
  return writes;
}

/** `writes` counted by `verb resource[/subresource]`. Pure. */
export function countWrites(writes: readonly AuditWrite[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of writes) {
    const what = `${w.verb} ${w.resource}${w.subresource === undefined ? '' : `/${w.subresource}`}`;
    counts[what] = (counts[what] ?? 0) + 1;
  }
  return counts;
}
