import { VersionApi } from '@kubernetes/client-node';
import { writeFile, rename, mkdir } from 'node:fs/promises';
import { arch, cpus, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { Kube } from './kube.ts';
import { apiStatus, describeError, mergePatch } from './kube.ts';
import { NODE_NAME } from './layout.ts';
import { log } from './log.ts';
import type { HostFacts } from './node-manifest.ts';
import { nodeLabels, nodeManifest, nodeStatus } from './node-manifest.ts';

/** How often the node status (and the health file) is refreshed. */
export const HEARTBEAT_INTERVAL_MS = 10_000;

/** What the health file holds. */
export interface HealthRecord {
  readonly pid: number;
  /** ISO time of the last successful Node heartbeat. */
  readonly heartbeatAt: string;
}

async function hostFacts(kube: Kube): Promise<HostFacts> {
  const version = await kube.config.makeApiClient(VersionApi).getCode();
  const machine = arch();
  return {
    cpus: cpus().length,
    memoryBytes: totalmem(),
    kernelVersion: release(),
    architecture: machine === 'x64' ? 'amd64' : machine,
    kubeletVersion: version.gitVersion,
  };
}

/**
 * Registers the Node `testenv-node` and keeps it Ready: its status (conditions with `lastHeartbeatTime`) is
 * patched every {@link HEARTBEAT_INTERVAL_MS}, and after each successful patch the health file is rewritten, which
 * is what `podRunnerComponent.healthy` reads.
 */
export class NodeHeartbeat {
  readonly #kube: Kube;
  readonly #healthFile: string;
  #facts: HostFacts | undefined;
  #since = new Date();
  #timer: NodeJS.Timeout | undefined;

  constructor(kube: Kube, healthFile: string) {
    this.#kube = kube;
    this.#healthFile = healthFile;
  }

  /** The node's labels (for nodeSelector matching); empty before {@link register}. */
  get labels(): Record<string, string> {
    return this.#facts === undefined ? {} : nodeLabels(this.#facts);
  }

  /** Creates the Node, or refreshes its labels when it exists, then posts a first heartbeat. Rejects on API errors. */
  async register(): Promise<void> {
    const facts = await hostFacts(this.#kube);
    this.#facts = facts;
    this.#since = new Date();
    try {
      await this.#kube.core.createNode({ body: nodeManifest(facts, this.#since) });
      log(`registered node ${NODE_NAME}`);
    } catch (err) {
      if (apiStatus(err) !== 409) throw err;
      await this.#kube.core.patchNode({ name: NODE_NAME, body: { metadata: { labels: nodeLabels(facts) } } }, mergePatch);
      log(`node ${NODE_NAME} exists; taking it over`);
    }
    await this.beat();
  }

  /** Posts one heartbeat and rewrites the health file; rejects on API errors. */
  async beat(): Promise<void> {
    if (this.#facts === undefined) throw new Error('pod-runner: node not registered');
    const now = new Date();
    await this.#kube.core.patchNodeStatus({ name: NODE_NAME, body: { status: nodeStatus(this.#facts, now, this.#since) } }, mergePatch);
    const record: HealthRecord = { pid: process.pid, heartbeatAt: now.toISOString() };
    await mkdir(dirname(this.#healthFile), { recursive: true });
    await writeFile(`${this.#healthFile}.tmp`, `${JSON.stringify(record)}\n`);
    await rename(`${this.#healthFile}.tmp`, this.#healthFile);
  }

  /** Starts the periodic heartbeat; failures are logged and retried at the next tick. */
  start(): void {
    this.#timer = setInterval(() => {
      this.beat().catch((err: unknown) => {
        log(`node heartbeat failed: ${describeError(err)}`);
      });
    }, HEARTBEAT_INTERVAL_MS);
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }
}
