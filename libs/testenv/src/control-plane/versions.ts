import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The Kubernetes and etcd versions the Go module pins; `go.mod` is the single source of truth. */
export interface PinnedVersions {
  /** e.g. `v1.35.8`: the `k8s.io/kubernetes` requirement, also stamped into the binaries. */
  readonly kubernetes: string;
  /** e.g. `v3.6.5`: the `go.etcd.io/etcd/server/v3` requirement. */
  readonly etcd: string;
}

/** Reads the pinned versions from `<goModuleDir>/go.mod`. Throws when either requirement is missing. */
export async function readPinnedVersions(goModuleDir: string): Promise<PinnedVersions> {
  const goMod = await readFile(join(goModuleDir, 'go.mod'), 'utf8');
  return {
    kubernetes: requirement(goMod, 'k8s.io/kubernetes'),
    etcd: requirement(goMod, 'go.etcd.io/etcd/server/v3'),
  };
}

/** The version `module` is required at in the text of a go.mod (block or single-line form). Pure. */
export function requirement(goMod: string, module: string): string {
  const escaped = module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, 'm').exec(goMod);
  if (match?.[1] === undefined) throw new Error(`go.mod does not require ${module}`);
  return match[1];
}

/** `v1.35.8` → `{ major: '1', minor: '35' }`, as Kubernetes' version stamping wants them. Pure. */
export function majorMinor(version: string): { readonly major: string; readonly minor: string } {
  const match = /^v(\d+)\.(\d+)\./.exec(version);
  if (match?.[1] === undefined || match[2] === undefined) throw new Error(`not a semantic version: ${version}`);
  return { major: match[1], minor: match[2] };
}
