import type { InformerHealth } from '../cache/informer.ts';

/** The outcome of one health check: its name, whether it passed, and (when it failed) a plain-text reason. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly reason?: string;
}

/** What {@link informerChecks} judges against. */
export interface InformerCheckOptions {
  /** `Clock.now()` of the clock the informers run on. */
  readonly now: number;
  /** A watch with no bytes from the apiserver for longer than this is unhealthy (the watcher's inactivity timeout). */
  readonly inactivityTimeoutMs: number;
  /** Set once the cache-sync timeout passed: unsynced caches then say so. */
  readonly syncTimeoutMs?: number;
}

/**
 * One readiness check per informer (named `informer:<kind>`): it fails while the cache has not synced, while the
 * watch is in backoff or stopped, or when nothing arrived from the apiserver for longer than the inactivity timeout
 * (a stalled connection, a paused apiserver). Pure.
 */
export function informerChecks(health: Readonly<Record<string, InformerHealth>>, options: InformerCheckOptions): CheckResult[] {
  return Object.entries(health).map(([kind, h]) => {
    const name = `informer:${kind}`;
    const lastError = h.lastError === undefined ? '' : `: ${h.lastError.message}`;
    if (!h.synced) {
      const late = options.syncTimeoutMs === undefined ? 'not synced yet' : `not synced within ${Math.round(options.syncTimeoutMs / 1000)} s`;
      return { name, ok: false, reason: `cache for ${kind} ${late} (watch ${h.state})${lastError}` };
    }
    if (h.state === 'Backoff') return { name, ok: false, reason: `watch of ${kind} in backoff after ${h.consecutiveFailures} failure(s)${lastError}` };
    if (h.state === 'Stopped') return { name, ok: false, reason: `watch of ${kind} stopped` };
    const silentMs = h.lastActivityTime === undefined ? Infinity : options.now - h.lastActivityTime;
    if (silentMs > options.inactivityTimeoutMs) {
      return { name, ok: false, reason: `watch of ${kind} has had no data from the apiserver for ${Math.round(silentMs / 1000)} s (limit ${Math.round(options.inactivityTimeoutMs / 1000)} s)` };
    }
    return { name, ok: true };
  });
}

/** A probe's HTTP answer. */
export interface ProbeResponse {
  readonly status: 200 | 503;
  readonly body: string;
}

/**
 * Renders checks the way the Kubernetes apiserver's verbose `/readyz` does: `[+]name ok` or `[-]name failed: reason`
 * per check, then `<probe> check passed|failed`, with `notes` (e.g. "standby") on their own lines first. Status 200
 * only when every check passed. Pure.
 */
export function probeResponse(probe: string, checks: readonly CheckResult[], notes: readonly string[] = []): ProbeResponse {
  const ok = checks.every((check) => check.ok);
  const lines = [...notes, ...checks.map((check) => (check.ok ? `[+]${check.name} ok` : `[-]${check.name} failed: ${check.reason ?? 'unhealthy'}`)), `${probe} check ${ok ? 'passed' : 'failed'}`];
  return { status: ok ? 200 : 503, body: `${lines.join('\n')}\n` };
}
