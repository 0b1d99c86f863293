import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import { fileHasher } from './digest.ts';
import { fileLayer, type LayerItem } from './file-layer.ts';
import type { PlanTools } from './image-definition.ts';

const tools = (): PlanTools => ({
  hashFile: fileHasher(),
  apt: { index: () => Promise.reject(new Error('no apt')), download: () => Promise.reject(new Error('no apt')) },
  exec: () => Promise.reject(new Error('no exec')),
  isRoot: false,
});

describe('fileLayer', () => {
  it('keys on content, target, mode and owner, not on where the input lies', async () => {
    const dir = scratchDir('file-layer-');
    writeFileSync(join(dir, 'a'), 'binary');
    const items = (source: string, mode = 0o755): LayerItem[] => [{ type: 'file', path: '/usr/local/bin/node', source, mode, uid: 0, gid: 0 }];
    const first = await fileLayer({ description: 'x', items: items(join(dir, 'a')) }).plan(tools());
    renameSync(join(dir, 'a'), join(dir, 'b'));
    const moved = await fileLayer({ description: 'x', items: items(join(dir, 'b')) }).plan(tools());
    expect(moved.key).toBe(first.key);
    expect((await fileLayer({ description: 'x', items: items(join(dir, 'b'), 0o700) }).plan(tools())).key).not.toBe(first.key);
    writeFileSync(join(dir, 'b'), 'binary!');
    expect((await fileLayer({ description: 'x', items: items(join(dir, 'b')) }).plan(tools())).key).not.toBe(first.key);
  });

  it('gives the entries in canonical order with implicit parents', async () => {
    const layer = await fileLayer({
      description: 'x',
      items: [
        { type: 'bytes', path: '/app/main.js', data: Buffer.from('js'), mode: 0o644, uid: 0, gid: 0 },
        { type: 'symlink', path: '/bin/sh', target: '/bin/busybox' },
      ],
    }).plan(tools());
    const paths = await layer.withEntries((entries) => Promise.resolve(entries.map((e) => e.path)));
    expect(paths).toEqual(['app', 'app/main.js', 'bin', 'bin/sh']);
  });
});
