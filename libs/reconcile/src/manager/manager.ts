import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { Client } from '../client/client.ts';
import type { Clock } from '../core/clock.ts';
import { systemClock } from '../core/clock.ts';
import type { ControllerOptions } from '../controller/controller.ts';
import { EndpointServer } from './endpoint-server.ts';
import type { CheckResult, ProbeResponse } from './health.ts';
import { informerChecks, probeResponse } from './health.ts';
import { SharedInformers } from '../cache/informer.ts';
import { KubeLeaseLock, LeaderElector } from './leader-election.ts';
import type { LeadershipEnd, LeaseLock } from './leader-election.ts';
import type { Logger } from '../core/logger.ts';
import { errorFields, silentLogger } from '../core/logger.ts';
import type { ManagerOptions } from './manager-options.ts';
import { RuntimeMetrics } from '../observability/metrics.ts';
import { MultiNamespaceInformers } from '../cache/multi-namespace-informers.ts';
import type { InformerCache } from '../cache/multi-namespace-informers.ts';
import { HttpsRestTransport } from '../client/rest.ts';
import type { WatcherOptions } from '../cache/watcher.ts';

/** Something the manager starts once it leads and the caches have synced; a `Controller` is one. */
export interface Runnable {
  readonly name: string;
  /** Runs until `signal` aborts, then stops taking work, lets work in flight finish and resolves. Rejecting is fatal. */
  start(signal: AbortSignal): Promise<void>;
}

/** What a {@link Manager} needs from outside. */
export interface ManagerDeps {
  readonly kubeConfig: KubeConfig;
  readonly logger?: Logger;
  /** Default: a new {@link RuntimeMetrics} on its own registry, created on first use. */
  readonly metrics?: RuntimeMetrics;
  readonly clock?: Clock;
  /** Where the leader lease lives; default: the Lease named in the options, through a {@link Client}. */
  readonly leaseLock?: LeaseLock;
}

/** Tuning beyond {@link ManagerOptions}; every field is optional and defaults to controller-runtime's value. */
export interface ManagerTuning {
  /** How long in-flight reconciles may run after a shutdown signal before the manager stops anyway (default 30 000 ms). */
  readonly gracefulShutdownTimeoutMs?: number;
  /** After this long without synced caches, readiness names the unsynced kinds as failed (default 120 000 ms). */
  readonly cacheSyncTimeoutMs?: number;
  /** Tuning of every watch; `inactivityTimeoutMs` is also the readiness limit for a silent watch. */
  readonly watcher?: WatcherOptions;
  /** Leader election identity; default `hostname_<random>`. */
  readonly identity?: string;
}

/** Thrown by {@link Manager.start} when this process was leader and could not renew the lease: exit non-zero at once. */
export class LeaderElectionLostError extends Error {
  override readonly name = 'LeaderElectionLostError';
}

type Phase = 'new' | 'starting' | 'standby' | 'syncing' | 'running' | 'stopping' | 'stopped';

/**
 * Runs an operator process the way controller-runtime's manager does. One informer cache per process, shared by
 * every controller (`manager.informers`: all namespaces, one namespace, or one cache per listed namespace — see
 * {@link MultiNamespaceInformers}). `start(signal)` serves `/healthz` and `/readyz` on `healthProbeBindAddress` and
 * `/metrics` on `metricsBindAddress`, then (with leader election, only once this process holds the Lease) starts the
 * informers, waits for their caches, and starts every added controller.
 *
 * When `signal` aborts (see {@link shutdownSignal}) the manager stops intake, lets in-flight reconciles finish for up
 * to `gracefulShutdownTimeoutMs`, stops the informers, releases the Lease so a successor takes over at once, closes
 * the servers and resolves: exit 0. If leadership is lost (no renewal within the renew deadline) it aborts the
 * controllers at once and rejects with {@link LeaderElectionLostError}: exit non-zero without waiting, so there are
 * never two active leaders. A controller whose `start` rejects also makes `start` reject, after a graceful stop.
 *
 * Readiness: 200 only when every cache has synced and every watch is healthy (not in backoff, data from the
 * apiserver within the inactivity timeout); a standby (not the leader) is ready, and says so in the body.
 */
