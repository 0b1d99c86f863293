import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import { runToCompletion } from '../process.ts';
import { nodeGoModules, readNodeAddonVersions, type NodeAddonVersions } from './addon-versions.ts';
import { addonLdflags } from './ldflags.ts';

/**
 * Absolute paths of the executables a testenv node needs besides the Kubernetes ones, built for the pinned
 * versions. All are static (`CGO_ENABLED=0`), so they also run inside an image that holds nothing else.
 */
export interface NodeAddonBinaries {
  readonly versions: NodeAddonVersions;
  /**
   * The folder holding `containerd`, `containerd-shim-runc-v2` and `ctr`. containerd starts its shim by that
   * name from its PATH: put this folder on containerd's PATH.
   */
  readonly binDir: string;
  readonly containerd: string;
  /** `containerd-shim-runc-v2`; it runs `runc`, which is not built here (Debian's `runc` package). */
  readonly containerdShim: string;
  readonly ctr: string;
  /** CoreDNS with only the cluster-DNS plugins, and no `forward`: it never asks an upstream server. */
  readonly coredns: string;
  readonly localPathProvisioner: string;
  /** A pod sandbox's PID 1: sleeps, reaps children, exits 0 on SIGINT or SIGTERM. */
  readonly pause: string;
}

/** The keys of {@link NodeAddonBinaries} that are executables. */
type BinaryKey = Exclude<keyof NodeAddonBinaries, 'versions' | 'binDir'>;

/** One `go build` run: the programs of one Go module that share one set of link flags. */
interface BuildGroup {
  /** Used in progress and error messages. */
  readonly label: (versions: NodeAddonVersions) => string;
  /** Folder of the Go module, relative to `libs/testenv/go/node`. */
  readonly module: string;
  readonly ldflags: (versions: NodeAddonVersions) => string;
  /** The programs: Go package, and the file name `go build -o dir/` gives it (the last path element). */
  readonly binaries: readonly { readonly key: BinaryKey; readonly pkg: string; readonly built: string }[];
}

const containerdPkg = 'github.com/containerd/containerd/v2/cmd';

/** Every build, in the order they run (one at a time: each `go build` already uses every core). */
const buildGroups: readonly BuildGroup[] = [
  {
    label: (v) => `containerd ${v.containerd}`,
    module: nodeGoModules.containerd,
    ldflags: (v) => addonLdflags.containerd(v.containerd),
    binaries: [
      { key: 'containerd', pkg: `${containerdPkg}/containerd`, built: 'containerd' },
      { key: 'containerdShim', pkg: `${containerdPkg}/containerd-shim-runc-v2`, built: 'containerd-shim-runc-v2' },
      { key: 'ctr', pkg: `${containerdPkg}/ctr`, built: 'ctr' },
    ],
  },
  {
    label: (v) => `coredns ${v.coredns}`,
    module: nodeGoModules.own,
    ldflags: (v) => addonLdflags.coredns(v.corednsBuild),
    binaries: [{ key: 'coredns', pkg: './cmd/coredns', built: 'coredns' }],
  },
  {
    label: (v) => `local-path-provisioner ${v.localPathProvisioner}`,
    module: nodeGoModules.localPathProvisioner,
    ldflags: (v) => addonLdflags.localPathProvisioner(v.localPathProvisioner),
    binaries: [
      {
        key: 'localPathProvisioner',
        pkg: 'github.com/rancher/local-path-provisioner',
        built: 'local-path-provisioner',
      },
    ],
  },
  {
    label: () => 'pause',
    module: nodeGoModules.own,
    ldflags: (v) => addonLdflags.pause(v.pause),
    binaries: [{ key: 'pause', pkg: './cmd/pause', built: 'pause' }],
  },
];

/**
 * Where the binaries of `versions` live in the machine-wide cache: `<cacheDir>/node/<name>/<key>/`, the key
 * being the pinned version for upstream programs and a source hash for ours (CoreDNS's is `<version>-<hash>`:
 * the module is upstream, the plugin list ours). containerd's three share one `bin` folder. Pure.
 */
export function nodeAddonPaths(cacheDir: string, versions: NodeAddonVersions): NodeAddonBinaries {
  const node = join(cacheDir, 'node');
  const binDir = join(node, 'containerd', versions.containerd, 'bin');
  const lppVersion = versions.localPathProvisioner;
  return {
    versions,
    binDir,
    containerd: join(binDir, 'containerd'),
    containerdShim: join(binDir, 'containerd-shim-runc-v2'),
    ctr: join(binDir, 'ctr'),
    coredns: join(node, 'coredns', `${versions.coredns}-${versions.corednsBuild}`, 'coredns'),
    localPathProvisioner: join(node, 'local-path-provisioner', lppVersion, 'local-path-provisioner'),
    pause: join(node, 'pause', versions.pause, 'pause'),
  };
}

/**
 * Returns the cached node add-on binaries for the versions pinned in the Go modules under
 * `libs/testenv/go/node`, building the missing ones first with the `go` command alone (modules come from the
 * Go module proxy). Idempotent; a cold build takes minutes, a warm call only reads the go.mod files and hashes
 * our sources. Binaries are built into a temporary folder and renamed into place, so a build interrupted
 * half-way never leaves a truncated executable in the cache. Rejects naming the program whose build failed,
 * with the tail of the build log (`<logsDir>/node-build.log`).
 */
export async function ensureNodeAddonBinaries(ctx: ComponentContext): Promise<NodeAddonBinaries> {
  const nodeModuleDir = join(ctx.paths.testenvDir, 'go', 'node');
  const versions = await readNodeAddonVersions(nodeModuleDir);
  const binaries = nodeAddonPaths(ctx.paths.cacheDir, versions);
  const logFile = join(ctx.paths.logsDir, 'node-build.log');
  for (const group of buildGroups) {
    const missing = group.binaries.filter((binary) => !existsSync(binaries[binary.key]));
    if (missing.length === 0) continue;
    const label = group.label(versions);
    ctx.progress(`building ${missing.map((binary) => binary.built).join(', ')} (${label}; log: ${logFile})`);
    const started = Date.now();
    await mkdir(ctx.paths.cacheDir, { recursive: true });
    const tmp = await mkdtemp(join(ctx.paths.cacheDir, '.build-'));
    try {
      const args = [
        'build',
        '-trimpath',
        '-buildvcs=false',
        '-ldflags',
        group.ldflags(versions),
        '-o',
        `${tmp}/`,
        ...missing.map((binary) => binary.pkg),
      ];
      try {
        await runToCompletion('go', args, {
          cwd: join(nodeModuleDir, group.module),
          env: { CGO_ENABLED: '0', GOWORK: 'off' },
          logFile,
        });
      } catch (err) {
        const why =
          (err as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'the `go` command is not installed (Go 1.26+ is needed)'
            : (err as Error).message;
        throw new Error(`node: building ${label} failed: ${why}`, { cause: err });
      }
      for (const binary of missing) {
        await mkdir(dirname(binaries[binary.key]), { recursive: true });
        await rename(join(tmp, binary.built), binaries[binary.key]);
      }
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    ctx.progress(`built ${label} in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  return binaries;
}
