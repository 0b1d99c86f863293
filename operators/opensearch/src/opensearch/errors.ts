/**
 * OpenSearch failures as errors carrying a CamelCase condition `reason` and a message without secrets, so a
 * reconciler can write conditions from them. Retryable ones are {@link OpenSearchError}; what only a spec change
 * can fix is a `TerminalError` carrying OpenSearch's own explanation.
 */
import { ReasonedError, Reasons, TerminalError } from '@domain-operators/reconcile';
import { errors } from '@opensearch-project/opensearch';
import { isRecord, stringField } from './json.ts';
import { OpenSearchReasons } from './reasons.ts';

/** Condition reasons of retryable OpenSearch failures: OpenSearch's own and the runtime's shared ones. */
export type OpenSearchReason =
  | typeof OpenSearchReasons.unavailable
  | typeof Reasons.authenticationFailed
  | typeof Reasons.notAuthorized
  | typeof OpenSearchReasons.notFound
  | typeof Reasons.alreadyExists
  | typeof OpenSearchReasons.dependencyNotReady
  | typeof OpenSearchReasons.error;

/** A retryable OpenSearch failure; `reason` becomes the condition reason, `message` is safe to show. */
export class OpenSearchError extends ReasonedError<OpenSearchReason> {
  override readonly name = 'OpenSearchError';
  /** HTTP status when OpenSearch answered. */
  readonly status: number | undefined;

  constructor(reason: OpenSearchReason, message: string, status?: number, options?: ErrorOptions) {
    super(reason, message, options);
    this.status = status;
  }
}

/** True for an {@link OpenSearchError}, optionally of the given reason. */
export function isOpenSearchError(err: unknown, reason?: OpenSearchReason): err is OpenSearchError {
  return err instanceof OpenSearchError && (reason === undefined || err.reason === reason);
}

/** How to classify a failed call: what it was (for messages) and the reason a 400 of it gets. */
export interface CallDescription {
  /** e.g. `put mapping of index team-a-logs`. */
  readonly operation: string;
  /** Reason of the `TerminalError` for a 400 answer; default `InvalidSpec`. */
  readonly badRequestReason?: string;
}

// OpenSearch error types of a 400 that are not about the spec: the target exists already, or the cluster is busy.
const ALREADY_EXISTS_400_TYPES = new Set(['resource_already_exists_exception']);
const BUSY_400_TYPES = new Set(['process_cluster_event_timeout_exception']);

/**
 * 400 answers about ANOTHER object, which time (or that object's own resource) fixes, not this spec: an index
 * template naming component templates that do not exist yet (applied in one `kubectl apply` with them, it may be
 * reconciled first), and a component template still used by index templates (deleted with them, e.g. in a namespace
 * deletion). OpenSearch gives them generic types, so they are told apart by their text.
 */
const DEPENDENCY_400_PATTERNS = [
  /specifies component templates \[[^\]]*\] that do not exist/,
  /cannot be removed as they are still in use by/,
  // A data stream created before the index template (with data_stream) that must match it.
  /no matching index template found for data stream/,
  // An index template deleted while a data stream still uses it: it can go once the data stream is gone.
  /unable to remove composable templates \[[^\]]*\] as they are in use by a data streams?/,
];

/**
 * Maps anything the client threw to a reasoned error:
 * no answer (refused, reset, timeout, no living node) → `OpenSearchUnavailable`; 401 → `AuthenticationFailed`;
 * 403 → `NotAuthorized` (`Forbidden` before 0.2); 404 → `NotFound`; 429 and 5xx → `OpenSearchUnavailable`; 400 with
 * `resource_already_exists_exception` → `AlreadyExists`; `process_cluster_event_timeout_exception` (the master
 * could not process the change in time) → `OpenSearchUnavailable`; 400 about a missing or still-used component template
 * (see `DEPENDENCY_400_PATTERNS`) → `DependencyNotReady`, retried with backoff; any other 400 → `TerminalError` with
 * `badRequestReason` and OpenSearch's own type and reason. An aborted request rethrows the abort. Pure.
 */