export class Manager {
  /** The shared informer cache; pass it to `new ControllerBuilder({ informers: manager.informers }, name)`. */
  readonly informers: InformerCache;
  readonly #deps: ManagerDeps;
  readonly #options: ManagerOptions & ManagerTuning;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #runnables: Runnable[] = [];
  #metrics: RuntimeMetrics | undefined;
  #elector: LeaderElector | undefined;
  #phase: Phase = 'new';
  #syncTimedOut = false;
  #addresses: { probes?: AddressInfo; metrics?: AddressInfo } = {};

  /** Creates the (unstarted) informer cache; does no I/O. */
  constructor(deps: ManagerDeps, options: ManagerOptions & ManagerTuning) {
    this.#deps = deps;
    this.#options = options;
    this.#logger = (deps.logger ?? silentLogger).child({ component: 'manager' });
    this.#clock = deps.clock ?? systemClock;
    this.#metrics = deps.metrics;
    const shared = { clock: this.#clock, ...(options.watcher && { watcher: options.watcher }) };
    const namespaces = options.namespaces;
    const informerDeps = { kubeConfig: deps.kubeConfig, logger: (deps.logger ?? silentLogger).child({ component: 'informers' }) };
    this.informers =
      namespaces.length > 1
        ? new MultiNamespaceInformers(informerDeps, { ...shared, namespaces })
        : new SharedInformers(informerDeps, { ...shared, ...(namespaces[0] !== undefined && { namespace: namespaces[0] }) });
  }

  /** The process's metrics (created on first use when none was given). */
  get metrics(): RuntimeMetrics {
    this.#metrics ??= new RuntimeMetrics();
    return this.#metrics;
  }

  /** The options every controller of this manager should get: `builder.withOptions(manager.controllerOptions())`. */
  controllerOptions(): ControllerOptions {
    return {
      maxConcurrentReconciles: this.#options.maxConcurrentReconciles,
      cacheSyncTimeoutMs: this.#options.cacheSyncTimeoutMs ?? 120_000,
      clock: this.#clock,
      ...(this.#deps.logger && { logger: this.#deps.logger }),
      metrics: this.metrics.controller,
      queueMetrics: this.metrics.queue,
    };
  }

  /** Adds a controller (or any {@link Runnable}) to start once leading. Only before {@link Manager.start}. */
  add(runnable: Runnable): void {
    if (this.#phase !== 'new') throw new Error(`manager: cannot add ${runnable.name} after start`);
    this.#runnables.push(runnable);
  }

  /** Where the probe and metrics servers listen, once `start` has bound them (useful with port 0). */
  addresses(): { readonly probes?: AddressInfo; readonly metrics?: AddressInfo } {
    return this.#addresses;
  }

  /** True while this process may reconcile: it holds the Lease, or leader election is off and the manager runs. */
  isLeader(): boolean {
    return this.#options.leaderElection.enabled ? (this.#elector?.isLeader() ?? false) : this.#phase === 'syncing' || this.#phase === 'running';
  }

  /** `/healthz`: 200 while the process works (the event loop answers). */
  liveness(): ProbeResponse {
    return probeResponse('healthz', [{ name: 'ping', ok: true }]);
  }

  /** `/readyz`: see the class comment. Cheap and synchronous. */
  readiness(): ProbeResponse {
    switch (this.#phase) {
      case 'new':
      case 'starting':
        return probeResponse('readyz', [{ name: 'manager', ok: false, reason: 'not started' }]);
      case 'standby': {
        const leader = this.#elector?.observedLeader();
        return probeResponse('readyz', [{ name: 'leader-election', ok: true }], [`standby: not the leader${leader === undefined ? '' : ` (leader: ${leader})`}; caches and controllers start on acquiring the lease`]);
      }
      case 'stopping':
      case 'stopped':
        return probeResponse('readyz', [{ name: 'manager', ok: false, reason: 'shutting down' }]);
      case 'syncing':
      case 'running': {
        const checks: CheckResult[] = informerChecks(this.informers.health(), {
          now: this.#clock.now(),
          inactivityTimeoutMs: this.#options.watcher?.inactivityTimeoutMs ?? 70_000,
          ...(this.#syncTimedOut && { syncTimeoutMs: this.#options.cacheSyncTimeoutMs ?? 120_000 }),
        });
        return probeResponse('readyz', checks, this.#options.leaderElection.enabled ? ['leader'] : []);
      }
    }
  }

  /**
   * Runs everything until `signal` aborts, then shuts down gracefully and resolves. Rejects with
   * {@link LeaderElectionLostError} when leadership is lost, when a server cannot bind, or when a controller fails.
   * Call once.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#phase !== 'new') throw new Error('manager: start called twice');
    this.#phase = 'starting';
    const servers = await this.#listen();
    try {
      const election = this.#options.leaderElection;
      if (!election.enabled) {
        await this.#lead(signal, undefined);
        return;
      }
      const elector = new LeaderElector(
        { lock: this.#deps.leaseLock ?? (await this.#leaseLock()), clock: this.#clock, logger: this.#logger, metrics: this.metrics },
        {
          leaseName: election.leaseName,
          leaseDurationMs: election.leaseDurationMs,
          renewDeadlineMs: election.renewDeadlineMs,
          retryPeriodMs: election.retryPeriodMs,
          ...(this.#options.identity !== undefined && { identity: this.#options.identity }),
        },
      );
      this.#elector = elector;
      this.#phase = 'standby';
      this.metrics.setLeader(election.leaseName, false);
      if (!(await elector.acquire(signal))) return;
      const release = new AbortController();
      const holding = elector.hold(release.signal);
      try {
        await this.#lead(signal, holding);
      } finally {
        // After a graceful stop this releases the lease; after a loss, `holding` has already ended.
        release.abort();
        await holding;
      }
    } finally {
      this.#phase = 'stopped';
      await Promise.all(servers.map((server) => server.close()));
      this.#logger.info({}, 'manager stopped');
    }
  }

  /** Leader work: informers, cache sync, controllers; then a graceful stop, or an immediate one on lost leadership. */
  async #lead(shutdown: AbortSignal, holding: Promise<LeadershipEnd> | undefined): Promise<void> {
    const work = new AbortController();
    const caches = new AbortController();
    let failed: ((error: unknown) => void) | undefined;
    const failure = new Promise<{ kind: 'failed'; error: unknown }>((resolve) => {
      failed = (error) => {
        resolve({ kind: 'failed', error });
      };
    });
    const fail = (error: unknown): void => failed?.(error);
    const cachesRun = this.informers.run(caches.signal).catch(fail);
    const running = this.#startRunnables(work.signal, fail);
    const outcome = await Promise.race([
      abortOf(shutdown).then(() => ({ kind: 'shutdown' }) as const),
      failure,
      ...(holding === undefined ? [] : [holding.then((end) => (end === 'lost' ? ({ kind: 'lost' } as const) : new Promise<never>(() => undefined)))]),
    ]);
    this.#phase = 'stopping';
    work.abort(new Error(`manager stopping: ${outcome.kind}`));
    if (outcome.kind === 'lost') {
      caches.abort();
      this.#logger.error({}, 'leader election lost: stopping controllers at once');
      throw new LeaderElectionLostError('leader election lost: the lease was not renewed within the renew deadline');
    }
    if (outcome.kind === 'failed') this.#logger.error(errorFields(outcome.error), 'a controller failed; stopping');
    else this.#logger.info({}, 'shutdown requested: stopping intake and waiting for in-flight reconciles');
    const graceMs = this.#options.gracefulShutdownTimeoutMs ?? 30_000;
    if (!(await settlesWithin(this.#clock, running, graceMs))) {
      this.#logger.warn({ gracefulShutdownTimeoutMs: graceMs }, 'in-flight reconciles did not finish within the graceful shutdown timeout; stopping anyway');
    }
    caches.abort();
    await settlesWithin(this.#clock, cachesRun, 5_000);
    if (outcome.kind === 'failed') throw outcome.error;
  }

  /** Waits for the caches (readiness names late kinds after the sync timeout), then starts every runnable. Never rejects. */
  async #startRunnables(signal: AbortSignal, fail: (error: unknown) => void): Promise<void> {
    this.#phase = 'syncing';
    const syncTimeoutMs = this.#options.cacheSyncTimeoutMs ?? 120_000;
    const timer = this.#clock.setTimeout(() => {
      this.#syncTimedOut = true;
      const unsynced = Object.entries(this.informers.health())
        .filter(([, health]) => !health.synced)
        .map(([kind]) => kind);
      this.#logger.error({ unsynced, cacheSyncTimeoutMs: syncTimeoutMs }, 'caches did not sync in time; readiness fails until they do');
    }, syncTimeoutMs);
    try {
      await this.informers.waitForSync(signal);
    } catch {
      return; // stopped before the caches synced
    } finally {
      this.#clock.clearTimeout(timer);
    }
    if (signal.aborted) return;
    this.#phase = 'running';
    this.#logger.info({ controllers: this.#runnables.map((r) => r.name) }, 'caches synced; starting controllers');
    await Promise.all(
      this.#runnables.map((runnable) =>
        runnable.start(signal).catch((err: unknown) => {
          fail(new Error(`controller ${runnable.name} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
        }),
      ),
    );
  }

  async #listen(): Promise<EndpointServer[]> {
    const servers: EndpointServer[] = [];
    const text = (response: ProbeResponse) => ({ status: response.status, contentType: 'text/plain; charset=utf-8', body: response.body });
    try {
      if (this.#options.healthProbeBindAddress !== '0') {
        const probes = new EndpointServer(
          { logger: this.#logger },
          { bindAddress: this.#options.healthProbeBindAddress, routes: { '/healthz': () => text(this.liveness()), '/readyz': () => text(this.readiness()) } },
        );
        servers.push(probes);
        const address = await probes.listen();
        this.#addresses = { ...this.#addresses, probes: address };
        this.#logger.info({ address: address.address, port: address.port }, 'serving /healthz and /readyz');
      }
      if (this.#options.metricsBindAddress !== '0') {
        const registry = this.metrics.registry;
        const metrics = new EndpointServer(
          { logger: this.#logger },
          { bindAddress: this.#options.metricsBindAddress, routes: { '/metrics': async () => ({ status: 200, contentType: registry.contentType, body: await registry.metrics() }) } },
        );
        servers.push(metrics);
        const address = await metrics.listen();
        this.#addresses = { ...this.#addresses, metrics: address };
        this.#logger.info({ address: address.address, port: address.port }, 'serving /metrics');
      }
    } catch (err) {
      await Promise.all(servers.map((server) => server.close()));
      throw err;
    }
    return servers;
  }

  async #leaseLock(): Promise<LeaseLock> {
    const namespace = this.#options.leaderElection.namespace ?? operatorNamespace(this.#deps.kubeConfig);
    const client = new Client({ rest: await HttpsRestTransport.create(this.#deps.kubeConfig) });
    return new KubeLeaseLock({ client }, { namespace, name: this.#options.leaderElection.leaseName });
  }
}

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/**
 * The namespace the operator runs in: the service account's namespace in a pod, else the kubeconfig context's
 * namespace. Throws when neither is known (set the leader election namespace explicitly).
 */
export function operatorNamespace(kubeConfig: KubeConfig, serviceAccountFile = SERVICE_ACCOUNT_NAMESPACE): string {
  try {
    const namespace = readFileSync(serviceAccountFile, 'utf8').trim();
    if (namespace !== '') return namespace;
  } catch {
    // Not in a pod.
  }
  const fromContext = kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace;
  if (fromContext !== undefined && fromContext !== '') return fromContext;
  throw new Error('cannot tell which namespace the leader election Lease belongs in: not running in a pod and the kubeconfig context has no namespace; set --leader-election-namespace');
}

function abortOf(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else
      signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
  });
}

/** True when `promise` settles within `ms`, false on timeout; never rejects. */
async function settlesWithin(clock: Clock, promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<Clock['setTimeout']> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = clock.setTimeout(() => {
      resolve(false);
    }, ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    if (timer !== undefined) clock.clearTimeout(timer);
  }
}
