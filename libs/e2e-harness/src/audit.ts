// Counting the apiserver writes of one identity in testenv's audit log (JSON lines, Metadata level, writes only), for
// the operators' benchmarks and tests that prove an operator writes nothing at steady state.
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
  /** When the apiserver received it (RFC 3339, microseconds). */
  readonly at?: string;
}

interface AuditLine {
  readonly verb?: string;
  readonly stage?: string;
  readonly requestReceivedTimestamp?: string;
  readonly user?: { readonly username?: string };
  readonly objectRef?: { readonly resource?: string; readonly subresource?: string; readonly namespace?: string; readonly name?: string };
}

/** The current size of the audit log: where a later {@link writesSince} starts reading. */
export async function auditOffset(path: string): Promise<number> {
  return (await stat(path)).size;
}

/**
 * The completed write requests of `username` (of anyone when `undefined`) appended to the audit log after byte
 * `offset` (and before byte `end`, default the current end). A line still being written is skipped. When the
 * apiserver rotated the log since `offset` (at 100 MB by default), the rest of the rotated file is read too, and
 * `end` is ignored.
 */
export async function writesSince(path: string, offset: number, username: string | undefined, end?: number): Promise<AuditWrite[]> {
  const size = (await stat(path)).size;
  if (size >= offset) return parseWrites(await readFrom(path, offset, end), username);
  const rotated = await newestRotation(path);
  const before = rotated === undefined ? '' : await readFrom(rotated, offset);
  return parseWrites(`${before}\n${await readFrom(path, 0)}`, username);
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
      ...(entry.requestReceivedTimestamp !== undefined && { at: entry.requestReceivedTimestamp }),
    });
  }
  return writes;
}

/** `writes` counted by `verb resource[/subresource]`. Pure. */
export function countWrites(writes: readonly AuditWrite[]): Record<string, number> {
  return countBy(writes, (w) => `${w.verb} ${w.resource}${w.subresource === undefined ? '' : `/${w.subresource}`}`);
}

/** `writes` counted by the object they wrote: `verb resource[/subresource] namespace/name`. Pure. */
export function countWritesByObject(writes: readonly AuditWrite[]): Record<string, number> {
  return countBy(writes, (w) => `${w.verb} ${w.resource}${w.subresource === undefined ? '' : `/${w.subresource}`} ${w.namespace ?? ''}/${w.name ?? ''}`);
}

function countBy(writes: readonly AuditWrite[], keyOf: (w: AuditWrite) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of writes) counts[keyOf(w)] = (counts[keyOf(w)] ?? 0) + 1;
  return counts;
}

async function readFrom(path: string, offset: number, end?: number): Promise<string> {
  const file = await open(path, 'r');
  try {
    const size = Math.min(end ?? Number.POSITIVE_INFINITY, (await file.stat()).size);
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
