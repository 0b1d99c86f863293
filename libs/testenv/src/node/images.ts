import { join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import type { BuiltImage } from '../images/builder.ts';
import type { ImageId, OperatorSystem } from '../images/definitions.ts';
import { ensureImages } from '../images/ensure-images.ts';
import { execFileCapture } from '../images/exec.ts';
import { importImages } from '../images/import-images.ts';
import type { ImageArchive } from '../images/import-images.ts';
import { operatorInput, pinnedNode } from '../images/inputs.ts';
import { ensureNodeAddonBinaries } from '../node-build/addon-binaries.ts';
import type { NodeAddonBinaries } from '../node-build/addon-binaries.ts';
import { resolvePaths } from '../paths.ts';
import { nodeHostLayout } from './host-layout.ts';

/** The names the node's own images are imported as. */
export interface NodeImageNames {
  /** The Pod sandbox image (containerd's `pinned_images.sandbox`). */
  readonly pause: string;
  readonly coredns: string;
  readonly localPathProvisioner: string;
  readonly busybox: string;
  /** Debian's redis-server, for RedisReplications on this node. */
  readonly redis: string;
}

/** The node's images, built: their names and archives. */
export interface NodeImages {
  readonly names: NodeImageNames;
  readonly archives: readonly ImageArchive[];
}

const NODE_IMAGE_IDS = ['pause', 'busybox', 'redis', 'coredns', 'local-path-provisioner'] as const satisfies readonly ImageId[];

/**
 * Builds (or finds in the layer cache) the images the node itself runs: pause, CoreDNS, the local-path provisioner
 * and its busybox helper, and Redis. Cheap when nothing changed. The archives go to the clone's `.testenv/images`.
 */
export async function buildNodeImages(ctx: ComponentContext, addons: NodeAddonBinaries): Promise<NodeImages> {
  const started = Date.now();
  const built = await ensureImages({
    ids: NODE_IMAGE_IDS,
    inputs: {
      pause: addons.pause,
      coredns: { binary: addons.coredns, version: addons.versions.coredns },
      localPathProvisioner: { binary: addons.localPathProvisioner, version: addons.versions.localPathProvisioner },
    },
    cacheDir: ctx.paths.cacheDir,
    archiveDir: join(ctx.paths.stateDir, 'images'),
  });
  const written = built.filter((image) => image.archiveWritten).map((image) => image.id);
  ctx.progress(`images ready (${((Date.now() - started) / 1000).toFixed(1)} s${written.length > 0 ? `; built ${written.join(', ')}` : ', all cached'})`);
  const reference = (id: (typeof NODE_IMAGE_IDS)[number]): string => referenceOf(built, id);
  return {
    names: {
      pause: reference('pause'),
      coredns: reference('coredns'),
      localPathProvisioner: reference('local-path-provisioner'),
      busybox: reference('busybox'),
      redis: reference('redis'),
    },
    archives: built,
  };
}

/** Loads `images` into the node's containerd (`k8s.io` namespace), skipping what it already holds at the same digest. */
export async function importNodeImages(ctx: ComponentContext, runtime: { readonly ctr: string; readonly socket: string }, images: Pick<NodeImages, 'archives'>): Promise<void> {
  const started = Date.now();
  const results = await importImages(images.archives, { ctr: runtime.ctr, address: runtime.socket, exec: execFileCapture });
  const imported = results.filter((result) => result.imported).map((result) => result.reference);
  if (imported.length > 0) ctx.progress(`imported ${imported.join(', ')} into containerd (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** An image loaded into the node: its name and the digest of its manifest (changes whenever its content does). */
export interface LoadedImage {
  readonly reference: string;
  readonly manifestDigest: string;
}

/**
 * Builds an operator's image from its bundle (`nx run <system>-operator:build` must have run) exactly as its
 * Dockerfile's runtime stage lays it out, tagged as the chart's default image, and loads it into the running node.
 * Idempotent and cheap when the bundle did not change.
 */
export async function loadOperatorImage(system: OperatorSystem, root: string = resolvePaths().root): Promise<LoadedImage> {
  const paths = resolvePaths(root);
  const ctx: ComponentContext = { paths, progress: () => undefined };
  const addons = await ensureNodeAddonBinaries(ctx);
  const built = await ensureImages({
    ids: [`${system}-operator`],
    inputs: { node: await pinnedNode(root), operators: { [system]: await operatorInput(root, system) } },
    cacheDir: paths.cacheDir,
    archiveDir: join(paths.stateDir, 'images'),
  });
  await importNodeImages(ctx, { ctr: addons.ctr, socket: nodeHostLayout().containerdSocket }, { archives: built });
  const image = built.find((candidate) => candidate.id === `${system}-operator`);
  if (image === undefined) throw new Error(`images: ${system}-operator was not built`);
  return { reference: image.reference, manifestDigest: image.manifestDigest };
}

function referenceOf(built: readonly BuiltImage[], id: string): string {
  const image = built.find((candidate) => candidate.id === id);
  if (image === undefined) throw new Error(`images: ${id} was not built`);
  return image.reference;
}
