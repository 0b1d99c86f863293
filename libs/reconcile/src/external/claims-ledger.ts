import type { Clock, TimerHandle } from '../core/clock.ts';
import { isAlreadyExists, isConflict } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { errorFields, silentLogger } from '../core/logger.ts';
import type { CreateClaims } from './create-claims.ts';

/** One version of the ledger as stored: UID → external name, and the version to compare-and-swap against. */
export interface LedgerVersion {
  readonly entries: ReadonlyMap<string, string>;
  /** `undefined` when the document does not exist yet (the next write creates it). */
  readonly version: string | undefined;
}

/**
 * Where a {@link ClaimsLedger} keeps its entries: one document, read whole and written whole with compare-and-swap.
 * `read` is a linearizable read (it sees every write that completed before it started). `write` rejects with a
 * conflict (`isConflict`, or `isAlreadyExists` for a create) when `expected` is no longer the stored version.
 */
export interface LedgerDocument {
  read(signal?: AbortSignal): Promise<LedgerVersion>;
  write(entries: ReadonlyMap<string, string>, expected: string | undefined, signal?: AbortSignal): Promise<string>;
}

/** Dependencies of a {@link ClaimsLedger}. */
export interface ClaimsLedgerDeps {
  readonly document: LedgerDocument;
  readonly clock: Clock;
  readonly log?: Logger;
}

/** Options of a {@link ClaimsLedger}. */
export interface ClaimsLedgerOptions {
  /** How long the first claim of a write waits for company (default 10 ms); claims made during a write go in the next. */
  readonly lingerMs?: number;
  /** How long releases wait for a write to ride on (default 2 s): they go with the next claims, or alone after this. */
  readonly releaseLingerMs?: number;
  /** Most bytes of entries (UID + name) the document holds (default 900,000: a ConfigMap holds 1 MiB). */
  readonly maxBytes?: number;
}

interface Waiter {
  readonly name: string;
  resolve(recorded: boolean): void;
  reject(error: Error): void;
}

const MAX_ATTEMPTS = 5;

/**
 * {@link CreateClaims} in one {@link LedgerDocument} (ADR 0007, addendum "the claims ledger"): claims made while a
 * write is being prepared or is in flight are collected and written together (group commit, one write at a time),
 * each `claim` resolving once the write that holds it succeeded. Releases are lazy: they ride on the next write of
 * claims, or go alone after `releaseLingerMs`. Every write is a compare-and-swap on the version last read or
 * written; a conflict (another process, e.g. a former leader still finishing its reconciles) re-reads the document
 * and applies the same additions and removals to it, so no process loses another's entries. A claim that would take
 * the document past `maxBytes` resolves `false` and is not written. The document is read at the first use, not in
 * the constructor.
 */
export class ClaimsLedger implements CreateClaims {
  readonly #document: LedgerDocument;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #lingerMs: number;
  readonly #releaseLingerMs: number;
  readonly #maxBytes: number;
  /** What the document held after our last read or write; `undefined` until read, and after a conflict. */
  #known: LedgerVersion | undefined;
  readonly #adds = new Map<string, Waiter[]>();
  readonly #removes = new Set<string>();
  /** UID → name of claims queued or in flight (so `holds` sees them before they are durable). */
  readonly #pending = new Map<string, string>();
  #timer: TimerHandle | undefined;
  #timerForClaims = false;
  #writing = false;
  #reading: Promise<LedgerVersion> | undefined;
  #nextRead: Promise<LedgerVersion> | undefined;

  constructor(deps: ClaimsLedgerDeps, options: ClaimsLedgerOptions = {}) {
    this.#document = deps.document;
    this.#clock = deps.clock;
    this.#log = deps.log ?? silentLogger;
    this.#lingerMs = options.lingerMs ?? 10;
    this.#releaseLingerMs = options.releaseLingerMs ?? 2_000;
    this.#maxBytes = options.maxBytes ?? 900_000;
  }

  /** How many entries the document held after this process's last read or write (for tests and reports). */
  get size(): number {
    return this.#known?.entries.size ?? 0;
  }

