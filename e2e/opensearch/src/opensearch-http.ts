// OpenSearch as an outsider sees it: one plain HTTP(S) request with basic authentication, trusting the CA of the
// OpenSearch under test when it serves HTTPS. Independent of the operator's client.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { OpenSearchInfo } from '@domain-operators/testenv';

/** A login for OpenSearch. The password is a secret: never log it. */
export interface OpenSearchLogin {
  readonly username: string;
  readonly password: string;
}

/** What OpenSearch answered: the status and the body, parsed as JSON when it is JSON, else the text. */
export interface OpenSearchAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Sends requests to one OpenSearch. */
export type OpenSearchRequest = (method: string, path: string, body?: unknown, login?: OpenSearchLogin) => Promise<OpenSearchAnswer>;

/**
 * A request function for `openSearch`'s URL, as its admin user unless a request names another login, trusting
 * `openSearch.caFile` (read once, here) for HTTPS. Rejects only on network errors; every HTTP status resolves.
 */
export function openSearchRequests(openSearch: OpenSearchInfo): OpenSearchRequest {
  const base = new URL(openSearch.url);
  const ca = openSearch.caFile === undefined ? undefined : readFileSync(openSearch.caFile, 'utf8');
  return (method, path, body, login = openSearch.adminUser) =>
    new Promise<OpenSearchAnswer>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const url = new URL(path, base);
      const options = {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
          'content-type': 'application/json',
          ...(payload === undefined ? {} : { 'content-length': Buffer.byteLength(payload) }),
        },
        ...(ca === undefined ? {} : { ca }),
      };
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text) as unknown;
          } catch {
            // not JSON: the text itself
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
}
