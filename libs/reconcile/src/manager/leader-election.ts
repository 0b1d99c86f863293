import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Client } from '../client/client.ts';
import type { Clock } from '../core/clock.ts';
import { sleep, systemClock } from '../core/clock.ts';
import { isNotFound } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { errorFields, silentLogger } from '../core/logger.ts';
import { resourceType } from '../client/resource-type.ts';

/** The leader-election fields of a `coordination.k8s.io/v1` Lease spec. Times are RFC 3339 with microseconds. */
export interface LeaseRecord {
  /** Who holds the lease; `''` when nobody does (after a release). */
  readonly holderIdentity: string;
  /** How long the holder may go without renewing before others may take over. */
  readonly leaseDurationSeconds: number;
  readonly acquireTime: string | undefined;
  readonly renewTime: string | undefined;
  /** How many times the lease changed hands. */
  readonly leaseTransitions: number;
}

/** A lease record with the version (`resourceVersion`) it was read or written at. */
export interface VersionedLease {
  readonly record: LeaseRecord;
  readonly version: string;
}

/**
 * Where a lease lives (client-go's `resourcelock.Interface`, reduced to three calls). Every write is a
 * compare-and-swap: `update` must reject when `lease.version` is no longer current, `create` when the lease exists.
 */
export interface LeaseLock {
  /** `namespace/name`, for logs. */
  readonly description: string;
  /** The current lease, or `undefined` when there is none. */
  get(signal: AbortSignal): Promise<VersionedLease | undefined>;
  /** Creates the lease; rejects if it already exists. */
  create(record: LeaseRecord, signal: AbortSignal): Promise<VersionedLease>;
  /** Replaces the lease if it is still at `version`; rejects otherwise (409 Conflict). */
  update(record: LeaseRecord, version: string, signal: AbortSignal): Promise<VersionedLease>;
}

interface LeaseObject extends KubernetesObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

// The raw JSON shape (client-node's V1Lease types the times as Date, which our Client does not produce).
const leaseType = resourceType<LeaseObject>({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true });

/** A {@link LeaseLock} on a real `coordination.k8s.io/v1` Lease through {@link Client}; `update` is a PUT with resourceVersion. */
export class KubeLeaseLock implements LeaseLock {
  readonly description: string;
  readonly #client: Client;
  readonly #namespace: string;
  readonly #name: string;

  /** Stores its dependencies; does no I/O. */
  constructor(deps: { readonly client: Client }, options: { readonly namespace: string; readonly name: string }) {
    this.#client = deps.client;
    this.#namespace = options.namespace;
    this.#name = options.name;
    this.description = `${options.namespace}/${options.name}`;
  }

