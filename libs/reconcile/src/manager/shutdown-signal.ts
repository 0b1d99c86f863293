import type { Logger } from '../core/logger.ts';
import { silentLogger } from '../core/logger.ts';

/** The bits of `process` that {@link shutdownSignal} uses. */
export interface SignalProcess {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  exit(code: number): never;
}

/** The abort reason of {@link shutdownSignal}'s signal. */
export class ShutdownRequestedError extends Error {
  override readonly name = 'ShutdownRequestedError';
}

/**
 * controller-runtime's `SetupSignalHandler`: returns a signal that aborts on the first SIGTERM or SIGINT (pass it to
 * `manager.start`, which then shuts down gracefully); a second one exits at once with code 1. Call once per process.
 * `main` should `process.exit(0)` when `start` resolves and `process.exit(1)` when it rejects, so no stray handle
 * keeps a stopped operator alive.
 */
export function shutdownSignal(deps: { readonly process?: SignalProcess; readonly logger?: Logger } = {}): AbortSignal {
  const proc = deps.process ?? process;
  const logger = deps.logger ?? silentLogger;
  const abort = new AbortController();
  const onSignal = (name: NodeJS.Signals) => (): void => {
    if (abort.signal.aborted) {
      logger.warn({ signal: name }, 'second shutdown signal: exiting at once');
      proc.exit(1);
    }
    logger.info({ signal: name }, 'shutdown signal received: stopping gracefully (send it again to exit at once)');
    abort.abort(new ShutdownRequestedError(`received ${name}`));
  };
  proc.on('SIGTERM', onSignal('SIGTERM'));
  proc.on('SIGINT', onSignal('SIGINT'));
  return abort.signal;
}
