import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from './digest.ts';
import { GZIP_LEVEL, type LayerDigests, writeLayer } from './layer-writer.ts';
import type { TarEntry } from './tar.ts';

/** Bumped whenever the tar or gzip bytes written for the same inputs change. */
const LAYER_FORMAT = 'domain-operators-testenv-layer/1';

/** A layer in the cache: its digests and where its blob is. */
export interface CachedLayer extends LayerDigests {
  readonly key: string;
  /** The `tar+gzip` blob. */
  readonly blob: string;
  /** True when this call found it in the cache, false when it built it. */
  readonly cached: boolean;
}

/**
 * The cache key of a layer: the SHA-256 of the canonical JSON of `inputs` (which must describe everything that
 * decides the layer's bytes) together with the layer format, the gzip level and the zlib version. Pure.
 */
export function layerKey(inputs: unknown): string {
  return sha256Hex(canonicalJson({ format: LAYER_FORMAT, gzipLevel: GZIP_LEVEL, zlib: process.versions.zlib, inputs }));
}

/** JSON with object keys sorted at every depth, so equal values always give equal text. Pure. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Layers kept by content key under `<dir>/<key>/` (`layer.tar.gz` and `layer.json` with its digests). Safe for
 * several processes: a layer is built in a temporary folder and renamed into place, so a reader sees a whole
 * layer or none; when two builds race, the first rename wins and the other's copy is dropped.
 */
export class LayerCache {
  private readonly dir: string;

  /** `dir` is `<cacheDir>/images/layers`. */
  constructor(dir: string) {
    this.dir = dir;
  }

  /**
   * The layer under `key`, building it first when it is missing: `produce` is called (only on a miss) with a
   * writer to hand the layer's entries to, and resolves with what the writer returned. A cached entry whose blob
   * is missing or has another size counts as a miss.
   */
  async ensure(key: string, produce: (write: (entries: readonly TarEntry[]) => Promise<LayerDigests>) => Promise<LayerDigests>): Promise<CachedLayer> {
    const found = await this.lookup(key);
    if (found !== undefined) return found;
    await mkdir(this.dir, { recursive: true });
    const tmp = await mkdtemp(join(this.dir, '.build-'));
    try {
      const digests = await produce((entries) => writeLayer(entries, join(tmp, 'layer.tar.gz')));
      await writeFile(join(tmp, 'layer.json'), `${JSON.stringify(digests, null, 2)}\n`);
      const target = join(this.dir, key);
      try {
        await rename(tmp, target);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
        // Either another build put the same layer in place first (its bytes are ours), or a broken entry is there.
        if ((await this.lookup(key)) === undefined) {
          await rm(target, { recursive: true, force: true });
          await rename(tmp, target);
        }
      }
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    const built = await this.lookup(key);
    if (built === undefined) throw new Error(`layer cache: ${key} missing right after it was written in ${this.dir}`);
    return { ...built, cached: false };
  }

  private async lookup(key: string): Promise<CachedLayer | undefined> {
    const dir = join(this.dir, key);
    let digests: LayerDigests;
    try {
      digests = parseDigests(await readFile(join(dir, 'layer.json'), 'utf8'));
      const blob = await stat(join(dir, 'layer.tar.gz'));
      if (blob.size !== digests.size) return undefined;
    } catch {
      return undefined;
    }
    return { ...digests, key, blob: join(dir, 'layer.tar.gz'), cached: true };
  }
}

function parseDigests(text: string): LayerDigests {
  const value = JSON.parse(text) as Partial<Record<keyof LayerDigests, unknown>>;
  const { digest, diffId, size, tarSize } = value;
  const isDigest = (d: unknown): d is LayerDigests['digest'] => typeof d === 'string' && /^sha256:[0-9a-f]{64}$/.test(d);
  if (!isDigest(digest) || !isDigest(diffId) || typeof size !== 'number' || typeof tarSize !== 'number') {
    throw new Error('layer cache: malformed layer.json');
  }
  return { digest, diffId, size, tarSize };
}
