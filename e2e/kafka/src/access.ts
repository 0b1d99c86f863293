import { eventually } from '@domain-operators/e2e-harness';
import type { AccessOutcome } from './kafka-checker.ts';

/**
 * Retries `attempt` every 500 ms until it gives `expected` (ACLs and credentials reach every listener within
 * moments); rejects after 30 s naming `what` and the last outcome.
 */
export async function becomes(attempt: () => Promise<AccessOutcome>, expected: AccessOutcome, what: string): Promise<void> {
  let last: AccessOutcome | undefined;
  await eventually(
    async () => {
      last = await attempt();
      return last === expected ? true : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 500, what },
  ).catch((err: unknown) => {
    // Read when giving up: the outcome of the last attempt, not the none of the first.
    throw new Error(`${err instanceof Error ? err.message : String(err)} (last outcome: ${last ?? 'none'})`, { cause: err });
  });
}
