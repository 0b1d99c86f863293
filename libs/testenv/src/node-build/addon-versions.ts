import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { requirement } from '../control-plane/versions.ts';
import { packageSourceHash } from './source-hash.ts';

/**
 * The Go modules of the node add-ons, as folders relative to `libs/testenv/go/node`: our own programs with
 * CoreDNS, then containerd and local-path-provisioner, each in a module of its own so it is built with the
 * dependency versions it was released with.
 */
export const nodeGoModules = {
  own: '.',
  containerd: 'containerd',
  localPathProvisioner: 'local-path-provisioner',
} as const;

/** What the node add-on binaries are built from; the Go modules' files are the single source of truth. */
export interface NodeAddonVersions {
  /** e.g. `v2.2.1`: the `github.com/containerd/containerd/v2` requirement, also stamped into the binaries. */
  readonly containerd: string;
  /** e.g. `v1.15.0`: the `github.com/coredns/coredns` requirement our `cmd/coredns` is built against. */
  readonly coredns: string;
  /** e.g. `v0.0.30`: the `github.com/rancher/local-path-provisioner` requirement. */
  readonly localPathProvisioner: string;
  /** Hash of `cmd/coredns` and the module's go.mod and go.sum: the plugin list is ours, so it keys the cache. */
  readonly corednsBuild: string;
  /** Hash of `cmd/pause` and the module's go.mod and go.sum. */
  readonly pause: string;
}

/**
 * Reads the pinned versions from the go.mod files under `nodeModuleDir` (`libs/testenv/go/node`) and hashes
 * the sources of our own programs. Throws when a go.mod lacks its requirement or a file cannot be read.
 */
export async function readNodeAddonVersions(nodeModuleDir: string): Promise<NodeAddonVersions> {
  const goMod = (module: string): Promise<string> => readFile(join(nodeModuleDir, module, 'go.mod'), 'utf8');
  const [own, containerd, localPathProvisioner, corednsBuild, pause] = await Promise.all([
    goMod(nodeGoModules.own),
    goMod(nodeGoModules.containerd),
    goMod(nodeGoModules.localPathProvisioner),
    packageSourceHash(join(nodeModuleDir, nodeGoModules.own), 'cmd/coredns'),
    packageSourceHash(join(nodeModuleDir, nodeGoModules.own), 'cmd/pause'),
  ]);
  return {
    containerd: requirement(containerd, 'github.com/containerd/containerd/v2'),
    coredns: requirement(own, 'github.com/coredns/coredns'),
    localPathProvisioner: requirement(localPathProvisioner, 'github.com/rancher/local-path-provisioner'),
    corednsBuild,
    pause,
  };
}