  async get(signal: AbortSignal): Promise<VersionedLease | undefined> {
    try {
      return versioned(await this.#client.get(leaseType, { namespace: this.#namespace, name: this.#name }, signal));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async create(record: LeaseRecord, signal: AbortSignal): Promise<VersionedLease> {
    return versioned(await this.#client.create(leaseType, this.#object(record, undefined), { signal }));
  }

  async update(record: LeaseRecord, version: string, signal: AbortSignal): Promise<VersionedLease> {
    return versioned(await this.#client.replace(leaseType, this.#object(record, version), { signal }));
  }

  #object(record: LeaseRecord, resourceVersion: string | undefined): LeaseObject {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { namespace: this.#namespace, name: this.#name, ...(resourceVersion !== undefined && { resourceVersion }) },
      spec: {
        holderIdentity: record.holderIdentity,
        leaseDurationSeconds: record.leaseDurationSeconds,
        leaseTransitions: record.leaseTransitions,
        ...(record.acquireTime !== undefined && { acquireTime: record.acquireTime }),
        ...(record.renewTime !== undefined && { renewTime: record.renewTime }),
      },
    };
  }
}

function versioned(lease: LeaseObject): VersionedLease {
  const spec = lease.spec ?? {};
  return {
    version: lease.metadata?.resourceVersion ?? '',
    record: {
      holderIdentity: spec.holderIdentity ?? '',
      leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
      acquireTime: spec.acquireTime,
      renewTime: spec.renewTime,
      leaseTransitions: spec.leaseTransitions ?? 0,
    },
  };
}

/** Receives leadership changes, e.g. for `leader_election_master_status`. Must be cheap and must not throw. */
export interface LeaderMetrics {
  setLeader(leaseName: string, isLeader: boolean): void;
}

/** What a {@link LeaderElector} needs from outside. */
export interface LeaderElectorDeps {
  readonly lock: LeaseLock;
  /** Measures lease expiry and paces retries (monotonic). Default: the system clock. */
  readonly clock?: Clock;
  /** Wall time written into `acquireTime`/`renewTime` (informational only; expiry never trusts it). Default: `new Date()`. */
  readonly wallTime?: () => Date;
  readonly logger?: Logger;
  readonly metrics?: LeaderMetrics;
}

/** Timings and identity of a {@link LeaderElector}; defaults are client-go's. */
export interface LeaderElectorOptions {
  /** Unique per candidate process; default {@link defaultIdentity}. */
  readonly identity?: string;
  /** Label for metrics (usually the Lease name). */
  readonly leaseName: string;
  /** How long a lease is valid after others last saw it change (default 15 000 ms). */
  readonly leaseDurationMs?: number;
  /** A leader that has not renewed for this long gives up leadership (default 10 000 ms). */
  readonly renewDeadlineMs?: number;
  /** Pause between attempts to acquire or renew (default 2 000 ms). */
  readonly retryPeriodMs?: number;
}

/** How {@link LeaderElector.hold} ended: the lease was released on request, or leadership was lost. */
export type LeadershipEnd = 'released' | 'lost';

/** `hostname_<8 random hex>`: unique per process even when pods share a hostname after a restart. */
export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID().slice(0, 8)}`;
}

/**
 * Leader election on a Lease, with client-go's rules. A candidate may take the lease when nobody holds it, when it
 * is released (`holderIdentity` empty), or when it has not seen the record change for the holder's
 * `leaseDurationSeconds` on its OWN clock (remote timestamps are never trusted, so clock skew cannot make two
 * leaders). The leader renews every retry period and gives leadership up once it has not renewed for the renew
 * deadline — shorter than the lease duration, so it stops before anyone else may start. Every write is a
 * compare-and-swap on resourceVersion. Unlike client-go, a candidate polls a held lease every half retry period
 * (so it sees the holder's last renewal sooner) and, knowing when that lease expires, retries exactly then rather
 * than up to a retry period later: takeover after a crash takes at most lease duration + retry period / 2 after
 * the last renewal (16 s with the defaults; client-go's bound is lease duration + 2.2 × 2 retry periods).
 *
 * Use: `await acquire(signal)` until it returns true, run the leader's work, and `await hold(stop)` alongside it:
 * `hold` renews until `stop` aborts (then releases the lease) or until renewal fails (then returns `'lost'` at once).
 */
export class LeaderElector {
  /** This candidate's identity, as written to `holderIdentity`. */
  readonly identity: string;
  readonly #lock: LeaseLock;
  readonly #clock: Clock;
  readonly #wallTime: () => Date;
  readonly #logger: Logger;
  readonly #metrics: LeaderMetrics | undefined;
  readonly #leaseName: string;
  readonly #leaseDurationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryPeriodMs: number;
  /** The last record seen, and when (our clock) it was first seen in that form. */
  #observed: { lease: VersionedLease; at: number } | undefined;
  #leader = false;
  /** When the last successful renew request was sent (our clock). */
  #renewedAt = 0;

  /** Validates the timings; does no I/O. */
  constructor(deps: LeaderElectorDeps, options: LeaderElectorOptions) {
    this.#lock = deps.lock;
    this.#clock = deps.clock ?? systemClock;
    this.#wallTime = deps.wallTime ?? (() => new Date());
    this.#metrics = deps.metrics;
    this.identity = options.identity ?? defaultIdentity();
    this.#logger = (deps.logger ?? silentLogger).child({ lease: deps.lock.description, identity: this.identity });
    this.#leaseName = options.leaseName;
    this.#leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.#renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.#retryPeriodMs = options.retryPeriodMs ?? 2_000;
    if (!(this.#leaseDurationMs > this.#renewDeadlineMs && this.#renewDeadlineMs > this.#retryPeriodMs && this.#retryPeriodMs > 0)) {
      throw new Error(`leader election needs lease duration > renew deadline > retry period > 0, got ${this.#leaseDurationMs}, ${this.#renewDeadlineMs}, ${this.#retryPeriodMs} ms`);
    }
  }

  /** Whether this candidate currently believes it holds the lease. */
  isLeader(): boolean {
    return this.#leader;
  }

  /** The identity of the holder last seen, `undefined` if none; may be stale by one retry period. */
  observedLeader(): string | undefined {
    const holder = this.#observed?.lease.record.holderIdentity;
    return holder === '' ? undefined : holder;
  }

  /** Tries every retry period until this candidate holds the lease (true) or `signal` aborts (false). Never rejects. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    this.#logger.info({}, 'attempting to acquire leader lease');
    while (!signal.aborted) {
      const started = this.#clock.now();
      try {
        if (await this.#withTimeout(signal, Math.max(this.#retryPeriodMs, this.#renewDeadlineMs / 2), (s) => this.#tryAcquireOrRenew(s))) {
          this.#becomeLeader(started);
          return true;
        }
      } catch (err) {
        if (aborted(signal)) break;
        this.#logger.warn(errorFields(err), 'error acquiring leader lease; retrying');
      }
      try {
        await sleep(this.#clock, this.#nextAttemptIn(), signal);
      } catch {
        break;
      }
    }
    return false;
  }

  /**
   * Renews the lease every retry period while leader. Returns `'lost'` as soon as a renewal cannot succeed within
   * the renew deadline (or another holder is seen); the caller must stop leader work at once. When `signal` aborts,
   * releases the lease (empty holder, 1 s duration, as client-go's ReleaseOnCancel) so a successor takes over at its
   * next attempt, and returns `'released'`. Never rejects.
   */
  async hold(signal: AbortSignal): Promise<LeadershipEnd> {
    if (!this.#leader) return 'lost';
    for (;;) {
      try {
        await sleep(this.#clock, this.#retryPeriodMs, signal);
      } catch {
        await this.#release();
        return 'released';
      }
      if (!(await this.#renew(signal))) {
        if (aborted(signal) && this.isLeader()) {
          await this.#release();
          return 'released';
        }
        this.#loseLeadership();
        return 'lost';
      }
    }
  }

  /** Retries renewal until it succeeds (true) or the renew deadline passes, another holder appears, or `signal` aborts (false). */
  async #renew(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const remaining = this.#renewedAt + this.#renewDeadlineMs - this.#clock.now();
      if (remaining <= 0 || signal.aborted) {
        if (!signal.aborted) this.#logger.error({ renewDeadlineMs: this.#renewDeadlineMs }, 'failed to renew leader lease within the renew deadline');
        return false;
      }
      const started = this.#clock.now();
      try {
        if (await this.#withTimeout(signal, remaining, (s) => this.#tryAcquireOrRenew(s))) {
          this.#renewedAt = started;
          return true;
        }
        this.#logger.error({ holder: this.observedLeader() }, 'leader lease taken by another candidate');
        return false;
      } catch (err) {
        if (aborted(signal)) return false;
        this.#logger.warn({ ...errorFields(err), remainingMs: Math.max(0, Math.round(this.#renewedAt + this.#renewDeadlineMs - this.#clock.now())) }, 'failed to renew leader lease; retrying');
      }
      const wait = Math.min(this.#retryPeriodMs, this.#renewedAt + this.#renewDeadlineMs - this.#clock.now());
      try {
        await sleep(this.#clock, Math.max(0, wait), signal);
      } catch {
        return false;
      }
    }
  }

  /** One attempt, client-go's tryAcquireOrRenew: true when this candidate holds the lease afterwards. */
  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.#wallTime().toISOString().replace('Z', '000Z');
    const durationSeconds = Math.ceil(this.#leaseDurationMs / 1000);
    const current = await this.#lock.get(signal);
    if (current === undefined) {
      const created = await this.#lock.create({ holderIdentity: this.identity, leaseDurationSeconds: durationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 }, signal);
      this.#observe(created);
      return true;
    }
    this.#observe(current);
    const old = current.record;
    if (this.#heldByOther()) return false;
    const ours = old.holderIdentity === this.identity;
    const next: LeaseRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: durationSeconds,
      acquireTime: ours ? (old.acquireTime ?? now) : now,
      renewTime: now,
      leaseTransitions: ours ? old.leaseTransitions : old.leaseTransitions + 1,
    };
    this.#observe(await this.#lock.update(next, current.version, signal));
    return true;
  }

  /** Records `lease`; the observation time moves only when the record changed (client-go's observedTime). */
  #observe(lease: VersionedLease): void {
    if (this.#observed !== undefined && sameRecord(this.#observed.lease.record, lease.record)) {
      this.#observed = { lease, at: this.#observed.at };
      return;
    }
    this.#observed = { lease, at: this.#clock.now() };
  }

  #heldByOther(): boolean {
    const observed = this.#observed;
    if (observed === undefined) return false;
    const { holderIdentity, leaseDurationSeconds } = observed.lease.record;
    return holderIdentity !== '' && holderIdentity !== this.identity && observed.at + leaseDurationSeconds * 1000 > this.#clock.now();
  }

  /**
   * A retry period when the lease is free or failing; half of one while another holds it (one cheap GET per second
   * per standby with the defaults), and no later than its expiry, so a crashed leader is replaced without extra delay.
   */
  #nextAttemptIn(): number {
    const observed = this.#observed;
    if (observed === undefined || !this.#heldByOther()) return this.#retryPeriodMs;
    const expiresIn = observed.at + observed.lease.record.leaseDurationSeconds * 1000 - this.#clock.now();
    return Math.max(0, Math.min(this.#retryPeriodMs / 2, expiresIn + 1));
  }

  async #release(): Promise<void> {
    const wasLeader = this.#leader;
    this.#leader = false;
    this.#metrics?.setLeader(this.#leaseName, false);
    if (!wasLeader) return;
    try {
      // A fresh signal: the caller's has aborted, and releasing is exactly what it asked for. Read first, because a
      // renewal cut short by the shutdown may have been written without our seeing its new version.
      await this.#withTimeout(new AbortController().signal, this.#renewDeadlineMs, async (signal) => {
        const current = await this.#lock.get(signal);
        if (current?.record.holderIdentity !== this.identity) return;
        const now = this.#wallTime().toISOString().replace('Z', '000Z');
        const record: LeaseRecord = { ...current.record, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now };
        this.#observe(await this.#lock.update(record, current.version, signal));
        this.#logger.info({}, 'released leader lease');
      });
    } catch (err) {
      // A conflict means someone else wrote the lease meanwhile: it is not ours to release.
      this.#logger.warn(errorFields(err), 'failed to release leader lease; a successor waits for it to expire');
    }
  }

  #becomeLeader(renewedAt: number): void {
    this.#leader = true;
    this.#renewedAt = renewedAt;
    this.#metrics?.setLeader(this.#leaseName, true);
    this.#logger.info({ leaseTransitions: this.#observed?.lease.record.leaseTransitions }, 'acquired leader lease');
  }

  #loseLeadership(): void {
    this.#leader = false;
    this.#metrics?.setLeader(this.#leaseName, false);
    this.#logger.error({}, 'lost leader lease');
  }

  /** Runs `attempt` with a signal that aborts after `ms` on our clock or when `signal` aborts. */
  async #withTimeout<R>(signal: AbortSignal, ms: number, attempt: (signal: AbortSignal) => Promise<R>): Promise<R> {
    const abort = new AbortController();
    const onAbort = (): void => {
      abort.abort(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = this.#clock.setTimeout(() => {
      abort.abort(new Error(`leader lease request timed out after ${Math.round(ms)} ms`));
    }, ms);
    try {
      return await raceAbort(attempt(abort.signal), abort.signal);
    } finally {
      this.#clock.clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** Settles with `promise`, or rejects with the abort reason as soon as `signal` aborts (even if `promise` ignores it). */
function raceAbort<R>(promise: Promise<R>, signal: AbortSignal): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason as Error);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** Reads `signal.aborted` through a call, so the compiler does not narrow it across awaits. */
function aborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function sameRecord(a: LeaseRecord, b: LeaseRecord): boolean {
  return (
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaseTransitions === b.leaseTransitions
  );
}
