import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../core/logger.ts';
import { errorFields, silentLogger } from '../core/logger.ts';

/** One GET endpoint's answer. */
export interface EndpointResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Answers one GET path; may be async; a rejection becomes a 500 with the error message. */
export type EndpointHandler = () => EndpointResponse | Promise<EndpointResponse>;

/** Splits `host:port`, `:port` or `[v6]:port` (as in {@link ManagerOptions}); `host` is undefined for all interfaces. */
export function parseBindAddress(address: string): { readonly host: string | undefined; readonly port: number } {
  const match = /^(?:\[([\da-f:]+)\]|([\w.-]*)):(\d{1,5})$/i.exec(address);
  if (match === null) throw new Error(`bind address must be host:port, :port or [v6]:port, got "${address}"`);
  const host = match[1] ?? match[2];
  return { host: host === '' ? undefined : host, port: Number(match[3]) };
}

/**
 * A tiny node:http server for operational endpoints (`/healthz`, `/readyz`, `/metrics`): GET (and HEAD) on the
 * given paths, 404 elsewhere, 405 for other methods. `listen` binds; `close` stops accepting and ends open
 * connections. Construction does no work.
 */
export class EndpointServer {
  readonly #routes: ReadonlyMap<string, EndpointHandler>;
  readonly #bindAddress: string;
  readonly #logger: Logger;
  #server: Server | undefined;

  /** `bindAddress` as `host:port`; port 0 picks a free port (see {@link EndpointServer.listen}'s result). */
  constructor(deps: { readonly logger?: Logger }, options: { readonly bindAddress: string; readonly routes: Readonly<Record<string, EndpointHandler>> }) {
    this.#routes = new Map(Object.entries(options.routes));
    this.#bindAddress = options.bindAddress;
    this.#logger = deps.logger ?? silentLogger;
  }

  /** Starts listening; resolves with the bound address, rejects if it cannot bind (e.g. port in use). */
  async listen(): Promise<AddressInfo> {
    const { host, port } = parseBindAddress(this.#bindAddress);
    const server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const handler = this.#routes.get(path);
      const send = (status: number, contentType: string, body: string): void => {
        response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      };
      if (handler === undefined) {
        send(404, 'text/plain; charset=utf-8', `not found: ${path}\n`);
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        send(405, 'text/plain; charset=utf-8', 'method not allowed\n');
        return;
      }
      Promise.resolve()
        .then(handler)
        .then(
          (answer) => {
            send(answer.status, answer.contentType, answer.body);
          },
          (err: unknown) => {
            this.#logger.error({ path, ...errorFields(err) }, 'endpoint handler failed');
            send(500, 'text/plain; charset=utf-8', `internal error: ${err instanceof Error ? err.message : String(err)}\n`);
          },
        );
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    return server.address() as AddressInfo;
  }

  /** Stops the server (idempotent); resolves once it is closed. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
      server.closeAllConnections();
    });
  }
}
