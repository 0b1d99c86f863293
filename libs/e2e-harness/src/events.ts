import { eventType } from '@domain-operators/reconcile';
import type { Client, KubeEvent } from '@domain-operators/reconcile';
import { eventually } from './wait.ts';

/** Options of {@link eventsOnceSeen}. */
export interface EventsOnceSeenOptions {
  /** What is awaited, for the timeout message. */
  readonly what: string;
  /** Default 30 s. */
  readonly timeoutMs?: number;
}

/**
 * Reads the Events of `namespace` until one satisfies `match`, and resolves with every Event there at that moment.
 * An operator sends Events after its status writes (they trail the urgent writes, ADR 0007), so a test that has
 * seen the status must wait for the Event instead of reading once. Rejects after `timeoutMs` naming `what`.
 */
export async function eventsOnceSeen(client: Client, namespace: string, match: (event: KubeEvent) => boolean, options: EventsOnceSeenOptions): Promise<KubeEvent[]> {
  return eventually(
    async () => {
      const events = await client.listAll(eventType, { namespace });
      return events.some(match) ? events : undefined;
    },
    { timeoutMs: options.timeoutMs ?? 30_000, intervalMs: 250, what: options.what },
  );
}
