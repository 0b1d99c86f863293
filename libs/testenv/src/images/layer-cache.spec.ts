import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import { digestOf } from './digest.ts';
import { canonicalJson, LayerCache, layerKey } from './layer-cache.ts';
import { writeLayer } from './layer-writer.ts';
import type { TarEntry } from './tar.ts';

const entries: TarEntry[] = [
  { type: 'directory', path: 'etc', mode: 0o755, uid: 0, gid: 0 },
  { type: 'file', path: 'etc/hostname', mode: 0o644, uid: 0, gid: 0, content: { kind: 'bytes', data: Buffer.from('node\n') } },
];

describe('writeLayer', () => {
  it('gives the same digests for the same entries; diff_id is the SHA-256 of the uncompressed tar', async () => {
    const dir = scratchDir('layer-spec-');
    const a = await writeLayer(entries, join(dir, 'a.tar.gz'));
    const b = await writeLayer(entries, join(dir, 'b.tar.gz'));
    expect(b).toEqual(a);
    const gz = readFileSync(join(dir, 'a.tar.gz'));
    expect(digestOf(gz)).toBe(a.digest);
    expect(gz.byteLength).toBe(a.size);
    expect(digestOf(gunzipSync(gz))).toBe(a.diffId);
    expect(gz.readUInt32LE(4)).toBe(0); // no mtime in the gzip header
  });
});

describe('layerKey', () => {
  it('does not depend on the order of object keys, only on values', () => {
    expect(layerKey({ a: 1, b: [1, 2] })).toBe(layerKey({ b: [1, 2], a: 1 }));
    expect(layerKey({ a: 1, b: [2, 1] })).not.toBe(layerKey({ a: 1, b: [1, 2] }));
    expect(canonicalJson({ z: { y: 1, x: 2 } })).toBe('{"z":{"x":2,"y":1}}');
  });
});

describe('LayerCache', () => {
  it('builds a layer once and then serves it from the cache', async () => {
    const cache = new LayerCache(scratchDir('layer-cache-'));
    let produced = 0;
    const produce: Parameters<LayerCache['ensure']>[1] = (write) => {
      produced++;
      return write(entries);
    };
    const first = await cache.ensure('k1', produce);
    const second = await cache.ensure('k1', produce);
    expect(produced).toBe(1);
    expect([first.cached, second.cached]).toEqual([false, true]);
    expect(second.digest).toBe(first.digest);
    expect(digestOf(readFileSync(second.blob))).toBe(first.digest);
  });

  it('rebuilds an entry whose blob does not match its record', async () => {
    const cache = new LayerCache(scratchDir('layer-cache-'));
    const built = await cache.ensure('k', (write) => write(entries));
    writeFileSync(built.blob, 'truncated');
    const rebuilt = await cache.ensure('k', (write) => write(entries));
    expect(rebuilt.cached).toBe(false);
    expect(digestOf(readFileSync(rebuilt.blob))).toBe(built.digest);
  });
});
