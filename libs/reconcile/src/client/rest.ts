import { Agent, request as httpsRequest } from 'node:https';
import type { RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { KubeApiError } from '../core/errors.ts';

/** One call to the Kubernetes REST API. */
export interface RestRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute API path, e.g. `/apis/apps/v1/namespaces/ns/statefulsets/web`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Serialised as JSON unless it is already a string. */
  readonly body?: unknown;
  /** Defaults to `application/json` when there is a body. */
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

/**
 * The transport under `Client` and the watch: JSON requests to the apiserver named by a KubeConfig.
 * Implementations reject with {@link KubeApiError} for any non-2xx answer (status, Status reason and message)
 * and with the underlying error for network failures.
 */
export interface RestTransport {
  /** Sends a request and resolves with the parsed JSON body (or `undefined` for an empty body). */
  json(request: RestRequest): Promise<unknown>;
  /** Sends a request and resolves with the open response stream of a 2xx answer (for watches). */
  stream(request: RestRequest): Promise<IncomingMessage>;
}

/**
 * A {@link RestTransport} over `node:https` with one keep-alive agent, using the KubeConfig's current
 * context (server, CA, client certificate or token). Build with {@link HttpsRestTransport.create}. A request whose
 * reused keep-alive connection is closed before any answer ({@link isConnectionClosedUnanswered}) is sent once more
 * on a new connection; every other failure rejects as it came.
 */
export class HttpsRestTransport implements RestTransport {
  readonly #server: URL;
  readonly #options: RequestOptions;

  private constructor(server: URL, options: RequestOptions) {
    this.#server = server;
    this.#options = options;
  }

  /** Resolves the KubeConfig's credentials once. Rejects when it has no current cluster. */
  static async create(kubeConfig: KubeConfig): Promise<HttpsRestTransport> {
    const cluster = kubeConfig.getCurrentCluster();
    if (cluster === null) throw new Error('kubeconfig has no current cluster');
    const options: RequestOptions = {};
    await kubeConfig.applyToHTTPSOptions(options);
    const { ca, cert, key, rejectUnauthorized, servername } = options;
    const agent = new Agent({ keepAlive: true, maxSockets: 64, ca, cert, key, ...(rejectUnauthorized !== undefined && { rejectUnauthorized }), ...(servername !== undefined && { servername }) });
    return new HttpsRestTransport(new URL(cluster.server), { ...options, agent });
  }

  async json(request: RestRequest): Promise<unknown> {
    const response = await this.stream(request);
    const text = await readBody(response);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  }

  stream(request: RestRequest): Promise<IncomingMessage> {
    const url = new URL(request.path, this.#server);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    const headers: Record<string, string> = { ...(this.#options.headers as Record<string, string> | undefined), accept: 'application/json' };
    if (body !== undefined) {
      headers['content-type'] = request.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const send = (mayRetry: boolean): Promise<IncomingMessage> =>
      new Promise((resolve, reject) => {
        let answered = false;
        const req = httpsRequest(url, { ...this.#options, method: request.method, headers, ...(request.signal !== undefined && { signal: request.signal }) }, (response) => {
          answered = true;
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            resolve(response);
            return;
          }
          readBody(response).then(
            (text) => {
              reject(apiErrorFrom(status, text, `${request.method} ${request.path}`));
            },
            reject,
          );
        });
        req.once('error', (err: Error) => {
          if (mayRetry && !answered && req.reusedSocket && isConnectionClosedUnanswered(err) && request.signal?.aborted !== true) {
            resolve(send(false));
            return;
          }
          reject(err);
        });
        req.end(body);
      });
    return send(true);
  }
}

/**
 * Whether `err` says the connection was closed before any answer came (`ECONNRESET`, Node's "socket hang up").
 * On a reused keep-alive socket this is the race with the server closing the connection as idle (the apiserver does so
 * after 90 s): the server had read nothing of the request, so sending it again on a new connection is safe for every
 * method, as Node's documentation of `request.reusedSocket` advises. Pure.
 */
export function isConnectionClosedUnanswered(err: Error): boolean {
  return (err as NodeJS.ErrnoException).code === 'ECONNRESET' || err.message === 'socket hang up';
}

/** Builds the {@link KubeApiError} for a non-2xx answer from its Status body (or raw text). */
export function apiErrorFrom(status: number, text: string, what: string): KubeApiError {
  let reason: string | undefined;
  let message = text.trim();
  let causes: string[] = [];
  try {
    const parsed = JSON.parse(text) as { reason?: unknown; message?: unknown; details?: { causes?: unknown } };
    if (typeof parsed.reason === 'string') reason = parsed.reason;
    if (typeof parsed.message === 'string') message = parsed.message;
    if (Array.isArray(parsed.details?.causes)) {
      causes = parsed.details.causes.flatMap((cause: unknown) => {
        const type = typeof cause === 'object' && cause !== null ? (cause as { type?: unknown }).type : undefined;
        return typeof type === 'string' ? [type] : [];
      });
    }
  } catch {
    // not a Status object: keep the raw text
  }
  return new KubeApiError(`${what}: ${status}${reason === undefined ? '' : ` ${reason}`}: ${message}`, status, reason, { causes });
}

async function readBody(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
