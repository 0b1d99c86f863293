import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import { checkArchive } from './archive-check.ts';
import { buildImages, type BuildDeps } from './builder.ts';
import { fileHasher } from './digest.ts';
import { fileLayer } from './file-layer.ts';
import type { ImageDefinition } from './image-definition.ts';
import { LayerCache } from './layer-cache.ts';

const shared = fileLayer({ description: 'base', items: [{ type: 'bytes', path: '/etc/passwd', data: Buffer.from('root:x:0:0::/root:/sbin/nologin\n'), mode: 0o644, uid: 0, gid: 0 }] });
const definitions: ImageDefinition[] = ['a', 'b'].map((id) => ({
  id,
  layers: [shared, fileLayer({ description: id, items: [{ type: 'bytes', path: `/${id}`, data: Buffer.from(id), mode: 0o755, uid: 0, gid: 0 }] })],
  config: { entrypoint: [`/${id}`], user: '65532:65532' },
  reference: (facts) => `localhost/test/${id}:${facts.manifestDigest.slice(7, 19)}`,
}));

function deps(dir: string): BuildDeps {
  return {
    tools: {
      hashFile: fileHasher(),
      apt: { index: () => Promise.reject(new Error('no apt')), download: () => Promise.reject(new Error('no apt')) },
      exec: () => Promise.reject(new Error('no exec')),
      isRoot: false,
    },
    layers: new LayerCache(join(dir, 'layers')),
    archiveDir: join(dir, 'archives'),
    now: () => 0,
  };
}

describe('buildImages', () => {
  it('writes consistent archives, builds a shared layer once, and rebuilds nothing the second time', async () => {
    const dir = scratchDir('builder-spec-');
    const first = await buildImages(definitions, deps(dir));
    expect(first.map((i) => i.layers.map((l) => l.cached))).toEqual([
      [false, false],
      [false, false],
    ]);
    expect(first[0]?.layers[0]?.digest).toBe(first[1]?.layers[0]?.digest);
    for (const image of first) {
      const summary = checkArchive(readFileSync(image.archive));
      expect(summary.reference).toBe(image.reference);
      expect(summary.manifestDigest).toBe(image.manifestDigest);
      expect(summary.layers.map((l) => l.digest)).toEqual(image.layers.map((l) => l.digest));
    }
    const mtime = statSync(first[0]?.archive ?? '').mtimeMs;

    const second = await buildImages(definitions, deps(dir));
    expect(second.map((i) => i.manifestDigest)).toEqual(first.map((i) => i.manifestDigest));
    expect(second.map((i) => i.reference)).toEqual(first.map((i) => i.reference));
    expect(second.flatMap((i) => i.layers.map((l) => l.cached))).toEqual([true, true, true, true]);
    expect(second.map((i) => i.archiveWritten)).toEqual([false, false]);
    expect(statSync(second[0]?.archive ?? '').mtimeMs).toBe(mtime);
  });
});
