import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { allocatePodIp } from './ip-allocator.ts';

/**
 * The pods' loopback addresses, persisted in a JSON file so a restarted runner gives each pod back the same
 * address. Not safe for concurrent runners (there is one per checkout).
 */
export class IpStore {
  readonly #file: string;
  readonly #byUid = new Map<string, string>();
  #saving: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  /** Loads the file; a missing or unreadable file is an empty store. */
  async load(): Promise<void> {
    try {
      const parsed = JSON.parse(await readFile(this.#file, 'utf8')) as Record<string, unknown>;
      for (const [uid, ip] of Object.entries(parsed)) if (typeof ip === 'string') this.#byUid.set(uid, ip);
    } catch {
      // start empty
    }
  }

  /**
   * The pod's address: the one it already has, else `preferred` (its status' podIP) when free, else a new one.
   * Persists the choice.
   */
  async assign(uid: string, preferred?: string): Promise<string> {
    const known = this.#byUid.get(uid);
    if (known !== undefined) return known;
    const taken = new Set(this.#byUid.values());
    const ip = allocatePodIp(uid, taken, preferred);
    this.#byUid.set(uid, ip);
    await this.#save();
    return ip;
  }

  /** Frees the pod's address. */
  async release(uid: string): Promise<void> {
    if (this.#byUid.delete(uid)) await this.#save();
  }

  /** Saves are chained, so concurrent callers never race on the temporary file. */
  #save(): Promise<void> {
    const next = this.#saving.then(() => this.#write());
    this.#saving = next.catch(() => undefined);
    return next;
  }

  async #write(): Promise<void> {
    await mkdir(dirname(this.#file), { recursive: true });
    const tmp = `${this.#file}.tmp`;
    await writeFile(tmp, `${JSON.stringify(Object.fromEntries(this.#byUid), null, 2)}\n`);
    await rename(tmp, this.#file);
  }
}
