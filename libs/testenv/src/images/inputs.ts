import { access, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { OperatorInput, OperatorSystem, VersionedBinary } from './definitions.ts';

/**
 * The image a chart deploys with its default values: `image.repository` from `values.yaml` and `image.tag`, or
 * the `appVersion` of `Chart.yaml` when the tag is empty (the charts' `operator.image` helper). Reads only those
 * three keys, each on its own line (how the charts are written). Throws when one is missing. Pure.
 */
export function chartImageReference(chartYaml: string, valuesYaml: string): string {
  const scalar = (text: string): string => text.trim().replace(/^(["'])(.*)\1$/, '$2');
  const appVersion = /^appVersion:(.*)$/m.exec(chartYaml)?.[1];
  const imageBlock = /^image:\n((?:[ \t]+.*\n?|\s*\n)*)/m.exec(valuesYaml)?.[1] ?? '';
  const repository = /^[ \t]+repository:(.*)$/m.exec(imageBlock)?.[1];
  const tag = /^[ \t]+tag:(.*)$/m.exec(imageBlock)?.[1];
  if (appVersion === undefined || repository === undefined) throw new Error('chart: Chart.yaml needs appVersion and values.yaml image.repository');
  const chosen = tag === undefined || scalar(tag.replace(/\s#.*$/, '')) === '' ? scalar(appVersion) : scalar(tag.replace(/\s#.*$/, ''));
  return `${scalar(repository.replace(/\s#.*$/, ''))}:${chosen}`;
}

/**
 * An operator's image inputs in the checkout at `root`: its bundle folder and the chart's default image. Throws
 * with the command to run when the bundle has not been built.
 */
export async function operatorInput(root: string, system: OperatorSystem): Promise<OperatorInput> {
  const bundleDir = join(root, 'dist', 'operators', system);
  for (const file of ['main.js', 'main.js.map']) {
    await access(join(bundleDir, file)).catch(() => {
      throw new Error(`images: ${join(bundleDir, file)} is missing: run \`nx run ${system}-operator:build\` first`);
    });
  }
  const chartDir = join(root, 'charts', `${system}-operator`);
  const [chart, values] = await Promise.all([readFile(join(chartDir, 'Chart.yaml'), 'utf8'), readFile(join(chartDir, 'values.yaml'), 'utf8')]);
  return { bundleDir, reference: chartImageReference(chart, values) };
}

/**
 * The project's pinned Node binary (the `node` devDependency: `node_modules/.bin/node` resolves to
 * `node_modules/node/bin/node`, a copy of the official linux-x64 build) and its version. Throws when it is not
 * installed or its version is not the one the root `package.json` pins.
 */
export async function pinnedNode(root: string): Promise<VersionedBinary> {
  const rootPackage = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const pinned = rootPackage.devDependencies?.['node'];
  let installed: string;
  let binary: string;
  try {
    binary = await realpath(join(root, 'node_modules', '.bin', 'node'));
    installed = (JSON.parse(await readFile(join(root, 'node_modules', 'node', 'package.json'), 'utf8')) as { version?: string }).version ?? '';
  } catch (err) {
    throw new Error('images: the pinned Node binary (node_modules/.bin/node) is not installed: run `npm ci`', { cause: err });
  }
  if (pinned === undefined || installed !== pinned) {
    throw new Error(`images: node_modules has Node ${installed}, package.json pins ${pinned ?? 'none'}: run \`npm ci\``);
  }
  return { binary, version: installed };
}
