import type { V1Pod } from '@kubernetes/client-node';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { claimsInUse, claimsToRelease, PVC_PROTECTION_FINALIZER, staleClaimDirs } from './claims.ts';
import type { Kube } from './kube.ts';
import { apiStatus, describeError, mergePatch } from './kube.ts';
import { log } from './log.ts';

/** How often claims are examined. */
const CLAIM_PASS_MS = 3_000;

async function claimDirs(pvcDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const ns of await readdir(pvcDir).catch(() => [] as string[])) {
    for (const claim of await readdir(join(pvcDir, ns)).catch(() => [] as string[])) out.push(`${ns}/${claim}`);
  }
  return out;
}

/**
 * The storage side of claims: removes the pvc-protection finalizer of deleted claims no live pod uses (standing in
 * for the pvc-protection controller, which the testenv control plane does not run, so that namespaces holding
 * StatefulSet claims can be deleted), and deletes a claim's directory once the claim is gone and unused
 * (reclaim policy Delete). Claims are otherwise left alone: they stay Pending, no PersistentVolume is created.
 */
export class ClaimKeeper {
  readonly #kube: Kube;
  readonly #pvcDir: string;
  readonly #pods: () => Iterable<V1Pod>;
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(kube: Kube, pvcDir: string, pods: () => Iterable<V1Pod>) {
    this.#kube = kube;
    this.#pvcDir = pvcDir;
    this.#pods = pods;
  }

  start(): void {
    this.#timer = setInterval(() => {
      void this.pass();
    }, CLAIM_PASS_MS);
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }

  /** One examination of all claims; errors are logged. */
  async pass(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      const pvcs = (await this.#kube.core.listPersistentVolumeClaimForAllNamespaces({})).items;
      const inUse = claimsInUse(this.#pods());
      for (const pvc of claimsToRelease(pvcs, inUse)) {
        const finalizers = (pvc.metadata?.finalizers ?? []).filter((f) => f !== PVC_PROTECTION_FINALIZER);
        try {
          await this.#kube.core.patchNamespacedPersistentVolumeClaim(
            {
              name: pvc.metadata?.name ?? '',
              namespace: pvc.metadata?.namespace ?? 'default',
              body: { metadata: { finalizers, resourceVersion: pvc.metadata?.resourceVersion } },
            },
            mergePatch,
          );
        } catch (err) {
          if (apiStatus(err) !== 404 && apiStatus(err) !== 409) throw err;
        }
      }
      for (const key of staleClaimDirs(await claimDirs(this.#pvcDir), pvcs, inUse)) {
        await rm(join(this.#pvcDir, key), { recursive: true, force: true });
        log(`claim ${key} deleted: removed its directory`);
        await rmdir(join(this.#pvcDir, key.split('/')[0] ?? '')).catch(() => undefined);
      }
    } catch (err) {
      log(`claim pass failed: ${describeError(err)}`);
    } finally {
      this.#running = false;
    }
  }
}
