/** Credentials for HTTP basic authentication. */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/** The HTTP status of `GET <url><path>`, with basic authentication when `credentials` is given. Throws when nothing answers. */
export async function httpStatus(url: string, path: string, credentials?: BasicCredentials): Promise<number> {
  const headers: Record<string, string> = {};
  if (credentials !== undefined) headers['authorization'] = basicAuthorization(credentials);
  const response = await fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(5_000) });
  await response.body?.cancel();
  return response.status;
}

/** True when `GET /_plugins/_security/health` (no authentication needed) reports `"status":"UP"`. */
export async function securityUp(url: string): Promise<boolean> {
  const response = await fetch(`${url}/_plugins/_security/health`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) {
    await response.body?.cancel();
    return false;
  }
  const body: unknown = await response.json();
  return typeof body === 'object' && body !== null && 'status' in body && body.status === 'UP';
}

/**
 * True when the node really serves with security on: the security plugin is UP, the admin gets 200 on `GET /`
 * and an anonymous caller gets 401. Throws when nothing answers.
 */
export async function serving(url: string, admin: BasicCredentials): Promise<boolean> {
  return (
    (await securityUp(url)) && (await httpStatus(url, '/', admin)) === 200 && (await httpStatus(url, '/')) === 401
  );
}

/** The `Authorization` header value for basic authentication. */
export function basicAuthorization(credentials: BasicCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
}
