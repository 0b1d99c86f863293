import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { lastLines, readLogTail } from './log-tail.ts';

describe('lastLines', () => {
  it('returns the last lines without the trailing newline', () => {
    expect(lastLines('a\nb\nc\n', 2)).toBe('b\nc');
    expect(lastLines('a', 5)).toBe('a');
  });
});

describe('readLogTail', () => {
  it('reads only what was written after the offset', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'log-tail-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'op.log');
    await writeFile(file, 'old 1\nold 2\nnew 1\nnew 2\n');
    expect(await readLogTail(file, 'old 1\nold 2\n'.length, 10)).toBe('new 1\nnew 2');
  });

  it('explains a missing file instead of failing', async () => {
    expect(await readLogTail('/nonexistent/op.log', 0, 10)).toMatch(/^\(no log at \/nonexistent\/op.log/);
  });
});