  /** See {@link CreateClaims.claim}. */
  claim(uid: string, externalName: string): Promise<boolean> {
    this.#removes.delete(uid);
    if (this.#known?.entries.get(uid) === externalName && !this.#pending.has(uid)) return Promise.resolve(true);
    return new Promise<boolean>((resolve, reject) => {
      let waiters = this.#adds.get(uid);
      if (waiters !== undefined && waiters[0]?.name !== externalName) {
        // A claim of another name replaces the queued one (the spec changed): its callers learn it was not recorded.
        for (const replaced of waiters) replaced.resolve(false);
        waiters = undefined;
      }
      waiters ??= [];
      waiters.push({ name: externalName, resolve, reject });
      this.#adds.set(uid, waiters);
      this.#pending.set(uid, externalName);
      this.#schedule(true);
    });
  }

  /** See {@link CreateClaims.holds}. */
  holds(uid: string, externalName: string): boolean {
    return this.#pending.get(uid) === externalName || (this.#known?.entries.get(uid) === externalName && !this.#removes.has(uid));
  }

  /** See {@link CreateClaims.confirm}. */
  async confirm(uid: string, externalName: string, signal?: AbortSignal): Promise<boolean> {
    if (this.#known?.entries.get(uid) === externalName && !this.#pending.has(uid)) return true;
    const fresh = await this.#freshRead(signal);
    const found = fresh.entries.get(uid) === externalName;
    // Another process's entry: the next write must start from the document as it is, so a release can remove it.
    if (found && this.#known?.entries.get(uid) !== externalName) this.#known = undefined;
    return found;
  }

  /** See {@link CreateClaims.release}. */
  release(uid: string): void {
    if (this.#pending.has(uid)) return; // a claim on its way wins; its resource releases again after its status write
    if (this.#known !== undefined && !this.#known.entries.has(uid)) return;
    this.#removes.add(uid);
    this.#schedule(false);
  }

  #schedule(forClaims: boolean): void {
    if (this.#writing) return; // the write in flight starts the next one when it ends
    if (this.#timer !== undefined) {
      if (!forClaims || this.#timerForClaims) return;
      this.#clock.clearTimeout(this.#timer); // claims do not wait for the releases' longer linger
    }
    this.#timerForClaims = forClaims;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        void this.#write();
      },
      forClaims ? this.#lingerMs : this.#releaseLingerMs,
    );
  }

  /** Writes everything queued now, in one compare-and-swap (re-read and re-applied on conflict); then what queued meanwhile. */
  async #write(): Promise<void> {
    if (this.#adds.size === 0 && this.#removes.size === 0) return;
    this.#writing = true;
    const adds = new Map(this.#adds);
    const removes = new Set(this.#removes);
    this.#adds.clear();
    this.#removes.clear();
    const recorded = new Set<string>();
    try {
      for (let attempt = 1; ; attempt++) {
        const base = this.#known ?? (await this.#document.read());
        const next = new Map(base.entries);
        for (const uid of removes) next.delete(uid);
        recorded.clear();
        let bytes = byteSize(next);
        for (const [uid, waiters] of adds) {
          const name = waiters[0]?.name ?? '';
          const grows = next.has(uid) ? 0 : uid.length + name.length + ENTRY_OVERHEAD;
          if (next.get(uid) !== name && bytes + grows > this.#maxBytes) continue;
          next.set(uid, name);
          bytes += grows;
          recorded.add(uid);
        }
        if (sameEntries(next, base.entries)) {
          this.#known = base;
          break;
        }
        try {
          const version = await this.#document.write(next, base.version);
          this.#known = { entries: next, version };
          break;
        } catch (err) {
          this.#known = undefined;
          if (!(isConflict(err) || isAlreadyExists(err)) || attempt >= MAX_ATTEMPTS) throw err;
        }
      }
      for (const [uid, waiters] of adds) {
        if (this.#pending.get(uid) === waiters[0]?.name && !this.#adds.has(uid)) this.#pending.delete(uid);
        for (const waiter of waiters) waiter.resolve(recorded.has(uid));
      }
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.#log.warn({ ...errorFields(err), claims: adds.size, releases: removes.size }, 'could not write the claims ledger');
      for (const [uid, waiters] of adds) {
        if (!this.#adds.has(uid)) this.#pending.delete(uid);
        for (const waiter of waiters) waiter.reject(error);
      }
      for (const uid of removes) if (!this.#adds.has(uid) && !this.#pending.has(uid)) this.#removes.add(uid);
    } finally {
      this.#writing = false;
    }
    if (this.#adds.size > 0) this.#schedule(true);
    else if (this.#removes.size > 0) this.#schedule(false);
  }

  /** A read that starts after this call: joins the next read when one is in flight (it may have started before). */
  #freshRead(signal?: AbortSignal): Promise<LedgerVersion> {
    if (this.#reading === undefined) {
      const reading = this.#document.read(signal).finally(() => {
        if (this.#reading === reading) this.#reading = undefined;
      });
      this.#reading = reading;
      return reading;
    }
    this.#nextRead ??= this.#reading
      .catch(() => undefined)
      .then(() => {
        this.#nextRead = undefined;
        return this.#freshRead(signal);
      });
    return this.#nextRead;
  }
}

/** Bytes an entry costs beyond its UID and name in a ConfigMap's JSON (quotes, colon, comma). */
const ENTRY_OVERHEAD = 6;

function byteSize(entries: ReadonlyMap<string, string>): number {
  let bytes = 0;
  for (const [uid, name] of entries) bytes += uid.length + name.length + ENTRY_OVERHEAD;
  return bytes;
}

function sameEntries(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}
