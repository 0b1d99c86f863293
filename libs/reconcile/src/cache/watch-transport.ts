import type { KubernetesObject } from '@kubernetes/client-node';

/** The annotation the API server puts on the bookmark that ends a watch-list's initial events, with value `"true"`. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/**
 * One event of a watch stream, normalised by the transport. `ERROR` events never appear here: the transport throws
 * them as a `KubeApiError` (410 Gone included, see `isGone`). A bookmark carries only the resourceVersion to resume
 * from and, on a watch-list ({@link WatchRequest.sendInitialEvents}), whether it is the bookmark that ends the
 * initial events (annotation {@link INITIAL_EVENTS_END_ANNOTATION} is `"true"`).
 */
export type WatchEvent<T extends KubernetesObject = KubernetesObject> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T }
  | { readonly type: 'BOOKMARK'; readonly resourceVersion: string; readonly initialEventsEnd?: boolean };

/** Arguments of {@link WatchTransport.list}: one page of a paginated list. */
export interface ListRequest {
  /** Page size; the server may return fewer items (it may also ignore it when serving from its watch cache). */
  readonly limit: number;
  /** Continue token from the previous page; absent for the first page. */
  readonly continue?: string;
  /** Optional resourceVersion for the first page; absent means a consistent (quorum) read. Never set with `continue`. */
  readonly resourceVersion?: string;
  /** Aborts the request; the returned promise then rejects. */
  readonly signal: AbortSignal;
}

/** One page of a list. `continue` is present (non-empty) while more pages remain. */
export interface ListPage<T extends KubernetesObject = KubernetesObject> {
  readonly items: readonly T[];
  /** The list's resourceVersion: the point to start watching from once the last page is read. */
  readonly resourceVersion: string;
  readonly continue?: string;
}

/** Arguments of {@link WatchTransport.watch}. */
export interface WatchRequest {
  /**
   * Start after this resourceVersion (from a list, a bookmark or the last event). With `sendInitialEvents`, the
   * state sent first is at least as new as this one, and `''` (sent as no resourceVersion at all) asks for a
   * consistent read, as fresh as a list from etcd.
   */
  readonly resourceVersion: string;
  /**
   * A watch-list (Kubernetes' streaming list, KEP 3157): the server first sends the current state as synthetic
   * `ADDED` events, then a bookmark with `initialEventsEnd`, then the changes after it, all on this one stream. The
   * transport asks for it with `sendInitialEvents=true&resourceVersionMatch=NotOlderThan`. A server that does not
   * serve watch-lists answers 4xx (422 Invalid when the WatchList feature gate is off), or, if it ignores the
   * parameters, never sends the annotated bookmark.
   */
  readonly sendInitialEvents?: boolean;
  /** Asks the server to end the stream after this many seconds. */
  readonly timeoutSeconds: number;
  /** Always requested: bookmarks keep the resourceVersion fresh and double as a heartbeat. */
  readonly allowWatchBookmarks: true;
  /** Aborts the stream; iteration then throws (or ends). */
  readonly signal: AbortSignal;
  /**
   * Called whenever any bytes arrive on the stream (events, bookmarks, keep-alive), before they are parsed. Must not
   * throw and must not block. The watcher uses it for its stalled-watch (inactivity) defence.
   */
  readonly onActivity: () => void;
}

/**
 * How a watcher reaches the API server for one resource type. Scope (namespace or cluster), and label and field
 * selectors, are fixed when the transport is built, so every call lists or watches the same set.
 *
 * Errors: answers from the server reject/throw as `KubeApiError` (status 410, 429, 5xx, …); broken connections
 * as `NetworkError`; after `signal` aborts, anything may be thrown. A watch stream that the server ends normally (its
 * `timeoutSeconds` elapsed) simply finishes iterating.
 */
export interface WatchTransport<T extends KubernetesObject = KubernetesObject> {
  /** Reads one page of the collection. An expired continue token rejects with 410 Gone. */
  list(request: ListRequest): Promise<ListPage<T>>;
  /** Opens a watch; the request is sent when iteration starts. Events arrive in resourceVersion order. */
  watch(request: WatchRequest): AsyncIterable<WatchEvent<T>>;
}
