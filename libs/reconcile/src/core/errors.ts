import { ApiException } from '@kubernetes/client-node';
import { Reasons } from './reasons.ts';

/** Options of a {@link TerminalError}. */
export interface TerminalErrorOptions extends ErrorOptions {
  /**
   * Whether the resource is stalled (kstatus `Stalled=True`, `Failed`): true (the default) when only a change of the
   * resource, or of the world by a person, can help; false when the loop waits for a watched dependency that may
   * recover on its own (a connection that is not Ready), which kstatus must see as `InProgress`.
   */
  readonly stalls?: boolean;
}

/**
 * An error that retrying cannot fix (invalid spec, a tenancy violation): the loop records it, does not retry,
 * and waits for the object to change. The reconciler should also say why in a status condition, and the status
 * path marks the resource `Stalled` unless {@link TerminalErrorOptions.stalls} is false.
 */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';
  /** A CamelCase condition reason, e.g. `TenancyViolation`. */
  readonly reason: string;
  /** See {@link TerminalErrorOptions.stalls}. */
  readonly stalls: boolean;

  constructor(message: string, reason: string = Reasons.terminalError, options?: TerminalErrorOptions) {
    super(message, options);
    this.reason = reason;
    this.stalls = options?.stalls ?? true;
  }
}

/** True for a {@link TerminalError}, also across module copies (checked by name). */
export function isTerminalError(err: unknown): err is TerminalError {
  return err instanceof TerminalError || (err instanceof Error && err.name === 'TerminalError');
}

/**
 * True when `err` leaves its resource stalled (kstatus `Failed`): a {@link TerminalError} whose `stalls` is not false.
 * Retryable errors and terminal waits on a dependency are progress (`Reconciling`).
 */
export function stallsProgress(err: unknown): boolean {
  return isTerminalError(err) && err.stalls;
}

/** A failed Kubernetes API call, as the `Client` throws it. `status` is the HTTP status, `reason` the Status reason. */
export class KubeApiError extends Error {
  override readonly name = 'KubeApiError';
  readonly status: number;
  readonly reason: string | undefined;
  /** The `type`s of the Status's `details.causes`, e.g. `NamespaceTerminating`; empty when it gave none. */
  readonly causes: readonly string[];

  constructor(message: string, status: number, reason: string | undefined, options?: ErrorOptions & { readonly causes?: readonly string[] }) {
    super(message, options);
    this.status = status;
    this.reason = reason;
    this.causes = options?.causes ?? [];
  }
}

/** The HTTP status of a Kubernetes API error (ours or client-node's), or `undefined` for anything else. */
export function apiStatusOf(err: unknown): number | undefined {
  if (err instanceof KubeApiError) return err.status;
  if (err instanceof ApiException) return (err as ApiException<unknown>).code;
  return undefined;
}

/** 404: the object (or its kind) does not exist. */
export function isNotFound(err: unknown): boolean {
  return apiStatusOf(err) === 404;
}

/** 409 with reason Conflict: a stale resourceVersion (retry with a fresh read), as opposed to AlreadyExists. */
export function isConflict(err: unknown): boolean {
  return apiStatusOf(err) === 409 && reasonOf(err) !== 'AlreadyExists';
}

/** 409 with reason AlreadyExists: a create of a name that is taken. */
export function isAlreadyExists(err: unknown): boolean {
  return apiStatusOf(err) === 409 && reasonOf(err) === 'AlreadyExists';
}

/** 410: the resourceVersion is too old; relist. */
export function isGone(err: unknown): boolean {
  return apiStatusOf(err) === 410;
}

/**
 * 504 with Status cause `ResourceVersionTooLarge`: the request named a resourceVersion newer than the apiserver's
 * cache has reached (it waited, then gave up); ask again without one.
 */
export function isResourceVersionTooLarge(err: unknown): boolean {
  return err instanceof KubeApiError && err.status === 504 && err.causes.includes('ResourceVersionTooLarge');
}

/** 403: RBAC refused the request. */
export function isForbidden(err: unknown): boolean {
  return apiStatusOf(err) === 403;
}

/**
 * 403 because the object's namespace is being deleted (Status cause `NamespaceTerminating`): nothing new can be created
 * in it, by anyone; not an authorization failure.
 */
export function isNamespaceTerminating(err: unknown): boolean {
  return err instanceof KubeApiError && err.status === 403 && err.causes.includes('NamespaceTerminating');
}

/** 422: the object failed validation (schema or CEL); not worth retrying unchanged. */
export function isInvalid(err: unknown): boolean {
  return apiStatusOf(err) === 422;
}

/** 429 or 5xx: the apiserver is overloaded or failing; retry with backoff. */
export function isRetryable(err: unknown): boolean {
  const status = apiStatusOf(err);
  return status === 429 || (status !== undefined && status >= 500);
}

function reasonOf(err: unknown): string | undefined {
  if (err instanceof KubeApiError) return err.reason;
  if (err instanceof ApiException) {
    const body: unknown = (err as ApiException<unknown>).body;
    const parsed: unknown = typeof body === 'string' ? safeParse(body) : body;
    if (typeof parsed === 'object' && parsed !== null && 'reason' in parsed && typeof parsed.reason === 'string') return parsed.reason;
  }
  return undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
