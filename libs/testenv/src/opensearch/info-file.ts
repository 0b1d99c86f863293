import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OpenSearchInfo } from '../env-file.ts';

/** Reads the stored OpenSearchInfo; `undefined` when absent or not a usable info. */
export async function readInfo(file: string): Promise<OpenSearchInfo | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  return isOpenSearchInfo(parsed) ? parsed : undefined;
}

/** Writes the info atomically with mode 0600 (it holds the admin password). */
export async function writeInfo(file: string, info: OpenSearchInfo): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, file);
}

function isOpenSearchInfo(value: unknown): value is OpenSearchInfo {
  if (!isRecord(value) || !isRecord(value['adminUser'])) return false;
  const admin = value['adminUser'];
  return (
    typeof value['url'] === 'string' &&
    typeof value['version'] === 'string' &&
    typeof value['ism'] === 'boolean' &&
    typeof admin['username'] === 'string' &&
    typeof admin['password'] === 'string'
  );
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}
