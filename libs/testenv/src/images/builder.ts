import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Digest } from './digest.ts';
import type { ImageDefinition, LayerSource, PlannedLayer, PlanTools } from './image-definition.ts';
import { tagOf } from './image-reference.ts';
import type { CachedLayer, LayerCache } from './layer-cache.ts';
import { writeOciArchive } from './oci-archive.ts';
import { imageConfig, imageIndex, imageManifest, MEDIA_TYPES, type LayerRef } from './oci-documents.ts';

/** What {@link buildImages} needs. */
export interface BuildDeps {
  readonly tools: PlanTools;
  readonly layers: LayerCache;
  /** Archives are written here as `<id>.tar`, each with an `<id>.json` saying what it holds. */
  readonly archiveDir: string;
  /** Milliseconds, for the timings reported; `Date.now` outside tests. */
  readonly now: () => number;
}

/** One layer of a built image. */
export interface BuiltLayer {
  readonly description: string;
  readonly key: string;
  readonly digest: Digest;
  readonly diffId: Digest;
  /** Compressed bytes. */
  readonly size: number;
  /** True when the layer came from the cache; false when this run built it (for this or an earlier image). */
  readonly cached: boolean;
}

/** One built image and its archive. */
export interface BuiltImage {
  readonly id: string;
  /** The name containerd gives it on import (`io.containerd.image.name`). */
  readonly reference: string;
  readonly manifestDigest: Digest;
  /** The OCI archive for `ctr images import`. */
  readonly archive: string;
  /** Compressed bytes of the layers plus config and manifest: what the image takes in a registry. */
  readonly size: number;
  readonly layers: readonly BuiltLayer[];
  /** False when the archive on disk already held exactly this image. */
  readonly archiveWritten: boolean;
  /** Debian package versions in the image, name → version. */
  readonly packages: ReadonlyMap<string, string>;
  readonly millis: number;
}

/** The record written beside each archive. */
interface ArchiveRecord {
  readonly reference: string;
  readonly manifestDigest: string;
  readonly indexDigest: string;
  readonly size: number;
}

/**
 * Builds `definitions` in order. Each layer source is planned once per call and each layer key is built at most
 * once (images share the cached layer); the config, manifest and index are recomputed every time (they are
 * small and pure), and an image's archive is rewritten only when its index differs from the archive's record.
 * Idempotent; with nothing changed, no layer is built and no archive is written.
 */
export async function buildImages(definitions: readonly ImageDefinition[], deps: BuildDeps): Promise<BuiltImage[]> {
  const plans = new Map<LayerSource, Promise<PlannedLayer>>();
  const plan = (source: LayerSource): Promise<PlannedLayer> => {
    let planned = plans.get(source);
    if (planned === undefined) {
      planned = source.plan(deps.tools);
      plans.set(source, planned);
    }
    return planned;
  };
  const layers = new Map<string, Promise<CachedLayer>>();
  const ensure = (planned: PlannedLayer): Promise<CachedLayer> => {
    let layer = layers.get(planned.key);
    if (layer === undefined) {
      layer = deps.layers.ensure(planned.key, (write) => planned.withEntries(write));
      layers.set(planned.key, layer);
    }
    return layer;
  };

  // Plan everything first and at once: planning is mostly waiting for apt-cache and hashing inputs.
  const planned = await Promise.all(definitions.map((d) => Promise.all(d.layers.map(plan))));
  const built: BuiltImage[] = [];
  for (const [i, definition] of definitions.entries()) {
    const started = deps.now();
    const imageLayers: BuiltLayer[] = [];
    const files: string[] = [];
    for (const p of planned[i] ?? []) {
      const layer = await ensure(p);
      imageLayers.push({ description: p.description, key: p.key, digest: layer.digest, diffId: layer.diffId, size: layer.size, cached: layer.cached });
      files.push(layer.blob);
    }
    const packages = new Map((planned[i] ?? []).flatMap((p) => [...p.packages]));
    const refs: LayerRef[] = imageLayers.map((l) => ({ digest: l.digest, diffId: l.diffId, size: l.size, createdBy: `testenv images: ${l.description}` }));
    const config = imageConfig(definition.config, refs);
    const manifest = imageManifest(config.descriptor, refs);
    const reference = definition.reference({ manifestDigest: manifest.descriptor.digest, packages });
    const index = imageIndex(manifest.descriptor, reference, tagOf(reference));

    const archive = join(deps.archiveDir, `${definition.id}.tar`);
    const recordFile = join(deps.archiveDir, `${definition.id}.json`);
    const previous = await readRecord(recordFile);
    const current = await stat(archive).then((s) => s.size, () => -1);
    const archiveWritten = previous?.indexDigest !== index.descriptor.digest || previous.size !== current;
    if (archiveWritten) {
      const blobs = imageLayers.map((l, j) => ({ descriptor: { mediaType: MEDIA_TYPES.layer, digest: l.digest, size: l.size }, file: files[j] ?? '' }));
      await writeOciArchive(archive, { index, manifest, config, layers: blobs });
      const record: ArchiveRecord = { reference, manifestDigest: manifest.descriptor.digest, indexDigest: index.descriptor.digest, size: (await stat(archive)).size };
      await writeFile(recordFile, `${JSON.stringify(record, null, 2)}\n`);
    }
    built.push({
      id: definition.id,
      reference,
      manifestDigest: manifest.descriptor.digest,
      archive,
      size: imageLayers.reduce((n, l) => n + l.size, config.descriptor.size + manifest.descriptor.size),
      layers: imageLayers,
      archiveWritten,
      packages,
      millis: deps.now() - started,
    });
  }
  return built;
}

async function readRecord(file: string): Promise<ArchiveRecord | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ArchiveRecord;
  } catch {
    return undefined;
  }
}
