// Reads the testenv apiserver's audit log (JSON lines, Metadata level for writes) in integration tests. Not
// exported from the package.
import { readFile } from 'node:fs/promises';
import { ensureTestEnv } from '@domain-operators/testenv';

/** The fields of an audit event the tests look at. */
export interface AuditEntry {
  readonly verb: string;
  readonly stage?: string;
  readonly user?: { readonly username?: string };
  readonly objectRef?: {
    readonly resource?: string;
    readonly namespace?: string;
    readonly name?: string;
    readonly apiGroup?: string;
    readonly subresource?: string;
  };
  readonly responseStatus?: { readonly code?: number };
}

/** The path of the audit log, from the running testenv (`auditLog` in `.testenv/env.json`). */
export async function auditLogPath(): Promise<string> {
  const env = await ensureTestEnv(['apiserver']);
  return env.apiserver.auditLog;
}

/** Every completed request in the audit log that matches `filter`. */
export async function auditEntries(path: string, filter: (entry: AuditEntry) => boolean): Promise<AuditEntry[]> {
  const text = await readFile(path, 'utf8');
  const entries: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let entry: AuditEntry;
    try {
      entry = JSON.parse(line) as AuditEntry;
    } catch {
      continue; // a line being written right now
    }
    if (entry.stage === 'ResponseComplete' && filter(entry)) entries.push(entry);
  }
  return entries;
}

/** Write verbs as the audit log names them. */
export const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
