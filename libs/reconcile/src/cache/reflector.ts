import type { KubernetesObject } from '@kubernetes/client-node';
import type { Store, StoreChange, StoreWriter } from './store.ts';
import type { WatcherEvent } from './watcher.ts';

/** Anything that yields watcher events until its signal aborts; a `Watcher` is one. */
export interface WatcherEventSource<T extends KubernetesObject> {
  /** Yields events until `signal` aborts, then returns; never throws for API or network errors. */
  events(signal: AbortSignal): AsyncIterable<WatcherEvent<T>>;
}

/** Receives every change the reflector writes to the store. Must not block and should not throw. */
export type ChangeListener<T extends KubernetesObject> = (change: StoreChange<T>) => void;

/** What a {@link Reflector} connects: a source of watcher events and the store writer it alone owns. */
export interface ReflectorDeps<T extends KubernetesObject> {
  readonly watcher: WatcherEventSource<T>;
  readonly writer: StoreWriter<T>;
}

/** Options of a {@link Reflector}. */
export interface ReflectorOptions {
  /** Called with an error a listener threw (the reflector carries on); defaults to `console.error`. */
  readonly onListenerError?: (error: unknown) => void;
}

/**
 * Feeds a store from a watcher and tells listeners what changed, like client-go's reflector plus informer handlers.
 *
 * On `Restarted` the store is replaced and listeners hear about every key added, changed (different
 * resourceVersion) or deleted since the previous content; on `Added`/`Modified`/`Deleted` the store is updated and
 * the change reported (a replayed event with an unchanged resourceVersion is not). Listeners always run after the
 * store already holds the new state, and {@link Reflector.hasSynced} turns true only after the first full list was
 * stored and its changes delivered. Construction does no work; {@link Reflector.run} does.
 */
export class Reflector<T extends KubernetesObject = KubernetesObject> {
  readonly #watcher: WatcherEventSource<T>;
  readonly #writer: StoreWriter<T>;
  readonly #onListenerError: (error: unknown) => void;
  readonly #listeners = new Set<ChangeListener<T>>();
  readonly #syncWaiters = new Set<() => void>();

  /** Stores its dependencies; starts nothing. */
  constructor(deps: ReflectorDeps<T>, options: ReflectorOptions = {}) {
    this.#watcher = deps.watcher;
    this.#writer = deps.writer;
    this.#onListenerError =
      options.onListenerError ??
      ((error: unknown) => {
        console.error('reflector: change listener threw', error);
      });
  }

  /** The read-only view of the store this reflector fills. Reads may be stale. */
  get store(): Store<T> {
    return this.#writer.reader();
  }

  /** Adds a listener for subsequent changes; returns a function that removes it. */
  onChange(listener: ChangeListener<T>): () => void {
    const entry: ChangeListener<T> = (change) => {
      listener(change);
    };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** True once the first full list has been stored and delivered to listeners. */
  hasSynced(): boolean {
    return this.#writer.hasSynced();
  }

  /** Resolves once {@link Reflector.hasSynced} is true; rejects with the signal's reason if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.hasSynced()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = (): void => {
        this.#syncWaiters.delete(done);
        reject(signal?.reason as Error);
      };
      const done = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.#syncWaiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Consumes the watcher until `signal` aborts; resolves then. Call once. */
  async run(signal: AbortSignal): Promise<void> {
    // A manual loop rather than `for await`: the loop variable of `for await` keeps the last event (after a relist,
    // the whole raw list, managedFields included) reachable while the next event is awaited, which in a quiet
    // namespace is forever. Here nothing refers to an event once it is handled.
    const events = this.#watcher.events(signal)[Symbol.asyncIterator]();
    let next: IteratorResult<WatcherEvent<T>, unknown> | undefined;
    for (;;) {
      next = await events.next();
      if (next.done === true) return;
      this.#handle(next.value);
      // Cleared explicitly: a stale register would otherwise hold the event across the next await.
      // eslint-disable-next-line no-useless-assignment -- the point is to drop the reference, not to read it
      next = undefined;
    }
  }

  #handle(event: WatcherEvent<T>): void {
    switch (event.type) {
      case 'Restarted':
        for (const change of this.#writer.replace(event.objects)) this.#emit(change);
        if (!this.#writer.hasSynced()) this.#markSynced();
        break;
      case 'Added':
      case 'Modified': {
        const change = this.#writer.apply(event.object);
        if (change !== undefined) this.#emit(change);
        break;
      }
      case 'Deleted':
        this.#emit(this.#writer.delete(event.object));
        break;
    }
  }

  #markSynced(): void {
    this.#writer.markSynced();
    for (const done of this.#syncWaiters) done();
    this.#syncWaiters.clear();
  }

  #emit(change: StoreChange<T>): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }
}
