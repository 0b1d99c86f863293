import { join } from 'node:path';
import { Apt } from './apt.ts';
import { buildImages, type BuiltImage } from './builder.ts';
import { defineImages, type ImageId, type ImageInputs } from './definitions.ts';
import { fileHasher } from './digest.ts';
import { execFileCapture, type Exec } from './exec.ts';
import { LayerCache } from './layer-cache.ts';

/** Where the image builder keeps what it caches across runs and clones, under `<cacheDir>/images`. */
export interface ImageCacheLayout {
  /** `<cacheDir>/images/layers/<key>/`: built layers. */
  readonly layers: string;
  /** `<cacheDir>/images/debs/`: downloaded `.deb` files. */
  readonly debs: string;
  /** `<cacheDir>/images/apt/`: apt's binary package caches and the package indexes read through them. */
  readonly apt: string;
  /** `<cacheDir>/images/hashes/`: the SHA-256 of each input file, kept while the file is unchanged. */
  readonly hashes: string;
}

/** The cache layout under the machine-wide `cacheDir` (`TestenvPaths.cacheDir`). Pure. */
export function imageCacheLayout(cacheDir: string): ImageCacheLayout {
  const root = join(cacheDir, 'images');
  return { layers: join(root, 'layers'), debs: join(root, 'debs'), apt: join(root, 'apt'), hashes: join(root, 'hashes') };
}

/** Options for {@link ensureImages}. */
export interface EnsureImagesOptions {
  readonly ids: readonly ImageId[];
  readonly inputs: ImageInputs;
  /** The machine-wide build cache (`TestenvPaths.cacheDir`). */
  readonly cacheDir: string;
  /** Where this checkout's archives go, e.g. `<stateDir>/images`. */
  readonly archiveDir: string;
  /** Defaults to running the real programs. */
  readonly exec?: Exec;
}

/**
 * Builds the images `ids` from `inputs` with the real tools (apt, dpkg-deb) and the shared caches, and returns
 * them with their archives. Idempotent and cheap when nothing changed (layers come from the cache, archives are
 * not rewritten); a cold build downloads `.deb` files through apt and compresses every layer.
 */
export async function ensureImages(options: EnsureImagesOptions): Promise<BuiltImage[]> {
  const exec = options.exec ?? execFileCapture;
  const layout = imageCacheLayout(options.cacheDir);
  const root = process.getuid?.() === 0;
  return buildImages(defineImages(options.ids, options.inputs), {
    tools: { hashFile: fileHasher(layout.hashes), apt: new Apt({ aptCacheDir: layout.apt, debCacheDir: layout.debs, exec, root }), exec, isRoot: root },
    layers: new LayerCache(layout.layers),
    archiveDir: options.archiveDir,
    now: Date.now,
  });
}
