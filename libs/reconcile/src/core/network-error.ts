/**
 * A request to the API server got no answer: the connection was refused, reset, timed out, failed TLS or DNS, or
 * a response stream broke off (or was malformed). Retry with backoff. An answer with an HTTP error status is a
 * `KubeApiError` instead.
 */
export class NetworkError extends Error {
  /** Always `NetworkError`. Build with `new NetworkError(message, { cause })`, `cause` being the socket or parse error. */
  override readonly name = 'NetworkError';
}

/** True for a {@link NetworkError}. */
export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}
