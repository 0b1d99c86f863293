import { digestOf, type Digest } from './digest.ts';
import type { ImageConfigSpec } from './image-definition.ts';

/** OCI media types this builder writes. */
export const MEDIA_TYPES = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;

/** An OCI content descriptor. */
export interface Descriptor {
  readonly mediaType: string;
  readonly digest: Digest;
  readonly size: number;
}

/** A JSON document and its descriptor: the exact bytes that are hashed and stored. */
export interface Blob {
  readonly descriptor: Descriptor;
  readonly bytes: Uint8Array;
}

/** A layer as the config and the manifest see it. */
export interface LayerRef {
  readonly digest: Digest;
  readonly diffId: Digest;
  readonly size: number;
  /** The config's `history[].created_by` for this layer. */
  readonly createdBy: string;
}

function blob(mediaType: string, document: unknown): Blob {
  const bytes = Buffer.from(JSON.stringify(document));
  return { descriptor: { mediaType, digest: digestOf(bytes), size: bytes.byteLength }, bytes };
}

/**
 * The image config (linux/amd64): the runtime settings of `spec`, `rootfs.diff_ids` of `layers` in order and one
 * history entry per layer. No `created` time, so the same inputs give the same digest. Pure.
 */
export function imageConfig(spec: ImageConfigSpec, layers: readonly LayerRef[]): Blob {
  const config: Record<string, unknown> = {};
  if (spec.user !== undefined) config['User'] = spec.user;
  if (spec.exposedPorts !== undefined) config['ExposedPorts'] = Object.fromEntries(spec.exposedPorts.map((p) => [p, {}]));
  if (spec.env !== undefined) config['Env'] = [...spec.env];
  if (spec.entrypoint !== undefined) config['Entrypoint'] = [...spec.entrypoint];
  if (spec.cmd !== undefined) config['Cmd'] = [...spec.cmd];
  if (spec.workingDir !== undefined) config['WorkingDir'] = spec.workingDir;
  if (spec.labels !== undefined) config['Labels'] = { ...spec.labels };
  return blob(MEDIA_TYPES.config, {
    architecture: 'amd64',
    os: 'linux',
    config,
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    history: layers.map((l) => ({ created_by: l.createdBy })),
  });
}

/** The image manifest of `config` and `layers` (gzip tars, in order). Pure. */
export function imageManifest(config: Descriptor, layers: readonly LayerRef[]): Blob {
  return blob(MEDIA_TYPES.manifest, {
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.manifest,
    config: { mediaType: config.mediaType, digest: config.digest, size: config.size },
    layers: layers.map((l) => ({ mediaType: MEDIA_TYPES.layer, digest: l.digest, size: l.size })),
  });
}

/**
 * The `index.json` of an OCI layout holding one image: the manifest for linux/amd64 annotated with
 * `io.containerd.image.name` (the full `reference`, which `ctr images import` names the image after) and
 * `org.opencontainers.image.ref.name` (its tag, as the image-layout spec uses it). Pure.
 */
export function imageIndex(manifest: Descriptor, reference: string, tag: string): Blob {
  return blob(MEDIA_TYPES.index, {
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.index,
    manifests: [
      {
        mediaType: manifest.mediaType,
        digest: manifest.digest,
        size: manifest.size,
        platform: { architecture: 'amd64', os: 'linux' },
        annotations: { 'io.containerd.image.name': reference, 'org.opencontainers.image.ref.name': tag },
      },
    ],
  });
}

/** The `oci-layout` file's content. */
export const OCI_LAYOUT = '{"imageLayoutVersion":"1.0.0"}';
