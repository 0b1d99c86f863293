import { open } from 'node:fs/promises';

/**
 * The last `lines` lines of `file` from byte `fromOffset` on (what one process wrote to a shared log), or an
 * explanatory line when the file cannot be read. Reads at most the last 1 MiB.
 */
export async function readLogTail(file: string, fromOffset: number, lines: number): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    return `(no log at ${file}: ${(err as Error).message})`;
  }
  try {
    const size = (await handle.stat()).size;
    const start = Math.max(fromOffset, size - 1024 * 1024);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    await handle.read(buffer, 0, buffer.length, start);
    return lastLines(buffer.toString('utf8'), lines);
  } finally {
    await handle.close();
  }
}

/** The last `count` non-empty-terminated lines of `text`. Pure. */
export function lastLines(text: string, count: number): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(-count).join('\n');
}
