import type { V1Container } from '@kubernetes/client-node';

/** How often and how strictly a container's readiness is probed. */
export interface ProbeSettings {
  /** Whether the container declares a readiness probe. Without one it is probed until the first success only. */
  readonly declared: boolean;
  readonly initialDelayMs: number;
  readonly periodMs: number;
  readonly timeoutMs: number;
  readonly failureThreshold: number;
  readonly successThreshold: number;
}

/** Probe interval until the first success (at most this, however long `periodSeconds` is). */
export const EAGER_PERIOD_MS = 250;

/** The readiness probe settings of `container`, with the Kubernetes defaults (10 s, 1 s, 3, 1). Pure. */
export function probeSettings(container: V1Container): ProbeSettings {
  const probe = container.readinessProbe;
  return {
    declared: probe !== undefined,
    initialDelayMs: (probe?.initialDelaySeconds ?? 0) * 1000,
    periodMs: (probe?.periodSeconds ?? 10) * 1000,
    timeoutMs: (probe?.timeoutSeconds ?? 1) * 1000,
    failureThreshold: probe?.failureThreshold ?? 3,
    successThreshold: probe?.successThreshold ?? 1,
  };
}

/** Readiness of one running container. */
export interface ReadinessState {
  readonly ready: boolean;
  readonly everReady: boolean;
  readonly failures: number;
  readonly successes: number;
}

/** A container that just started: not ready. */
export const INITIAL_READINESS: ReadinessState = { ready: false, everReady: false, failures: 0, successes: 0 };

/**
 * The readiness after one probe: `successThreshold` consecutive successes make the container ready,
 * `failureThreshold` consecutive failures make it unready. Pure.
 */
export function afterProbe(state: ReadinessState, ok: boolean, settings: ProbeSettings): ReadinessState {
  if (ok) {
    const successes = state.successes + 1;
    const ready = state.ready || successes >= settings.successThreshold;
    return { ready, everReady: state.everReady || ready, failures: 0, successes };
  }
  const failures = state.failures + 1;
  return { ready: state.ready && failures < settings.failureThreshold, everReady: state.everReady, failures, successes: 0 };
}

/**
 * Milliseconds until the next probe, or `undefined` to stop probing. The first probe comes after
 * `initialDelaySeconds`; until the first success probes come every second at least; afterwards every
 * `periodSeconds` when a probe is declared, never again when not (such a container stays ready until it exits).
 * Pure.
 */
export function nextProbeDelayMs(state: ReadinessState, settings: ProbeSettings, probesDone: number): number | undefined {
  if (probesDone === 0) return settings.initialDelayMs;
  if (!state.everReady) return Math.min(settings.periodMs, EAGER_PERIOD_MS);
  return settings.declared ? settings.periodMs : undefined;
}

/** True when a reply line from PING proves the server serves: `+PONG`, or an authentication error. Pure. */
export function pingAnswered(reply: string): boolean {
  return reply.startsWith('+PONG') || reply.startsWith('-NOAUTH') || reply.startsWith('-NOPERM') || reply.startsWith('-WRONGPASS');
}
