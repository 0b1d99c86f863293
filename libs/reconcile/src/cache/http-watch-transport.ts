import * as http from 'node:http';
import * as https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { KubeApiError } from '../core/errors.ts';
import { NetworkError } from '../core/network-error.ts';
import { apiVersionOf, collectionPath } from '../client/resource-type.ts';
import { consumeChunks } from './consume-chunks.ts';
import { keepAliveAgent } from './keep-alive-agent.ts';
import { ListBodyParser } from './list-body.ts';
import type { ParsedListBody } from './list-body.ts';
import type { ListScope, ResourceType } from '../client/resource-type.ts';
import { INITIAL_EVENTS_END_ANNOTATION } from './watch-transport.ts';
import type { ListPage, ListRequest, WatchEvent, WatchRequest, WatchTransport } from './watch-transport.ts';

/** What an {@link HttpWatchTransport} covers: one resource type, and a scope (one namespace or all, selectors). */
export interface HttpWatchTransportOptions extends ListScope {
  /** The kind to list and watch; a namespace in the scope is refused for a cluster-scoped kind. */
  readonly resource: ResourceType;
}

const NEWLINE = 0x0a;

/** The `Accept` header of a metadata-only list: the apiserver answers a `PartialObjectMetadataList`. */
export const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** The `Accept` header of a metadata-only watch: each event's object is a `PartialObjectMetadata`. */
export const METADATA_WATCH_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/** What an {@link HttpWatchTransport} needs: the kubeconfig that names the server and the credentials. */
export interface HttpWatchTransportDeps {
  readonly kubeConfig: KubeConfig;
}

/**
 * A {@link WatchTransport} over HTTPS (or plain HTTP when the kubeconfig allows it), authenticated by a client-node
 * `KubeConfig`, over one keep-alive agent per kubeconfig agent ({@link keepAliveAgent}: list pages and re-watches
 * reuse connections instead of opening one each). List items are parsed one by one as their bytes arrive
 * ({@link ListBodyParser}); watches (watch-lists included, {@link WatchRequest.sendInitialEvents}) are streamed as
 * newline-delimited JSON, every received chunk reported through `onActivity` before parsing. A watch `ERROR` event becomes a `KubeApiError` with the event's
 * `Status.code` (410 Gone included); HTTP answers of 400 or more become a `KubeApiError`; socket failures a
 * `NetworkError`. After `signal` aborts, the request is destroyed and the signal's reason is thrown. For a
 * `metadataOnly` resource, lists and watches ask for `PartialObjectMetadata` ({@link METADATA_LIST_ACCEPT},
 * {@link METADATA_WATCH_ACCEPT}), and every object is cut down to `apiVersion`, `kind` (the watched kind's) and
 * `metadata`, so nothing else is held even if a server answered with whole objects.
 */
export class HttpWatchTransport<T extends KubernetesObject = KubernetesObject> implements WatchTransport<T> {
  readonly #kubeConfig: KubeConfig;
  readonly #path: string;
  readonly #options: HttpWatchTransportOptions;

  /** Validates the scope and stores the configuration; opens no connection. */
  constructor(deps: HttpWatchTransportDeps, options: HttpWatchTransportOptions) {
    this.#kubeConfig = deps.kubeConfig;
    this.#options = options;
    this.#path = collectionPath(options.resource, options.namespace);
  }

