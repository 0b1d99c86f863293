import type { V1Pod } from '@kubernetes/client-node';
import { Watch } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kube } from './kube.ts';
import { describeError } from './kube.ts';
import { log } from './log.ts';

/** Receives the pods of every namespace. */
export interface PodEvents {
  upsert(pod: V1Pod): void;
  remove(pod: V1Pod): void;
  /** After every (re)list: the complete set of pods at that moment (each also passed to `upsert`). */
  relisted(pods: readonly V1Pod[]): void;
}

/** First delay before relisting after an error; doubles up to {@link MAX_RELIST_BACKOFF_MS}. */
export const INITIAL_RELIST_BACKOFF_MS = 500;
/** Cap of the relist backoff. */
export const MAX_RELIST_BACKOFF_MS = 30_000;
/**
 * Server-side watch timeout. client-node aborts a watch after 30 s without data, so the server is asked to end
 * it cleanly before that; the informer then resumes from the last resourceVersion without relisting.
 */
const WATCH_TIMEOUT_SECONDS = 25;

interface WatchEnd {
  /** Set when the watch failed (or the server reported an error such as 410 Gone): relist. */
  readonly error?: string;
}

/**
 * List-then-watch of all pods. A watch the server ends cleanly is resumed from the last resourceVersion seen
 * (bookmarks included); any error relists, so no change is lost. Failed lists back off from 0.5 s doubling to
 * 30 s; a successful list resets the backoff.
 */
export class PodInformer {
  readonly #kube: Kube;
  readonly #events: PodEvents;
  #stopped = false;
  #abort: AbortController | undefined;
  #resourceVersion: string | undefined;

  constructor(kube: Kube, events: PodEvents) {
    this.#kube = kube;
    this.#events = events;
  }

  /** Starts listing and watching in the background. */
  start(): void {
    void this.#loop();
  }

  /** Stops watching. */
  stop(): void {
    this.#stopped = true;
    this.#abort?.abort();
  }

  #isStopped(): boolean {
    return this.#stopped;
  }

  async #loop(): Promise<void> {
    let backoff = INITIAL_RELIST_BACKOFF_MS;
    while (!this.#isStopped()) {
      try {
        const list = await this.#kube.core.listPodForAllNamespaces({});
        for (const pod of list.items) this.#events.upsert(pod);
        this.#events.relisted(list.items);
        this.#resourceVersion = list.metadata?.resourceVersion;
        backoff = INITIAL_RELIST_BACKOFF_MS;
        for (;;) {
          const end = await this.#watch();
          if (this.#isStopped()) return;
          if (end.error !== undefined) {
            log(`pod watch ended: ${end.error}; relisting`);
            break;
          }
        }
      } catch (err) {
        log(`pod list failed: ${describeError(err)}`);
      }
      await sleep(backoff);
      backoff = Math.min(backoff * 2, MAX_RELIST_BACKOFF_MS);
    }
  }

  /** Watches from the last resourceVersion; resolves when the watch ends. */
  #watch(): Promise<WatchEnd> {
    return new Promise((resolve) => {
      const query = {
        allowWatchBookmarks: true,
        timeoutSeconds: WATCH_TIMEOUT_SECONDS,
        ...(this.#resourceVersion === undefined ? {} : { resourceVersion: this.#resourceVersion }),
      };
      let failure: string | undefined;
      new Watch(this.#kube.config)
        .watch(
          '/api/v1/pods',
          query,
          (type: string, obj: unknown) => {
            if (type === 'ERROR') {
              failure = `watch error event ${JSON.stringify(obj).slice(0, 200)}`;
              return;
            }
            const pod = obj as V1Pod;
            this.#resourceVersion = pod.metadata?.resourceVersion ?? this.#resourceVersion;
            if (type === 'ADDED' || type === 'MODIFIED') this.#events.upsert(pod);
            else if (type === 'DELETED') this.#events.remove(pod);
          },
          (err: unknown) => {
            const error = err === null || err === undefined ? failure : describeError(err);
            resolve(error === undefined ? {} : { error });
          },
        )
        .then(
          (controller) => {
            this.#abort = controller;
          },
          (err: unknown) => {
            resolve({ error: describeError(err) });
          },
        );
    });
  }
}
