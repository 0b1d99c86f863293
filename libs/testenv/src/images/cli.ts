// The image builder's command line (`nx run testenv:images`):
//   node libs/testenv/src/images/cli.ts build [--only pause,redis,…] [--pause <file>]
//       [--coredns <file> --coredns-version <v>] [--local-path-provisioner <file> --local-path-provisioner-version <v>]
//   node libs/testenv/src/images/cli.ts import --ctr <ctr> --address <socket> [build flags…]  (builds, then imports)
//   node libs/testenv/src/images/cli.ts check <archive.tar>…
// `build` prints each image with its digest, size, time and whether each layer came from the cache. The Go
// programs (pause, CoreDNS, local-path-provisioner) come from `ensureNodeAddonBinaries` (built on first use, for
// minutes) unless all three are given as flags.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureNodeAddonBinaries } from '../node-build/addon-binaries.ts';
import { resolvePaths, type TestenvPaths } from '../paths.ts';
import { checkArchive } from './archive-check.ts';
import type { BuiltImage } from './builder.ts';
import { IMAGE_IDS, OPERATOR_SYSTEMS, type ImageId, type ImageInputs, type OperatorInput, type OperatorSystem, type VersionedBinary } from './definitions.ts';
import { ensureImages } from './ensure-images.ts';
import { execFileCapture } from './exec.ts';
import { importImages } from './import-images.ts';
import { operatorInput, pinnedNode } from './inputs.ts';

const USAGE = `usage: images build|import [--only ${IMAGE_IDS.join(',')}] [--pause <file>] [--coredns <file> --coredns-version <v>]
       [--local-path-provisioner <file> --local-path-provisioner-version <v>] [--ctr <ctr> --address <socket>]
       images check <archive.tar>…`;

const options = {
  only: { type: 'string' },
  pause: { type: 'string' },
  coredns: { type: 'string' },
  'coredns-version': { type: 'string' },
  'local-path-provisioner': { type: 'string' },
  'local-path-provisioner-version': { type: 'string' },
  ctr: { type: 'string' },
  address: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function isImageId(name: string): name is ImageId {
  return (IMAGE_IDS as readonly string[]).includes(name);
}

/** The Go programs' inputs: all three from the flags, else from `ensureNodeAddonBinaries` (which builds them once). */
async function goInputs(values: Values, paths: TestenvPaths): Promise<Pick<ImageInputs, 'pause' | 'coredns' | 'localPathProvisioner'>> {
  const versioned = (file: string | undefined, version: string | undefined, flag: string): VersionedBinary | undefined => {
    if (file === undefined) return undefined;
    if (version === undefined) throw new Error(`images: --${flag} needs --${flag}-version`);
    return { binary: file, version };
  };
  const pause = values.pause;
  const coredns = versioned(values.coredns, values['coredns-version'], 'coredns');
  const localPathProvisioner = versioned(values['local-path-provisioner'], values['local-path-provisioner-version'], 'local-path-provisioner');
  if (pause !== undefined && coredns !== undefined && localPathProvisioner !== undefined) return { pause, coredns, localPathProvisioner };
  const addons = await ensureNodeAddonBinaries({ paths, progress: (line) => process.stderr.write(`images: ${line}\n`) });
  return {
    pause: pause ?? addons.pause,
    coredns: coredns ?? { binary: addons.coredns, version: addons.versions.coredns },
    localPathProvisioner: localPathProvisioner ?? { binary: addons.localPathProvisioner, version: addons.versions.localPathProvisioner },
  };
}

/** The inputs of `ids` from the flags and the checkout; only what the chosen images need is read or built. */
async function inputsFor(ids: readonly ImageId[], values: Values, paths: TestenvPaths): Promise<ImageInputs> {
  const systems = OPERATOR_SYSTEMS.filter((s) => ids.includes(`${s}-operator`));
  const operators: Partial<Record<OperatorSystem, OperatorInput>> = {};
  for (const system of systems) operators[system] = await operatorInput(paths.root, system);
  const needsGo = ids.some((id) => id === 'pause' || id === 'coredns' || id === 'local-path-provisioner');
  return {
    ...(needsGo && (await goInputs(values, paths))),
    ...(systems.length > 0 && { node: await pinnedNode(paths.root) }),
    operators,
  };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function report(image: BuiltImage): string {
  const lines = [`${image.id.padEnd(24)} ${image.reference}`, `${''.padEnd(24)} ${image.manifestDigest}  ${mib(image.size)}  ${(image.millis / 1000).toFixed(2)} s${image.archiveWritten ? '  archive written' : ''}`];
  for (const layer of image.layers) lines.push(`${''.padEnd(26)}${layer.cached ? 'cached' : 'built '}  ${layer.digest.slice(7, 19)}  ${mib(layer.size).padStart(10)}  ${layer.description}`);
  return lines.join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true });
  const command = positionals[0];
  if (values.help === true || command === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return values.help === true ? 0 : 2;
  }
  if (command === 'check') {
    for (const archive of positionals.slice(1)) {
      const summary = checkArchive(await readFile(archive));
      process.stdout.write(`${archive}: ${summary.reference} ${summary.manifestDigest}, ${summary.layers.length} layers, consistent\n`);
    }
    return 0;
  }
  if (command !== 'build' && command !== 'import') {
    process.stderr.write(`images: unknown command "${command}"\n${USAGE}\n`);
    return 2;
  }
  const ids: ImageId[] = [];
  for (const name of (values.only ?? IMAGE_IDS.join(',')).split(',').filter((n) => n !== '')) {
    if (!isImageId(name)) {
      process.stderr.write(`images: unknown image "${name}"; known: ${IMAGE_IDS.join(', ')}\n`);
      return 2;
    }
    ids.push(name);
  }
  const paths = resolvePaths();
  const inputs = await inputsFor(ids, values, paths);
  const started = Date.now();
  const built = await ensureImages({ ids, inputs, cacheDir: paths.cacheDir, archiveDir: join(paths.stateDir, 'images') });
  for (const image of built) process.stdout.write(`${report(image)}\n`);
  process.stdout.write(`images: ${built.length} built in ${((Date.now() - started) / 1000).toFixed(2)} s\n`);
  if (command === 'import') {
    if (values.ctr === undefined || values.address === undefined) throw new Error('images: import needs --ctr and --address');
    const results = await importImages(built, { ctr: values.ctr, address: values.address, exec: execFileCapture });
    for (const r of results) process.stdout.write(`${r.imported ? 'imported' : 'present '} ${r.reference}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
