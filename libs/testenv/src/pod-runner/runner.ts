import type { V1Pod } from '@kubernetes/client-node';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ClaimKeeper } from './claim-keeper.ts';
import { IpStore } from './ip-store.ts';
import type { Kube } from './kube.ts';
import { apiStatus, describeError } from './kube.ts';
import type { RunnerLayout } from './layout.ts';
import { NODE_NAME } from './layout.ts';
import { log } from './log.ts';
import { NodeHeartbeat } from './node.ts';
import { stopRecordedServers } from './orphans.ts';
import { PodInformer } from './pod-watch.ts';
import { PodWorker } from './pod-worker.ts';
import { bindPod, schedulingDecision } from './scheduler.ts';

/** How often every pod is re-examined even without events (binding retries, missed updates). */
const RESYNC_MS = 10_000;

/**
 * The whole runner: node registration and heartbeat, the scheduler, one {@link PodWorker} per pod bound to
 * the node, fed by a list-watch of all pods, and the {@link ClaimKeeper} for claim storage.
 */
export class PodRunner {
  readonly #kube: Kube;
  readonly #layout: RunnerLayout;
  readonly #ips: IpStore;
  readonly #node: NodeHeartbeat;
  readonly #informer: PodInformer;
  readonly #claims: ClaimKeeper;
  readonly #workers = new Map<string, PodWorker>();
  readonly #pods = new Map<string, V1Pod>();
  readonly #binding = new Set<string>();
  #resync: NodeJS.Timeout | undefined;

  constructor(kube: Kube, layout: RunnerLayout) {
    this.#kube = kube;
    this.#layout = layout;
    this.#ips = new IpStore(layout.ipsFile);
    this.#node = new NodeHeartbeat(kube, layout.healthFile);
    this.#claims = new ClaimKeeper(kube, layout.pvcDir, () => this.#pods.values());
    this.#informer = new PodInformer(kube, {
      upsert: (pod) => {
        this.#upsert(pod);
      },
      remove: (pod) => {
        this.#remove(pod);
      },
      relisted: (pods) => {
        this.#relisted(pods);
      },
    });
  }

  /**
   * Stops redis-servers left by an earlier runner (their pods are started again, counting one restart), registers
   * the node, then starts watching pods.
   */
  async start(): Promise<void> {
    const stopped = await stopRecordedServers(this.#layout.podsDir);
    if (stopped > 0) log(`stopped ${stopped} redis-server(s) left by an earlier runner`);
    await this.#ips.load();
    await this.#node.register();
    this.#node.start();
    this.#informer.start();
    this.#claims.start();
    this.#resync = setInterval(() => {
      for (const pod of this.#pods.values()) this.#upsert(pod);
    }, RESYNC_MS);
    log(`pod runner up (pid ${process.pid}), node ${NODE_NAME}`);
  }

  /** Stops watching and heartbeating and stops every redis-server (SIGTERM, SIGKILL after 5 s). */
  async stop(): Promise<void> {
    if (this.#resync !== undefined) clearInterval(this.#resync);
    this.#informer.stop();
    this.#claims.stop();
    this.#node.stop();
    await Promise.all([...this.#workers.values()].map((w) => w.shutdown()));
  }

  #upsert(pod: V1Pod): void {
    const uid = pod.metadata?.uid ?? '';
    this.#pods.set(uid, pod);
    const nodeName = pod.spec?.nodeName ?? '';
    if (nodeName === '') {
      this.#schedule(pod);
      return;
    }
    if (nodeName !== NODE_NAME) return;
    let worker = this.#workers.get(uid);
    if (worker === undefined) {
      worker = new PodWorker({ kube: this.#kube, layout: this.#layout, ips: this.#ips }, pod);
      this.#workers.set(uid, worker);
    }
    worker.update(pod);
  }

  #remove(pod: V1Pod): void {
    const uid = pod.metadata?.uid ?? '';
    this.#pods.delete(uid);
    const worker = this.#workers.get(uid);
    if (worker === undefined) return;
    this.#workers.delete(uid);
    worker.gone().catch((err: unknown) => {
      log(`cleanup of pod ${uid} failed: ${describeError(err)}`);
    });
  }

  #relisted(pods: readonly V1Pod[]): void {
    const present = new Set(pods.map((p) => p.metadata?.uid ?? ''));
    for (const [uid, pod] of this.#pods) if (!present.has(uid)) this.#remove(pod);
    void this.#removeStalePodDirs(present);
  }

  /** Deletes directories of pods that no longer exist (left by an earlier runner) and frees their addresses. */
  async #removeStalePodDirs(present: ReadonlySet<string>): Promise<void> {
    const uids = await readdir(this.#layout.podsDir).catch(() => [] as string[]);
    for (const uid of uids) {
      if (present.has(uid) || this.#workers.has(uid)) continue;
      await this.#ips.release(uid);
      await rm(join(this.#layout.podsDir, uid), { recursive: true, force: true });
    }
  }

  #schedule(pod: V1Pod): void {
    const uid = pod.metadata?.uid ?? '';
    if (this.#binding.has(uid) || schedulingDecision(pod, this.#node.labels) !== 'bind') return;
    this.#binding.add(uid);
    bindPod(this.#kube, pod)
      .then(() => {
        log(`bound ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} to ${NODE_NAME}`);
      })
      .catch((err: unknown) => {
        if (apiStatus(err) !== 409 && apiStatus(err) !== 404) log(`binding ${pod.metadata?.name ?? ''} failed: ${describeError(err)}`);
      })
      .finally(() => {
        this.#binding.delete(uid);
      });
  }
}