  /** See {@link WatchTransport.list}. Items missing `apiVersion`/`kind` (as list items are) get the list's. */
  async list(request: ListRequest): Promise<ListPage<T>> {
    const query = this.#query();
    query.set('limit', String(request.limit));
    if (request.continue !== undefined) query.set('continue', request.continue);
    if (request.resourceVersion !== undefined) query.set('resourceVersion', request.resourceVersion);
    const response = await this.#get(query, this.#metadataOnly ? METADATA_LIST_ACCEPT : 'application/json', request.signal);
    // Items are parsed as their bytes arrive, while the server is still sending the rest of the page.
    const parser = new ListBodyParser();
    let body: ParsedListBody;
    try {
      await consumeChunks(response, (chunk) => {
        parser.push(chunk);
      });
      body = parser.end();
    } catch (error) {
      if (error instanceof SyntaxError && !request.signal.aborted) throw new NetworkError('malformed list JSON from the API server', { cause: error });
      throw streamError(error, request.signal, 'list');
    }
    const { rest, items } = body;
    const metadata = rest['metadata'];
    const apiVersion = rest['apiVersion'];
    const listKind = rest['kind'];
    const kind = typeof listKind === 'string' && listKind.endsWith('List') ? listKind.slice(0, -4) : undefined;
    const objects: T[] = [];
    for (const item of items as T[]) {
      if (this.#metadataOnly) {
        objects.push(this.#metadataOf(item));
        continue;
      }
      if (item.apiVersion === undefined && typeof apiVersion === 'string') item.apiVersion = apiVersion;
      if (item.kind === undefined && kind !== undefined) item.kind = kind;
      objects.push(item);
    }
    const resourceVersion = field(metadata, 'resourceVersion');
    const next = field(metadata, 'continue');
    return {
      items: objects,
      resourceVersion: typeof resourceVersion === 'string' ? resourceVersion : '',
      ...(typeof next === 'string' && next !== '' ? { continue: next } : {}),
    };
  }

  /** See {@link WatchTransport.watch}. */
  async *watch(request: WatchRequest): AsyncGenerator<WatchEvent<T>, void, undefined> {
    const query = this.#query();
    query.set('watch', 'true');
    // A watch-list from resourceVersion "" is a consistent read: the parameter is left out, as client-go does.
    if (request.resourceVersion !== '' || request.sendInitialEvents !== true) query.set('resourceVersion', request.resourceVersion);
    if (request.sendInitialEvents === true) {
      query.set('sendInitialEvents', 'true');
      query.set('resourceVersionMatch', 'NotOlderThan');
    }
    query.set('timeoutSeconds', String(request.timeoutSeconds));
    query.set('allowWatchBookmarks', 'true');
    const response = await this.#get(query, this.#metadataOnly ? METADATA_WATCH_ACCEPT : 'application/json', request.signal);
    // The response head is the server's first sign of life on a new watch: a quiet but healthy watch counts as active.
    request.onActivity();
    try {
      // Lines are cut at newline bytes (JSON escapes newlines in strings, and no UTF-8 sequence contains the byte) and
      // decoded one at a time: each byte becomes a string once, instead of once per chunk and again when the rest of
      // a line was joined to the next chunk (a watch-list streams megabytes of events in a burst).
      let pending: Buffer[] = [];
      for await (const chunk of response as AsyncIterable<Buffer>) {
        request.onActivity();
        let start = 0;
        for (let newline = chunk.indexOf(NEWLINE); newline >= 0; newline = chunk.indexOf(NEWLINE, start)) {
          let line: string;
          if (pending.length === 0) {
            line = chunk.toString('utf8', start, newline);
          } else {
            pending.push(chunk.subarray(start, newline));
            line = Buffer.concat(pending).toString('utf8');
            pending = [];
          }
          start = newline + 1;
          const event = parseWatchLine<T>(line);
          if (event !== undefined) yield this.#projected(event);
        }
        if (start < chunk.length) pending.push(start === 0 ? chunk : chunk.subarray(start));
      }
      const last = parseWatchLine<T>(Buffer.concat(pending).toString('utf8'));
      if (last !== undefined) yield this.#projected(last);
    } catch (error) {
      if (!request.signal.aborted && (error instanceof KubeApiError || error instanceof NetworkError)) throw error;
      throw streamError(error, request.signal, 'watch');
    } finally {
      response.destroy();
    }
  }

  get #metadataOnly(): boolean {
    return this.#options.resource.projection === 'metadata';
  }

