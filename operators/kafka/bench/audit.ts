// Counting the apiserver writes of one identity in testenv's audit log (JSON lines, Metadata level, writes only).
import { open, stat } from 'node:fs/promises';

const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** One completed write request, as the audit log names it. */
export interface AuditWrite {
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

/** The completed write requests of `username` appended to the audit log after byte `offset`. A line being written is skipped. */
export async function writesSince(path: string, offset: number, username: string): Promise<AuditWrite[]> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    const buffer = Buffer.alloc(Math.max(0, size - offset));
    await file.read(buffer, 0, buffer.length, offset);
    const writes: AuditWrite[] = [];
    for (const line of buffer.toString('utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry: AuditLine;
      try {
        entry = JSON.parse(line) as AuditLine;
      } catch {
        continue;
      }
      if (entry.stage !== 'ResponseComplete' || entry.user?.username !== username || !WRITE_VERBS.has(entry.verb ?? '')) continue;
      const ref = entry.objectRef ?? {};
      writes.push({
        verb: entry.verb ?? '',
        resource: ref.resource ?? '',
        ...(ref.subresource !== undefined && { subresource: ref.subresource }),
        ...(ref.namespace !== undefined && { namespace: ref.namespace }),
        ...(ref.name !== undefined && { name: ref.name }),
      });
    }
    return writes;
  } finally {
    await file.close();
  }
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
