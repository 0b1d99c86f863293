import { gunzipSync } from 'node:zlib';
import { digestHex, digestOf, type Digest } from './digest.ts';
import { readTar } from './tar-read.ts';

/** What {@link checkArchive} read from a consistent archive. */
export interface ArchiveSummary {
  /** The `io.containerd.image.name` annotation. */
  readonly reference: string;
  /** The `org.opencontainers.image.ref.name` annotation. */
  readonly tag: string;
  readonly manifestDigest: Digest;
  readonly configDigest: Digest;
  readonly layers: readonly { readonly digest: Digest; readonly diffId: Digest; readonly size: number }[];
  /** The parsed image config document. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Every entry path inside each layer, in order, for inspection. */
  readonly layerPaths: readonly (readonly string[])[];
}

interface DescriptorJson {
  readonly mediaType?: string;
  readonly digest?: string;
  readonly size?: number;
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * Checks an OCI archive the way an importer relies on it and returns what it holds. Throws, naming the first
 * problem, unless: `oci-layout` says 1.0.0; `index.json` lists exactly one manifest with both name annotations;
 * every blob's bytes hash to its file name; each descriptor's digest and size match the blob; the manifest's
 * layers are gzip tars whose uncompressed SHA-256 is, in order, the config's `rootfs.diff_ids`. Pure.
 */
export function checkArchive(archive: Uint8Array): ArchiveSummary {
  const files = new Map(readTar(archive).filter((e) => e.type === 'file').map((e) => [e.path, e.data]));
  const json = (path: string): unknown => {
    const data = files.get(path);
    if (data === undefined) throw new Error(`archive: no ${path}`);
    return JSON.parse(Buffer.from(data).toString('utf8')) as unknown;
  };
  for (const [path, data] of files) {
    if (path.startsWith('blobs/sha256/') && digestOf(data) !== `sha256:${path.slice('blobs/sha256/'.length)}`) {
      throw new Error(`archive: ${path} does not hash to its name`);
    }
  }
  const blob = (d: DescriptorJson | undefined, what: string): Uint8Array => {
    if (typeof d?.digest !== 'string') throw new Error(`archive: ${what} has no digest`);
    const data = files.get(`blobs/sha256/${digestHex(d.digest)}`);
    if (data === undefined) throw new Error(`archive: ${what} ${d.digest} is not in blobs/`);
    if (data.byteLength !== d.size) throw new Error(`archive: ${what} ${d.digest} is ${data.byteLength} bytes, its descriptor says ${d.size ?? '?'}`);
    return data;
  };

  const layout = json('oci-layout') as { imageLayoutVersion?: string };
  if (layout.imageLayoutVersion !== '1.0.0') throw new Error('archive: oci-layout is not version 1.0.0');
  const index = json('index.json') as { manifests?: DescriptorJson[] };
  if (index.manifests?.length !== 1) throw new Error(`archive: index.json lists ${index.manifests?.length ?? 0} manifests, not 1`);
  const entry = index.manifests[0];
  const reference = entry?.annotations?.['io.containerd.image.name'];
  const tag = entry?.annotations?.['org.opencontainers.image.ref.name'];
  if (reference === undefined || tag === undefined) throw new Error('archive: the manifest in index.json lacks a name annotation');
  const manifest = JSON.parse(Buffer.from(blob(entry, 'manifest')).toString('utf8')) as { config?: DescriptorJson; layers?: DescriptorJson[] };
  const config = JSON.parse(Buffer.from(blob(manifest.config, 'config')).toString('utf8')) as { rootfs?: { diff_ids?: string[] } } & Record<string, unknown>;
  const diffIds = config.rootfs?.diff_ids ?? [];
  const layers = manifest.layers ?? [];
  if (layers.length !== diffIds.length) throw new Error(`archive: ${layers.length} layers but ${diffIds.length} diff_ids`);
  const summaries: { digest: Digest; diffId: Digest; size: number }[] = [];
  const layerPaths: string[][] = [];
  layers.forEach((layer, i) => {
    const tar = gunzipSync(blob(layer, `layer ${i}`));
    const diffId = digestOf(tar);
    if (diffId !== diffIds[i]) throw new Error(`archive: layer ${i} uncompresses to ${diffId}, the config's diff_id is ${diffIds[i] ?? '?'}`);
    summaries.push({ digest: layer.digest as Digest, diffId, size: layer.size ?? 0 });
    layerPaths.push(readTar(tar).map((e) => e.path));
  });
  return {
    reference,
    tag,
    manifestDigest: entry?.digest as Digest,
    configDigest: manifest.config?.digest as Digest,
    layers: summaries,
    config,
    layerPaths,
  };
}