  /** A watch event as the watcher should see it: a metadata-only object cut down by {@link #metadataOf}. */
  #projected(event: WatchEvent<T>): WatchEvent<T> {
    return this.#metadataOnly && event.type !== 'BOOKMARK' ? { type: event.type, object: this.#metadataOf(event.object) } : event;
  }

  /** Only the metadata, under the watched kind's apiVersion and kind (the server names them `meta.k8s.io/v1`). */
  #metadataOf(object: T): T {
    const resource = this.#options.resource;
    return { apiVersion: apiVersionOf(resource), kind: resource.kind, metadata: object.metadata ?? {} } as T;
  }

  #query(): URLSearchParams {
    const query = new URLSearchParams();
    if (this.#options.labelSelector !== undefined) query.set('labelSelector', this.#options.labelSelector);
    if (this.#options.fieldSelector !== undefined) query.set('fieldSelector', this.#options.fieldSelector);
    return query;
  }

  /** Sends a GET and resolves with a 2xx response; rejects with a KubeApiError (after reading the body) otherwise. */
  async #get(query: URLSearchParams, accept: string, signal: AbortSignal): Promise<IncomingMessage> {
    const cluster = this.#kubeConfig.getCurrentCluster();
    if (cluster === null) throw new Error('HttpWatchTransport: the kubeconfig has no current cluster');
    const url = new URL(`${cluster.server.replace(/\/+$/, '')}${this.#path}?${query.toString()}`);
    const options: https.RequestOptions = { method: 'GET', headers: { Accept: accept } };
    await this.#kubeConfig.applyToHTTPSOptions(options);
    options.agent = keepAliveAgent(options.agent);
    options.signal = signal;
    const client = url.protocol === 'http:' ? http : https;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = client.request(url, options, resolve);
      request.on('error', (error) => {
        reject(streamError(error, signal, 'request'));
      });
      request.end();
    });
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    let text = '';
    try {
      response.setEncoding('utf8');
      for await (const chunk of response as AsyncIterable<string>) text += chunk;
    } catch {
      // The status line is what matters; a body cut short only loses the message.
    }
    throw statusError(status, text);
  }
}

/** Parses one line of a watch stream; undefined for blank lines and unknown event types. */
function parseWatchLine<T extends KubernetesObject>(line: string): WatchEvent<T> | undefined {
  if (line.trim() === '') return undefined;
  const event = parseJson(line, 'watch event');
  const type = field(event, 'type');
  const object = field(event, 'object');
  switch (type) {
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED':
      return { type, object: object as T };
    case 'BOOKMARK': {
      const metadata = field(object, 'metadata');
      const resourceVersion = field(metadata, 'resourceVersion');
      if (typeof resourceVersion !== 'string') return undefined;
      return field(field(metadata, 'annotations'), INITIAL_EVENTS_END_ANNOTATION) === 'true' ? { type, resourceVersion, initialEventsEnd: true } : { type, resourceVersion };
    }
    case 'ERROR': {
      const code = field(object, 'code');
      throw statusError(typeof code === 'number' ? code : 500, JSON.stringify(object));
    }
    default:
      return undefined;
  }
}

/** A KubeApiError from a `Status` body (JSON text, its `details.causes` types kept), or from the raw text when it is not one. */
function statusError(status: number, body: string): KubeApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const message = field(parsed, 'message');
  const reason = field(parsed, 'reason');
  const causes = field(field(parsed, 'details'), 'causes');
  return new KubeApiError(typeof message === 'string' ? message : `HTTP ${status}: ${body.slice(0, 200)}`, status, typeof reason === 'string' ? reason : undefined, {
    causes: Array.isArray(causes) ? causes.flatMap((cause: unknown) => (typeof field(cause, 'type') === 'string' ? [field(cause, 'type') as string] : [])) : [],
  });
}

/** The error to surface for a failed request or stream: the abort reason once aborted, else a NetworkError. */
function streamError(error: unknown, signal: AbortSignal, what: string): Error {
  if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
  const message = error instanceof Error ? error.message : String(error);
  return new NetworkError(`${what} failed: ${message}`, { cause: error });
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new NetworkError(`malformed ${what} JSON from the API server`, { cause: error });
  }
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}
