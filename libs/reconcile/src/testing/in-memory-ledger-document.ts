// A fake of our LedgerDocument interface for unit tests of the claims ledger and of reconcilers that use one: one
// document in memory with compare-and-swap versions, a count of reads and writes, and armed failures.
import { KubeApiError } from '../core/errors.ts';
import type { LedgerDocument, LedgerVersion } from '../external/claims-ledger.ts';

/**
 * One ledger document in memory, shared by every `ClaimsLedger` built on it (as processes share a ConfigMap).
 * `write` is compare-and-swap: a stale `expected` rejects with a 409 Conflict (409 AlreadyExists when creating),
 * as the apiserver does. `failNextWrite` makes the next write reject after storing nothing (or, with `stored`,
 * after storing it: a lost reply). Reads and writes are counted.
 */
export class InMemoryLedgerDocument implements LedgerDocument {
  entries = new Map<string, string>();
  version: string | undefined;
  reads = 0;
  writes = 0;
  #next = 1;
  #failure: { readonly error: Error; readonly stored: boolean } | undefined;

  failNextWrite(error: Error, options: { readonly stored?: boolean } = {}): void {
    this.#failure = { error, stored: options.stored === true };
  }

  /** Another writer's change (a former leader): stored at once, with a new version. */
  writeByOther(change: (entries: Map<string, string>) => void): void {
    change(this.entries);
    this.version = String(this.#next++);
  }

  read(): Promise<LedgerVersion> {
    this.reads++;
    return Promise.resolve({ entries: new Map(this.entries), version: this.version });
  }

  write(entries: ReadonlyMap<string, string>, expected: string | undefined): Promise<string> {
    if (expected !== this.version) {
      const reason = expected === undefined ? 'AlreadyExists' : 'Conflict';
      return Promise.reject(new KubeApiError(`the ledger moved (${reason})`, 409, reason));
    }
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined && !failure.stored) return Promise.reject(failure.error);
    this.writes++;
    this.entries = new Map(entries);
    this.version = String(this.#next++);
    if (failure !== undefined) return Promise.reject(failure.error);
    return Promise.resolve(this.version);
  }
}
