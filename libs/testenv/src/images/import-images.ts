import { parseCtrImages, type CtrImage } from './ctr-image-list.ts';
import type { Exec } from './exec.ts';

/** An archive to load and the image it must produce. */
export interface ImageArchive {
  readonly reference: string;
  readonly manifestDigest: string;
  /** An OCI archive from {@link buildImages}. */
  readonly archive: string;
}

/** Which containerd to load images into, and how. */
export interface ImportOptions {
  /** The `ctr` executable (containerd 2.x's; 1.6's takes the same flags). */
  readonly ctr: string;
  /** containerd's socket. */
  readonly address: string;
  /** The CRI's namespace: `k8s.io`, where the kubelet looks. */
  readonly namespace?: string;
  /** The CRI's snapshotter the images are unpacked for: `overlayfs`. */
  readonly snapshotter?: string;
  readonly exec: Exec;
}

/** What {@link importImages} did with one image. */
export interface ImportResult {
  readonly reference: string;
  /** False when containerd already had this reference at this digest, unpacked. */
  readonly imported: boolean;
}

/**
 * The `ctr` arguments that import one archive for the node: linux/amd64 only, unpacked into `snapshotter` so
 * the kubelet can start containers from it at once (`ctr` unpacks unless told `--no-unpack`; containerd 2.x
 * goes through its transfer service and names the image after the `io.containerd.image.name` annotation). Pure.
 */
export function importArgs(options: Pick<ImportOptions, 'address' | 'namespace' | 'snapshotter'>, archive: string): string[] {
  return [...globalArgs(options), 'images', 'import', '--platform', 'linux/amd64', '--snapshotter', options.snapshotter ?? 'overlayfs', archive];
}

/** Which images still need importing: those whose reference is absent, at another digest, or not unpacked. Pure. */
export function imagesToImport(wanted: readonly ImageArchive[], present: readonly CtrImage[]): ImageArchive[] {
  const have = new Map(present.map((image) => [image.reference, image]));
  return wanted.filter((image) => {
    const found = have.get(image.reference);
    return found?.digest !== image.manifestDigest || found.unpacked === false;
  });
}

/**
 * Loads `images` into containerd, skipping each one it already has at the same digest, unpacked for the
 * snapshotter (`ctr images check` of just these references). When that check itself fails (`ctr` exits non-zero
 * when an image's content is incomplete), every image is imported, which restores missing content. After
 * importing, checks again and throws naming every image that is still missing, at another digest, or not
 * unpacked. Idempotent.
 */
export async function importImages(images: readonly ImageArchive[], options: ImportOptions): Promise<ImportResult[]> {
  if (images.length === 0) return [];
  const filters = images.map((image) => `name==${image.reference}`);
  const check = async (): Promise<CtrImage[]> =>
    parseCtrImages(await options.exec(options.ctr, [...globalArgs(options), 'images', 'check', '--snapshotter', options.snapshotter ?? 'overlayfs', ...filters]));
  const todo = imagesToImport(images, await check().catch(() => []));
  for (const image of todo) await options.exec(options.ctr, importArgs(options, image.archive));
  if (todo.length > 0) {
    const wrong = imagesToImport(todo, await check());
    if (wrong.length > 0) {
      throw new Error(`images: after ctr images import, containerd lacks ${wrong.map((i) => `${i.reference}@${i.manifestDigest}`).join(', ')} (or has not unpacked it)`);
    }
  }
  const imported = new Set(todo.map((image) => image.reference));
  return images.map((image) => ({ reference: image.reference, imported: imported.has(image.reference) }));
}

function globalArgs(options: Pick<ImportOptions, 'address' | 'namespace'>): string[] {
  return ['--address', options.address, '--namespace', options.namespace ?? 'k8s.io'];
}
