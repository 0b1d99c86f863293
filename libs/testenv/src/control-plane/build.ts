import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import { runToCompletion } from '../process.ts';
import type { ControlPlaneLayout } from './layout.ts';
import { majorMinor, readPinnedVersions, type PinnedVersions } from './versions.ts';

/** Absolute paths of the Kubernetes executables (control plane and node) and etcd, built for the pinned versions. */
export interface ControlPlaneBinaries {
  readonly versions: PinnedVersions;
  readonly etcd: string;
  readonly kubeApiserver: string;
  readonly kubeControllerManager: string;
  readonly kubeScheduler: string;
  readonly kubelet: string;
  readonly kubeProxy: string;
}

/** Go packages built, and the file name each gets in the cache. */
const packages = {
  kubeApiserver: { pkg: 'k8s.io/kubernetes/cmd/kube-apiserver', built: 'kube-apiserver' },
  kubeControllerManager: { pkg: 'k8s.io/kubernetes/cmd/kube-controller-manager', built: 'kube-controller-manager' },
  kubeScheduler: { pkg: 'k8s.io/kubernetes/cmd/kube-scheduler', built: 'kube-scheduler' },
  kubelet: { pkg: 'k8s.io/kubernetes/cmd/kubelet', built: 'kubelet' },
  kubeProxy: { pkg: 'k8s.io/kubernetes/cmd/kube-proxy', built: 'kube-proxy' },
  // The main package of etcd's server module; `go build -o dir/` names it after the path element before `/v3`.
  etcd: { pkg: 'go.etcd.io/etcd/server/v3', built: 'server' },
} as const;

/** Where the binaries of `versions` live in the machine-wide cache. Pure. */
export function binaryPaths(cacheDir: string, versions: PinnedVersions): ControlPlaneBinaries {
  const kubeDir = join(cacheDir, 'kubernetes', versions.kubernetes);
  return {
    versions,
    etcd: join(cacheDir, 'etcd', versions.etcd, 'etcd'),
    kubeApiserver: join(kubeDir, 'kube-apiserver'),
    kubeControllerManager: join(kubeDir, 'kube-controller-manager'),
    kubeScheduler: join(kubeDir, 'kube-scheduler'),
    kubelet: join(kubeDir, 'kubelet'),
    kubeProxy: join(kubeDir, 'kube-proxy'),
  };
}

/**
 * The `-ldflags` that stamp the Kubernetes version, so `/version` reports it instead of `v0.0.0`
 * (the same variables `hack/lib/version.sh` sets). `-s -w` drops symbols: smaller, faster to link. Pure.
 */
export function versionLdflags(kubernetesVersion: string): string {
  const { major, minor } = majorMinor(kubernetesVersion);
  const flags = ['-s', '-w'];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    flags.push(
      `-X ${pkg}.gitVersion=${kubernetesVersion}`,
      `-X ${pkg}.gitMajor=${major}`,
      `-X ${pkg}.gitMinor=${minor}`,
      `-X ${pkg}.gitTreeState=clean`,
    );
  }
  return flags.join(' ');
}

/**
 * Returns the cached binaries for the versions pinned in the Go module, building the missing ones first
 * with the `go` command alone (modules come from the Go module proxy). Idempotent; a cold build takes
 * minutes. Binaries are built into a temporary folder and renamed into place, so a build interrupted
 * half-way never leaves a truncated executable in the cache.
 */
export async function ensureBinaries(ctx: ComponentContext, layout: ControlPlaneLayout): Promise<ControlPlaneBinaries> {
  const versions = await readPinnedVersions(layout.goModuleDir);
  const binaries = binaryPaths(ctx.paths.cacheDir, versions);
  const missing = (Object.keys(packages) as (keyof typeof packages)[]).filter((key) => !existsSync(binaries[key]));
  if (missing.length === 0) return binaries;

  const names = missing.map((key) => packages[key].built.replace(/^server$/, 'etcd')).join(', ');
  ctx.progress(
    `building ${names} (Kubernetes ${versions.kubernetes}, etcd ${versions.etcd}; ` +
      `cold, several minutes; log: ${layout.logFiles.build})`,
  );
  const started = Date.now();
  await mkdir(ctx.paths.cacheDir, { recursive: true });
  const tmp = await mkdtemp(join(ctx.paths.cacheDir, '.build-'));
  try {
    const ldflags = versionLdflags(versions.kubernetes);
    const args = ['build', '-trimpath', '-ldflags', ldflags, '-o', `${tmp}/`, ...missing.map((key) => packages[key].pkg)];
    try {
      await runToCompletion('go', args, { cwd: layout.goModuleDir, logFile: layout.logFiles.build });
    } catch (err) {
      const why =
        (err as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'the `go` command is not installed (Go 1.25+ is needed)'
          : (err as Error).message;
      throw new Error(`apiserver: building ${names} failed: ${why}`, { cause: err });
    }
    for (const key of missing) {
      await mkdir(dirname(binaries[key]), { recursive: true });
      await rename(join(tmp, packages[key].built), binaries[key]);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  ctx.progress(`built ${names} in ${Math.round((Date.now() - started) / 1000)} s`);
  return binaries;
}
