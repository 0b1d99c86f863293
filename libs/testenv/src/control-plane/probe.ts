import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';

/** TLS material for a probe: the CA to trust and, optionally, a client certificate. */
export interface ProbeTls {
  readonly caFile: string;
  readonly certFile?: string;
  readonly keyFile?: string;
}

/** A finished HTTP exchange. */
export interface ProbeResponse {
  readonly status: number;
  readonly body: string;
}

/**
 * One GET to `url` (http or https) with a short timeout. Rejects on connection errors and timeouts,
 * resolves with any HTTP status: callers decide what counts as healthy.
 */
export async function httpGet(url: string, tls?: ProbeTls, timeoutMs = 2_000): Promise<ProbeResponse> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const tlsOptions =
    secure && tls !== undefined
      ? {
          ca: await readFile(tls.caFile),
          ...(tls.certFile === undefined ? {} : { cert: await readFile(tls.certFile) }),
          ...(tls.keyFile === undefined ? {} : { key: await readFile(tls.keyFile) }),
        }
      : {};
  return new Promise<ProbeResponse>((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(target, { method: 'GET', timeout: timeoutMs, ...tlsOptions }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => {
      req.destroy(new Error(`GET ${url}: no answer within ${timeoutMs} ms`));
    });
    req.on('error', reject);
    req.end();
  });
}

/** True when `GET url` answers 200 (false on any error). */
export async function answers200(url: string, tls?: ProbeTls): Promise<boolean> {
  try {
    return (await httpGet(url, tls)).status === 200;
  } catch {
    return false;
  }
}

/**
 * Rejects with a clear message naming `owner` (e.g. `apiserver/etcd`) when something already listens on
 * `127.0.0.1:port`, such as a process of an earlier run whose pid file was lost; otherwise the daemon would
 * fail later with a less obvious log line.
 */
export async function assertPortFree(port: number, owner: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      const message =
        err.code === 'EADDRINUSE'
          ? `${owner} cannot start: 127.0.0.1:${port} is already in use by another process (see \`ss -ltnp 'sport = :${port}'\`)`
          : `${owner}: cannot probe port ${port}: ${err.message}`;
      reject(new Error(message, { cause: err }));
    });
    server.listen(port, '127.0.0.1', () => {
      server.close(() => {
        resolve();
      });
    });
  });
}
