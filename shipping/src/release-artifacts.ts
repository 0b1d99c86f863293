import type { IMAGE_SYSTEMS } from './repo.ts';

/** One operator that the release ships: an image, a chart and a CRD bundle. */
export type ReleaseSystem = (typeof IMAGE_SYSTEMS)[number];

/** The registry namespace every artifact of a release is pushed under (GitHub Container Registry). */
export const RELEASE_REGISTRY = 'ghcr.io/domain-operators';

/** Where `helm push` puts the charts: `oci://ghcr.io/domain-operators/charts`. */
export const CHART_REPOSITORY = `oci://${RELEASE_REGISTRY}/charts`;

/** `ghcr.io/domain-operators/<system>-operator:<version>`, the image the release pushes and the chart defaults to. Pure. */
export function releaseImage(system: ReleaseSystem, version: string): string {
  return `${RELEASE_REGISTRY}/${system}-operator:${version}`;
}

/** `oci://ghcr.io/domain-operators/charts/<system>-operator`, what `helm install … --version <version>` names. Pure. */
export function releaseChart(system: ReleaseSystem): string {
  return `${CHART_REPOSITORY}/${system}-operator`;
}

/** `<system>-operator-<version>.tgz`, the file `helm package` writes for a chart. Pure. */
export function chartPackageFile(system: ReleaseSystem, version: string): string {
  return `${system}-operator-${version}.tgz`;
}

/** `<system>-operator-crds.yaml`, the file of every CRD of one operator attached to the GitHub release. Pure. */
export function crdBundleFile(system: ReleaseSystem): string {
  return `${system}-operator-crds.yaml`;
}

/** The install command the docs show for `system` at `version`; the docs must contain it verbatim. Pure. */
export function installCommand(system: ReleaseSystem, version: string): string {
  return `helm install ${system}-operator ${releaseChart(system)} --version ${version}`;
}

/** The upgrade command of the release `<system>-operator` to `version` (after its CRDs are applied). Pure. */
export function upgradeCommand(system: ReleaseSystem, version: string): string {
  return `helm upgrade ${system}-operator ${releaseChart(system)} --version ${version}`;
}
