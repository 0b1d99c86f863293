// A test double for LeaseLock, shared by the leader election and manager unit tests. Not part of the package's API.
import type { LeaseLock, LeaseRecord, VersionedLease } from '../manager/leader-election.ts';

/** What the fake rejects with on a lost compare-and-swap. */
export class ConflictError extends Error {}

/** An in-memory lease with compare-and-swap, whose calls can be made to fail or hang. */
export class FakeLeaseLock implements LeaseLock {
  readonly description = 'ns/lease';
  lease: VersionedLease | undefined;
  #version = 0;
  /** When set, every call rejects with this. */
  failWith: Error | undefined;
  /** When true, every call hangs until its signal aborts. */
  hang = false;
  writes = 0;

  get(signal: AbortSignal): Promise<VersionedLease | undefined> {
    return this.#call(signal, () => this.lease);
  }

  create(record: LeaseRecord, signal: AbortSignal): Promise<VersionedLease> {
    return this.#call(signal, () => {
      if (this.lease !== undefined) throw new ConflictError('already exists');
      return this.#write(record);
    });
  }

  update(record: LeaseRecord, version: string, signal: AbortSignal): Promise<VersionedLease> {
    return this.#call(signal, () => {
      if (this.lease?.version !== version) throw new ConflictError('conflict');
      return this.#write(record);
    });
  }

  /** Another process writes the lease directly. */
  set(record: Partial<LeaseRecord>): void {
    this.#write({ holderIdentity: '', leaseDurationSeconds: 15, acquireTime: undefined, renewTime: undefined, leaseTransitions: 0, ...this.lease?.record, ...record });
  }

  #write(record: LeaseRecord): VersionedLease {
    this.writes++;
    this.lease = { record, version: String(++this.#version) };
    return this.lease;
  }

  #call<R>(signal: AbortSignal, body: () => R): Promise<R> {
    if (this.hang) {
      return new Promise<R>((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          reject(signal.reason as Error);
        });
      });
    }
    if (this.failWith !== undefined) return Promise.reject(this.failWith);
    try {
      return Promise.resolve(body());
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
