/**
 * Shared setup of the integration suites: the real OpenSearch node of testenv (security plugin on), an
 * {@link OpenSearchHttpApi} logged in as its admin, and independent HTTP requests made with any credentials.
 */
import { randomBytes } from 'node:crypto';
import { ensureTestEnv } from '@domain-operators/testenv';
import { OpenSearchHttpApi } from './client.ts';

/** A user name and password for independent requests. The password is a secret: never log it. */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** What a suite gets from {@link openSearchFixture}. */
export interface OpenSearchFixture {
  readonly url: string;
  readonly admin: Credentials;
  /** Logged in as the admin. Close it in `afterAll`. */
  readonly api: OpenSearchHttpApi;
  /** Lowercase hex, unique per run, for names. */
  readonly suffix: string;
}

/** Makes sure the node is up (reusing a running one) and returns the fixture. */
export async function openSearchFixture(): Promise<OpenSearchFixture> {
  const env = await ensureTestEnv(['opensearch']);
  const { url, adminUser } = env.opensearch;
  const api = OpenSearchHttpApi.connect({ urls: [url], username: adminUser.username, password: adminUser.password });
  return { url, admin: adminUser, api, suffix: randomBytes(4).toString('hex') };
}

/** A plain HTTP request with the given credentials, independent of the adapter. Returns the status and JSON body. */
export async function request(
  url: string,
  credentials: Credentials,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ readonly status: number; readonly body: unknown }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (e.g. "Unauthorized"): keep the text.
  }
  return { status: response.status, body: parsed };
}

/** A password the security plugin's default policy accepts. */
export function strongPassword(): string {
  return `Op-${randomBytes(12).toString('hex')}!A1`;
}
