/** First restart delay of a crashed container. The kubelet starts at 10 s; testenv is impatient. */
export const INITIAL_BACKOFF_MS = 1_000;
/** Restart delay cap. The kubelet caps at 5 min; testenv at 1 min. */
export const MAX_BACKOFF_MS = 60_000;
/** A container that ran at least this long before exiting starts its backoff over (the kubelet uses 10 min). */
export const BACKOFF_RESET_AFTER_MS = 2 * MAX_BACKOFF_MS;

/**
 * Delay before restarting a container that exited for the `restarts`-th time in a row (0 for the first exit):
 * 1 s, 2 s, 4 s … capped at 60 s. Pure.
 */
export function restartDelayMs(restarts: number): number {
  const exponent = Math.max(0, Math.min(restarts, 30));
  return Math.min(INITIAL_BACKOFF_MS * 2 ** exponent, MAX_BACKOFF_MS);
}

/** The delay before a restart and the backoff step to remember for the next exit. */
export interface RestartBackoff {
  readonly delayMs: number;
  readonly nextStep: number;
}

/**
 * The backoff after an exit: a container that ran at least {@link BACKOFF_RESET_AFTER_MS} starts over at 1 s,
 * otherwise the delay grows with every exit (`previousStep` is 0 before the first exit). Pure.
 */
export function restartBackoff(previousStep: number, ranForMs: number): RestartBackoff {
  const step = ranForMs >= BACKOFF_RESET_AFTER_MS ? 0 : previousStep;
  return { delayMs: restartDelayMs(step), nextStep: step + 1 };
}

/** Container restart policies a pod can have. */
export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

/** Whether a container that exited with `exitCode` is restarted under `policy` (the kubelet's rule). Pure. */
export function shouldRestart(policy: RestartPolicy, exitCode: number): boolean {
  if (policy === 'Always') return true;
  if (policy === 'OnFailure') return exitCode !== 0;
  return false;
}

/** The pod's restart policy, `Always` when absent or unknown. Pure. */
export function restartPolicyOf(value: string | undefined): RestartPolicy {
  return value === 'OnFailure' || value === 'Never' ? value : 'Always';
}