export function classifyError(err: unknown, call: CallDescription): Error {
  if (err instanceof OpenSearchError || err instanceof TerminalError) return err;
  if (err instanceof errors.RequestAbortedError) return err;
  if (err instanceof errors.ConnectionError || err instanceof errors.NoLivingConnectionsError || err instanceof errors.TimeoutError) {
    return new OpenSearchError(OpenSearchReasons.unavailable, `${call.operation}: OpenSearch is unreachable (${redact(err.message)})`, undefined, { cause: err });
  }
  if (err instanceof errors.ResponseError) {
    const status = err.statusCode;
    const explanation = explain(err.body);
    const text = `${call.operation}: ${explanation === '' ? `HTTP ${status}` : explanation}`;
    if (status === 401) return new OpenSearchError(Reasons.authenticationFailed, `${call.operation}: OpenSearch refused the credentials (401)`, status);
    if (status === 403) return new OpenSearchError(Reasons.notAuthorized, text, status);
    if (status === 404) return new OpenSearchError(OpenSearchReasons.notFound, text, status);
    if (status === 429 || status >= 500) return new OpenSearchError(OpenSearchReasons.unavailable, text, status);
    if (status === 400 && ALREADY_EXISTS_400_TYPES.has(errorType(err.body))) return new OpenSearchError(Reasons.alreadyExists, text, status);
    if (status === 400 && BUSY_400_TYPES.has(errorType(err.body))) return new OpenSearchError(OpenSearchReasons.unavailable, text, status);
    if (status === 400 && DEPENDENCY_400_PATTERNS.some((pattern) => pattern.test(explanation))) return new OpenSearchError(OpenSearchReasons.dependencyNotReady, text, status);
    if (status === 400) return new TerminalError(text, call.badRequestReason ?? Reasons.invalidSpec);
    return new OpenSearchError(OpenSearchReasons.error, text, status);
  }
  const message = err instanceof Error ? redact(err.message) : String(err);
  return new OpenSearchError(OpenSearchReasons.error, `${call.operation}: ${message}`, undefined, { cause: err });
}

/**
 * The error for a cluster that answers but cannot serve: `red` health means some primary shard is unassigned.
 * Returns `undefined` for green and yellow. Pure.
 */
export function healthError(health: string, clusterName: string): OpenSearchError | undefined {
  return health === 'red' ? new OpenSearchError(OpenSearchReasons.unavailable, `cluster ${clusterName} health is red (some primary shards are unassigned)`) : undefined;
}

/**
 * OpenSearch's own explanation in an error body: `type: reason` (REST), followed by each `caused_by` whose reason says
 * something new (`repository_exception: [r] failed to create repository; caused by repository_exception: [r] location
 * [/x] doesn't match any of the locations specified by path.repo`), or the security API's `message`/`reason`.
 */
function explain(body: unknown): string {
  if (typeof body === 'string') return body.slice(0, 500);
  if (!isRecord(body)) return '';
  const error = body['error'];
  if (isRecord(error)) {
    const parts: string[] = [];
    const reasons = new Set<string>();
    // At most a few levels: OpenSearch nests the underlying exception (a parse error, a file error) under caused_by.
    let cause: unknown = error;
    for (let depth = 0; depth < 4 && isRecord(cause); depth++) {
      const type = stringField(cause, 'type');
      const reason = stringField(cause, 'reason');
      if (depth === 0 || (reason !== undefined && !reasons.has(reason))) {
        if (reason !== undefined) reasons.add(reason);
        parts.push([type, reason].filter((part) => part !== undefined).join(': '));
      }
      cause = cause['caused_by'];
    }
    return parts.join('; caused by ');
  }
  if (typeof error === 'string') return error;
  return stringField(body, 'message') ?? stringField(body, 'reason') ?? '';
}

function errorType(body: unknown): string {
  return isRecord(body) ? (stringField(body['error'], 'type') ?? '') : '';
}

/** Removes `user:password@` from URLs in a message. */
function redact(message: string): string {
  return message.replace(/\/\/[^/@\s]+@/g, '//***@');
}
