/**
 * Container images built on this machine without a registry or a container engine: OCI archives written in
 * TypeScript from Debian packages (resolved over apt, unpacked with `dpkg-deb -x`) and local files, layers cached
 * by content under `<cacheDir>/images`, loaded into a node's containerd with `ctr images import`. This file is
 * the folder's face.
 */
export { ensureImages, imageCacheLayout } from './ensure-images.ts';
export type { EnsureImagesOptions, ImageCacheLayout } from './ensure-images.ts';
export type { BuiltImage, BuiltLayer } from './builder.ts';
export { defineImages, IMAGE_IDS, OPERATOR_SYSTEMS } from './definitions.ts';
export type { ImageId, ImageInputs, OperatorInput, OperatorSystem, VersionedBinary } from './definitions.ts';
export { operatorInput, pinnedNode, chartImageReference } from './inputs.ts';
export { importImages } from './import-images.ts';
export type { ImageArchive, ImportOptions, ImportResult } from './import-images.ts';
export { checkArchive } from './archive-check.ts';
export type { ArchiveSummary } from './archive-check.ts';
