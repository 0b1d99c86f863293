import type { V1Container } from '@kubernetes/client-node';
import { join } from 'node:path';
import { expandVars } from './expand.ts';
import type { PathMapping } from './path-map.ts';

/**
 * The container's volume mounts as path mappings: `mountPath` → the volume's host directory, or the file or
 * directory `subPath` (or `subPathExpr` expanded with the container's env) inside it. Mounts of unknown volumes
 * are skipped. Pure.
 */
export function containerMappings(
  container: V1Container,
  volumeDirs: ReadonlyMap<string, string>,
  env: ReadonlyMap<string, string>,
): PathMapping[] {
  const out: PathMapping[] = [];
  for (const mount of container.volumeMounts ?? []) {
    const dir = volumeDirs.get(mount.name);
    if (dir === undefined) continue;
    const sub = mount.subPathExpr !== undefined ? expandVars(mount.subPathExpr, env) : (mount.subPath ?? '');
    out.push({ containerPath: mount.mountPath, hostPath: sub === '' ? dir : join(dir, sub) });
  }
  return out;
}

/** Every container's mappings, first container first (so its mapping wins where two disagree). Pure. */
export function podMappings(perContainer: readonly (readonly PathMapping[])[]): PathMapping[] {
  return perContainer.flat();
}
