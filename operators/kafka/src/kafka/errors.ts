import { ReasonedError, Reasons, TerminalError } from '@domain-operators/reconcile';
import { ProtocolError } from '@platformatic/kafka';
import { KafkaReasons } from './reasons.ts';

/** Reasons of retryable Kafka failures, for status conditions: Kafka's own and the runtime's shared ones. */
export type KafkaFailureReason =
  | typeof KafkaReasons.unavailable
  | typeof Reasons.authenticationFailed
  | typeof Reasons.notAuthorized
  | typeof Reasons.alreadyExists
  | typeof KafkaReasons.error;

/**
 * A Kafka failure worth retrying (with backoff): the broker is unreachable, the login failed, the operator lacks
 * permission, a topic already exists, or Kafka answered an error that may pass. `reason` is CamelCase for a
 * condition; `message` names the action and Kafka's own explanation, never a password. The library's error is the
 * `cause`, for logs.
 */
export class KafkaAdminError extends ReasonedError<KafkaFailureReason> {
  override readonly name = 'KafkaAdminError';
}

/** True for a {@link KafkaAdminError}, optionally of one reason. */
export function isKafkaAdminError(err: unknown, reason?: KafkaFailureReason): err is KafkaAdminError {
  return err instanceof KafkaAdminError && (reason === undefined || err.reason === reason);
}

// Kafka answers these for input that will keep failing until the spec changes: TerminalError, Kafka's message.
const TERMINAL_CODES: Readonly<Record<string, string>> = {
  INVALID_CONFIG: KafkaReasons.invalidConfig,
  POLICY_VIOLATION: KafkaReasons.policyViolation,
  INVALID_REPLICATION_FACTOR: KafkaReasons.invalidReplicationFactor,
  INVALID_PARTITIONS: KafkaReasons.invalidPartitions,
  INVALID_TOPIC_EXCEPTION: KafkaReasons.invalidTopic,
  INVALID_REPLICA_ASSIGNMENT: KafkaReasons.invalidReplicaAssignment,
  UNACCEPTABLE_CREDENTIAL: KafkaReasons.unacceptableCredential,
  INVALID_PRINCIPAL_TYPE: KafkaReasons.invalidPrincipal,
  UNSUPPORTED_SASL_MECHANISM: KafkaReasons.unsupportedSaslMechanism,
};

const AUTHORIZATION_CODES = new Set([
  'TOPIC_AUTHORIZATION_FAILED',
  'GROUP_AUTHORIZATION_FAILED',
  'CLUSTER_AUTHORIZATION_FAILED',
  'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
  'DELEGATION_TOKEN_AUTHORIZATION_FAILED',
  'SECURITY_DISABLED',
]);

/**
 * The error for one item of a Kafka response with a non-zero error code (`serverMessage` is the broker's text, when
 * it sent one): a {@link TerminalError} for invalid input, a {@link KafkaAdminError} otherwise. `action` says what was
 * attempted, e.g. `create topic team-a.orders`.
 */
export function errorForCode(code: number, serverMessage: string | null | undefined, action: string): Error {
  return fromProtocolError(new ProtocolError(code, serverMessage === '' ? null : serverMessage), action);
}

/**
 * Classifies anything `@platformatic/kafka` threw: authentication failures → `AuthenticationFailed`; refused,
 * reset, closed or timed-out connections → `KafkaUnavailable`; a response with error codes → as
 * {@link errorForCode} (the first code); anything else → `KafkaError`. Errors already classified pass through.
 */
export function classifyKafkaError(err: unknown, action: string): Error {
  if (err instanceof KafkaAdminError || err instanceof TerminalError) return err;
  if (!(err instanceof Error)) return new KafkaAdminError(KafkaReasons.error, `${action}: ${String(err)}`);
  const chain = flatten(err);
  const auth = chain.find((e) => codeOf(e) === 'PLT_KFK_AUTHENTICATION' || apiIdOf(e) === 'SASL_AUTHENTICATION_FAILED');
  if (auth !== undefined) {
    const server = chain.map(serverMessageOf).find((m) => m !== undefined);
    return new KafkaAdminError(Reasons.authenticationFailed, `${action}: authentication to Kafka failed${server === undefined ? '' : `: ${server}`}`, { cause: err });
  }
  const protocol = chain.find((e) => apiIdOf(e) !== undefined);
  if (protocol !== undefined) return fromProtocolError(protocol, action, err);
  if (chain.some((e) => codeOf(e) === 'PLT_KFK_NETWORK' || codeOf(e) === 'PLT_KFK_TIMEOUT' || isSocketError(e))) {
    return new KafkaAdminError(KafkaReasons.unavailable, `${action}: Kafka is unavailable: ${describeChain(chain)}`, { cause: err });
  }
  return new KafkaAdminError(KafkaReasons.error, `${action}: ${describeChain(chain)}`, { cause: err });
}

/** True when `err` (as thrown by the library) means the connection is unusable and must be replaced. */
export function isConnectionFailure(err: unknown): boolean {
  return err instanceof Error && flatten(err).some((e) => codeOf(e) === 'PLT_KFK_NETWORK' || codeOf(e) === 'PLT_KFK_TIMEOUT' || isSocketError(e));
}

function fromProtocolError(protocol: Error, action: string, cause: Error = protocol): Error {
  const id = apiIdOf(protocol) ?? 'UNKNOWN_SERVER_ERROR';
  const text = serverMessageOf(protocol) ?? protocol.message;
  const message = `${action}: ${text} (${id})`;
  const terminal = TERMINAL_CODES[id];
  if (terminal !== undefined) return new TerminalError(message, terminal, { cause });
  if (id === 'TOPIC_ALREADY_EXISTS') return new KafkaAdminError(Reasons.alreadyExists, message, { cause });
  if (id === 'SASL_AUTHENTICATION_FAILED') return new KafkaAdminError(Reasons.authenticationFailed, message, { cause });
  if (AUTHORIZATION_CODES.has(id)) return new KafkaAdminError(Reasons.notAuthorized, message, { cause });
  return new KafkaAdminError(KafkaReasons.error, message, { cause });
}

/** `err` and every error it aggregates or wraps, depth first, bounded. */
function flatten(err: Error, depth = 0): Error[] {
  if (depth > 6) return [err];
  const inner: unknown[] = err instanceof AggregateError ? [...(err.errors as unknown[]), err.cause] : [err.cause];
  return [err, ...inner.filter((e): e is Error => e instanceof Error).flatMap((e) => flatten(e, depth + 1))];
}

function describeChain(chain: readonly Error[]): string {
  return [...new Set(chain.map((e) => e.message))].join(': ');
}

function prop(err: Error, key: string): unknown {
  return (err as unknown as Record<string, unknown>)[key];
}

function codeOf(err: Error): string | undefined {
  const code = prop(err, 'code');
  return typeof code === 'string' ? code : undefined;
}

function apiIdOf(err: Error): string | undefined {
  const id = prop(err, 'apiId');
  return typeof id === 'string' ? id : undefined;
}

function serverMessageOf(err: Error): string | undefined {
  const message = prop(err, 'serverErrorMessage');
  return typeof message === 'string' && message !== '' ? message : undefined;
}

function isSocketError(err: Error): boolean {
  const code = codeOf(err);
  return code !== undefined && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/.test(code);
}
