import type { V1Container, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { redisCommand } from '../redis/redis.ts';
import { restartBackoff, restartPolicyOf, shouldRestart } from './backoff.ts';
import { ContainerConfigError } from './config-error.ts';
import type { ContainerProcess } from './container-process.ts';
import { startContainerProcess } from './container-process.ts';
import { containerEnv } from './env.ts';
import type { IpStore } from './ip-store.ts';
import type { Kube } from './kube.ts';
import { apiStatus, describeError, mergePatch } from './kube.ts';
import type { RunnerLayout } from './layout.ts';
import { podFiles } from './layout.ts';
import { log } from './log.ts';
import { containerMappings, podMappings } from './mounts.ts';
import { fetchPodData } from './pod-data.ts';
import type { ContainerPhase, ContainerRuntime, Termination } from './pod-status.ts';
import { notRunnableStatus, podStatus } from './pod-status.ts';
import type { ReadinessState } from './readiness.ts';
import { afterProbe, INITIAL_READINESS, nextProbeDelayMs, pingAnswered, probeSettings } from './readiness.ts';
import { buildRedisArgs } from './redis-args.ts';
import { redisArgv, runnability } from './runnable.ts';
import type { MaterialisedVolume } from './volumes.ts';
import { materialiseVolumes, rewriteVolumeFiles } from './volumes.ts';

/** What a worker shares with the runner. */
export interface WorkerDeps {
  readonly kube: Kube;
  readonly layout: RunnerLayout;
  readonly ips: IpStore;
}

/** Retry delay after a configuration error or a failed API call. */
const RETRY_MS = 2_000;
/** Grace for processes of a pod that vanished from the API or of a runner shutting down. */
const VANISHED_GRACE_MS = 5_000;

interface Slot {
  readonly container: V1Container;
  restartCount: number;
  phase: ContainerPhase;
  lastTermination: Termination | undefined;
  ready: boolean;
  restarting: boolean;
  finished: boolean;
  backoffStep: number;
  process: ContainerProcess | undefined;
  port: number | undefined;
  generation: number;
  readiness: ReadinessState;
  probesDone: number;
  probeTimer: NodeJS.Timeout | undefined;
  restartTimer: NodeJS.Timeout | undefined;
}

function podName(pod: V1Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/**
 * Plays the kubelet for one pod bound to the node: runs each container's redis-server, probes readiness with
 * PING, restarts exited containers per restartPolicy with backoff, reports status, and on deletion stops the
 * processes (SIGTERM, SIGKILL after the grace period) and finalises the pod. Every step runs in `sync`, which is
 * serialised: `update` and timers only request another pass.
 */
export class PodWorker {
  readonly #deps: WorkerDeps;
  #pod: V1Pod;
  readonly #slots = new Map<string, Slot>();
  #podIP: string | undefined;
  #startTime: Date | undefined;
  #volumeDirs: Map<string, string> | undefined;
  #lastStatus = '';
  #syncing = false;
  #again = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #terminating = false;
  #stopped = false;

  constructor(deps: WorkerDeps, pod: V1Pod) {
    this.#deps = deps;
    this.#pod = pod;
  }

  get uid(): string {
    return this.#pod.metadata?.uid ?? '';
  }

  /** Hands over the latest version of the pod and requests a sync. */
  update(pod: V1Pod): void {
    this.#pod = pod;
    this.kick();
  }

  /** Requests a sync pass (coalesced with one in progress). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#syncing) {
      this.#again = true;
      return;
    }
    this.#syncing = true;
    void this.#drain();
  }

  /** The pod vanished from the API: stops its processes, frees its address and removes its files. */
  async gone(): Promise<void> {
    await this.shutdown();
    await this.#deps.ips.release(this.uid);
    await rm(podFiles(this.#deps.layout, this.uid).dir, { recursive: true, force: true });
    log(`${podName(this.#pod)}: gone, cleaned up`);
  }

  /** Stops the processes without touching the API (runner shutdown). */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    this.#clearTimers();
    await Promise.all([...this.#slots.values()].map(async (slot) => slot.process?.stop(VANISHED_GRACE_MS)));
  }

  async #drain(): Promise<void> {
    try {
      do {
        this.#again = false;
        try {
          await this.#sync();
        } catch (err) {
          log(`${podName(this.#pod)}: sync failed: ${describeError(err)}`);
          this.#retryLater();
        }
      } while (this.#morePending());
    } finally {
      this.#syncing = false;
    }
  }

  /** True when a sync was requested while the last one ran (a method, so the flag is re-read after awaits). */
  #morePending(): boolean {
    return this.#again && !this.#stopped;
  }

  #retryLater(ms = RETRY_MS): void {
    if (this.#retryTimer !== undefined || this.#stopped) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.kick();
    }, ms);
  }

  #clearTimers(): void {
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    for (const slot of this.#slots.values()) {
      if (slot.probeTimer !== undefined) clearTimeout(slot.probeTimer);
      if (slot.restartTimer !== undefined) clearTimeout(slot.restartTimer);
    }
  }

  async #sync(): Promise<void> {
    const pod = this.#pod;
    if (pod.metadata?.deletionTimestamp !== undefined) {
      await this.#terminate();
      return;
    }
    const verdict = runnability(pod);
    if (!verdict.runnable) {
      await this.#writeStatus(notRunnableStatus(pod, verdict, new Date()));
      return;
    }
    if (this.#slots.size === 0) for (const c of verdict.containers) this.#slots.set(c.name, this.#adoptSlot(c));
    this.#podIP ??= await this.#deps.ips.assign(this.uid, pod.status?.podIP);
    this.#startTime ??= pod.status?.startTime === undefined ? new Date() : new Date(pod.status.startTime);
    if (this.#volumeDirs === undefined) {
      try {
        this.#volumeDirs = await this.#materialise(pod, this.#podIP);
      } catch (err) {
        if (!(err instanceof ContainerConfigError)) throw err;
        this.#waitAll(err.reason, err.message);
        this.#retryLater();
      }
    }
    if (this.#volumeDirs !== undefined) {
      for (const slot of this.#slots.values()) {
        if (slot.process !== undefined || slot.restarting || slot.finished) continue;
        try {
          await this.#start(slot, pod, this.#podIP, this.#volumeDirs);
        } catch (err) {
          if (!(err instanceof ContainerConfigError)) throw err;
          slot.phase = { kind: 'waiting', reason: err.reason, message: err.message };
          this.#retryLater();
        }
      }
    }
    await this.#writeStatus(podStatus(pod, { podIP: this.#podIP, startTime: this.#startTime, containers: this.#runtime() }, new Date()));
  }

  /**
   * A slot for `container`, continuing the restart count the pod's status reports. A container the status shows
   * running belonged to an earlier runner, whose processes were stopped at start-up: it counts as one restart.
   */
  #adoptSlot(container: V1Container): Slot {
    const previous = this.#pod.status?.containerStatuses?.find((s) => s.name === container.name);
    const wasRunning = previous?.state?.running !== undefined;
    const startedAt = previous?.state?.running?.startedAt;
    const lastTermination: Termination | undefined = wasRunning
      ? { exitCode: 137, signal: 'SIGKILL', reason: 'PodRunnerRestarted', startedAt: new Date(startedAt ?? Date.now()), finishedAt: new Date() }
      : undefined;
    return {
      container,
      restartCount: (previous?.restartCount ?? 0) + (wasRunning ? 1 : 0),
      phase: { kind: 'waiting', reason: 'ContainerCreating' },
      lastTermination,
      ready: false,
      restarting: false,
      finished: false,
      backoffStep: 0,
      process: undefined,
      port: undefined,
      generation: 0,
      readiness: INITIAL_READINESS,
      probesDone: 0,
      probeTimer: undefined,
      restartTimer: undefined,
    };
  }

  #waitAll(reason: string, message: string): void {
    for (const slot of this.#slots.values()) {
      if (slot.process === undefined && !slot.restarting && !slot.finished) slot.phase = { kind: 'waiting', reason, message };
    }
  }

  async #materialise(pod: V1Pod, podIP: string): Promise<Map<string, string>> {
    const files = podFiles(this.#deps.layout, this.uid);
    const data = await fetchPodData(this.#deps.kube, pod);
    const volumes: Map<string, MaterialisedVolume> = await materialiseVolumes(
      { kube: this.#deps.kube, data, volumesDir: files.volumesDir, pvcDir: this.#deps.layout.pvcDir, podIP },
      pod,
    );
    const dirs = new Map([...volumes].map(([name, v]) => [name, v.hostDir]));
    const perContainer = [...this.#slots.values()].map((slot) => containerMappings(slot.container, dirs, containerEnv(pod, slot.container, data, podIP)));
    await rewriteVolumeFiles(volumes, podMappings(perContainer));
    return dirs;
  }

  async #start(slot: Slot, pod: V1Pod, podIP: string, volumeDirs: ReadonlyMap<string, string>): Promise<void> {
    const container = slot.container;
    const data = await fetchPodData(this.#deps.kube, pod);
    const env = containerEnv(pod, container, data, podIP);
    const containerDir = podFiles(this.#deps.layout, this.uid).containerDir(container.name);
    const line = buildRedisArgs({
      container,
      argv: redisArgv(container) ?? [],
      env,
      mappings: containerMappings(container, volumeDirs, env),
      podIP,
      scratchDir: join(containerDir, 'data'),
      readText: (file) => {
        try {
          return readFileSync(file, 'utf8');
        } catch {
          return undefined;
        }
      },
    });
    for (const other of this.#slots.values()) {
      if (other !== slot && other.port === line.port && (other.process !== undefined || other.restarting)) {
        throw new ContainerConfigError(`port ${line.port} is already used by container ${other.container.name} of this pod`);
      }
    }
    const proc = await startContainerProcess({ args: line.args, cwd: line.cwd, env, containerDir });
    slot.generation += 1;
    const generation = slot.generation;
    Object.assign(slot, {
      process: proc,
      port: line.port,
      phase: { kind: 'running', startedAt: proc.startedAt, pid: proc.pid },
      ready: false,
      readiness: INITIAL_READINESS,
      probesDone: 0,
    });
    log(`${podName(pod)}: container ${container.name} started: pid ${proc.pid} on ${podIP}:${line.port} (restart ${slot.restartCount})`);
    this.#scheduleProbe(slot, generation);
    void proc.exited.then((t) => {
      this.#onExit(slot, generation, t);
    });
  }

  #scheduleProbe(slot: Slot, generation: number): void {
    const delay = nextProbeDelayMs(slot.readiness, probeSettings(slot.container), slot.probesDone);
    if (delay === undefined || this.#stopped) return;
    slot.probeTimer = setTimeout(() => {
      void this.#probe(slot, generation);
    }, delay);
  }

  async #probe(slot: Slot, generation: number): Promise<void> {
    const settings = probeSettings(slot.container);
    let ok: boolean;
    try {
      ok = pingAnswered(await redisCommand(this.#podIP ?? '', slot.port ?? 0, 'PING', settings.timeoutMs));
    } catch {
      ok = false;
    }
    if (generation !== slot.generation || slot.process === undefined || this.#stopped) return;
    slot.probesDone += 1;
    slot.readiness = afterProbe(slot.readiness, ok, settings);
    if (slot.readiness.ready !== slot.ready) {
      slot.ready = slot.readiness.ready;
      log(`${podName(this.#pod)}: container ${slot.container.name} ${slot.ready ? 'ready' : 'not ready'}`);
      this.kick();
    }
    this.#scheduleProbe(slot, generation);
  }

  #onExit(slot: Slot, generation: number, t: Termination): void {
    if (generation !== slot.generation) return;
    slot.process = undefined;
    slot.ready = false;
    if (slot.probeTimer !== undefined) clearTimeout(slot.probeTimer);
    if (this.#stopped || this.#terminating) {
      slot.phase = { kind: 'terminated', ...t };
      return;
    }
    log(`${podName(this.#pod)}: container ${slot.container.name} exited with ${t.exitCode}${t.signal === undefined ? '' : ` (${t.signal})`}`);
    if (shouldRestart(restartPolicyOf(this.#pod.spec?.restartPolicy), t.exitCode)) {
      const backoff = restartBackoff(slot.backoffStep, t.finishedAt.getTime() - t.startedAt.getTime());
      const crashLooping = backoff.nextStep > 1;
      slot.backoffStep = backoff.nextStep;
      slot.lastTermination = t;
      slot.restarting = true;
      slot.phase = crashLooping
        ? { kind: 'waiting', reason: 'CrashLoopBackOff', message: `back-off ${backoff.delayMs / 1000}s restarting failed container=${slot.container.name} pod=${podName(this.#pod)}` }
        : { kind: 'terminated', ...t };
      slot.restartTimer = setTimeout(() => {
        slot.restarting = false;
        slot.restartCount += 1;
        slot.phase = { kind: 'waiting', reason: 'ContainerCreating' };
        this.kick();
      }, backoff.delayMs);
    } else {
      slot.phase = { kind: 'terminated', ...t };
      slot.finished = true;
    }
    this.kick();
  }

  #runtime(): ContainerRuntime[] {
    return [...this.#slots.values()].map((s) => ({
      name: s.container.name,
      image: s.container.image ?? '',
      restartCount: s.restartCount,
      phase: s.phase,
      ready: s.ready,
      restarting: s.restarting,
      ...(s.lastTermination === undefined ? {} : { lastTermination: s.lastTermination }),
    }));
  }

  async #writeStatus(status: V1PodStatus): Promise<void> {
    const json = JSON.stringify(status);
    if (json === this.#lastStatus || this.#stopped) return;
    const pod = this.#pod;
    try {
      await this.#deps.kube.core.patchNamespacedPodStatus(
        { name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? 'default', body: { status } },
        mergePatch,
      );
      this.#lastStatus = json;
    } catch (err) {
      if (apiStatus(err) === 404) return;
      log(`${podName(pod)}: status update failed: ${describeError(err)}`);
      this.#retryLater(1_000);
    }
  }

  /** Deletion requested: SIGTERM every process, SIGKILL after the grace period, then delete with grace 0. */
  async #terminate(): Promise<void> {
    if (this.#terminating) return;
    this.#terminating = true;
    this.#clearTimers();
    const pod = this.#pod;
    const graceSeconds = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    log(`${podName(pod)}: deleting, grace ${graceSeconds}s`);
    for (const slot of this.#slots.values()) slot.ready = false;
    if (this.#podIP !== undefined && this.#startTime !== undefined) {
      await this.#writeStatus(podStatus(pod, { podIP: this.#podIP, startTime: this.#startTime, containers: this.#runtime() }, new Date()));
    }
    await Promise.all(
      [...this.#slots.values()].map(async (slot) => {
        const t = await slot.process?.stop(graceSeconds * 1000);
        if (t !== undefined) slot.phase = { kind: 'terminated', ...t };
      }),
    );
    try {
      await this.#deps.kube.core.deleteNamespacedPod({
        name: pod.metadata?.name ?? '',
        namespace: pod.metadata?.namespace ?? 'default',
        gracePeriodSeconds: 0,
        body: { gracePeriodSeconds: 0, preconditions: { uid: this.uid } },
      });
      log(`${podName(pod)}: finalised`);
    } catch (err) {
      const status = apiStatus(err);
      if (status !== 404 && status !== 409) {
        this.#terminating = false;
        throw err;
      }
    }
  }
}
