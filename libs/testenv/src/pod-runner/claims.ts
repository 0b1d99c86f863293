import type { V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';

/** The finalizer kube-controller-manager's pvc-protection controller manages. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

/** `<namespace>/<claim>` keys of the claims live pods use (persistentVolumeClaim and ephemeral volumes). Pure. */
export function claimsInUse(pods: Iterable<V1Pod>): Set<string> {
  const used = new Set<string>();
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const ns = pod.metadata?.namespace ?? 'default';
    for (const volume of pod.spec?.volumes ?? []) {
      if (volume.persistentVolumeClaim !== undefined) used.add(`${ns}/${volume.persistentVolumeClaim.claimName}`);
      else if (volume.ephemeral !== undefined) used.add(`${ns}/${pod.metadata?.name ?? ''}-${volume.name}`);
    }
  }
  return used;
}

/** The `<namespace>/<name>` key of a claim. Pure. */
export function claimKey(pvc: V1PersistentVolumeClaim): string {
  return `${pvc.metadata?.namespace ?? 'default'}/${pvc.metadata?.name ?? ''}`;
}

/**
 * Claims being deleted whose pvc-protection finalizer may go: no live pod uses them (what the pvc-protection
 * controller decides; the testenv control plane does not run it, so the runner, which owns the claims'
 * storage, does). Pure.
 */
export function claimsToRelease(pvcs: readonly V1PersistentVolumeClaim[], inUse: ReadonlySet<string>): V1PersistentVolumeClaim[] {
  return pvcs.filter(
    (pvc) =>
      pvc.metadata?.deletionTimestamp !== undefined &&
      (pvc.metadata.finalizers ?? []).includes(PVC_PROTECTION_FINALIZER) &&
      !inUse.has(claimKey(pvc)),
  );
}

/** Claim directories (`<namespace>/<claim>` keys) whose claim no longer exists and that no live pod uses. Pure. */
export function staleClaimDirs(dirs: readonly string[], pvcs: readonly V1PersistentVolumeClaim[], inUse: ReadonlySet<string>): string[] {
  const existing = new Set(pvcs.map(claimKey));
  return dirs.filter((key) => !existing.has(key) && !inUse.has(key));
}
