import { join } from 'node:path';
import type { V1Deployment } from '@kubernetes/client-node';
import { helm, helmTemplate, parseManifests } from '@domain-operators/e2e-harness';

/**
 * `helm package <chartDir> --destination <outDir>` and resolves with the path of the `.tgz` helm reports; rejects
 * with helm's message when it fails. Packages exactly what the chart folder holds (Chart.yaml's version and
 * appVersion, no overrides).
 */
export async function packageChart(chartDir: string, outDir: string): Promise<string> {
  const result = await helm(['package', chartDir, '--destination', outDir]);
  const saved = /saved it to: (.+\.tgz)\s*$/m.exec(result.stdout)?.[1];
  if (result.exitCode !== 0 || saved === undefined) throw new Error(`helm package ${chartDir} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`);
  return saved;
}

/**
 * The image of the operator container of the Deployment that `chart` (a folder or a packaged `.tgz`) renders with
 * its default values, as `helm install` would pull it. Rejects when helm fails or the chart renders no Deployment
 * with an `operator` container.
 */
export async function defaultOperatorImage(chart: string): Promise<string> {
  const objects = parseManifests(await helmTemplate({ chartDir: chart, releaseName: 'release', namespace: 'release' }));
  const deployment = objects.find((object): object is V1Deployment => object.kind === 'Deployment');
  const image = deployment?.spec?.template.spec?.containers.find((container) => container.name === 'operator')?.image;
  if (image === undefined) throw new Error(`${chart} renders no Deployment with an operator container`);
  return image;
}

/** The folder of the chart of `system` in the checkout at `root`. Pure. */
export function chartDir(root: string, system: string): string {
  return join(root, 'charts', `${system}-operator`);
}
